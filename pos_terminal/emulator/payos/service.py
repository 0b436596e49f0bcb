"""payOS's payment requests as the emulator keeps them: create, get, cancel, strictly checked,
and the "bank app" that pays a request (in full, in part, after it closed) or lets it expire."""

from __future__ import annotations

import secrets
import threading
import time
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta, timezone
from typing import Any

from pos_terminal.emulator.payos import signatures
from pos_terminal.emulator.payos.vietqr import vietqr
from pos_terminal.emulator.payos.webhooks import WebhookSender

JSON = dict[str, Any]
DEMO_CLIENT_ID = "emulator-payos-client"
DEMO_API_KEY = "emulator-payos-api-key"
DEMO_CHECKSUM_KEY = "1a54716c8f0efb2744fb28b6e38b25da7f67a925d98bc1c18bd8faaecadd7675"
BANK_BIN = "970422"
ACCOUNT_NAME = "CUA HANG DEMO"
#: the merchant's own bank account (what confirm-webhook names)
MERCHANT_ACCOUNT = "0123456789"
BANK_NAME = "Ngân hàng TMCP Quân đội"
BANK_SHORT_NAME = "MBBank"
DESCRIPTION_MAX = 9
OPEN = ("PENDING", "PROCESSING", "UNDERPAID")
#: payOS writes a notice's transactionDateTime in Vietnam's time, without a zone
VIETNAM = timezone(timedelta(hours=7))


def _iso(seconds: float | None) -> str | None:
    if seconds is None:
        return None
    return datetime.fromtimestamp(seconds, UTC).isoformat(timespec="seconds")


@dataclass
class PaymentRequest:
    order_code: int
    amount: int
    description: str
    expired_at: int | None
    link_id: str
    created_at: float
    account: str
    status: str = "PENDING"
    transactions: list[JSON] = field(default_factory=list)
    cancellation_reason: str | None = None
    canceled_at: float | None = None

    @property
    def amount_paid(self) -> int:
        return sum(int(t["amount"]) for t in self.transactions)

    def data(self) -> JSON:
        return {"id": self.link_id, "orderCode": self.order_code, "amount": self.amount,
                "amountPaid": self.amount_paid,
                "amountRemaining": max(self.amount - self.amount_paid, 0),
                "status": self.status, "createdAt": _iso(self.created_at),
                "transactions": list(self.transactions),
                "cancellationReason": self.cancellation_reason,
                "canceledAt": _iso(self.canceled_at)}


def envelope(code: str, desc: str, data: JSON | None = None) -> JSON:
    signature = signatures.of_data(DEMO_CHECKSUM_KEY, data) if data is not None else None
    return {"code": code, "desc": desc, "data": data, "signature": signature}


class PayOSService:
    """The emulator's payOS merchant (one channel: the demo's keys)."""

    client_id = DEMO_CLIENT_ID
    api_key = DEMO_API_KEY
    checksum_key = DEMO_CHECKSUM_KEY

    def __init__(self, callback_hosts: tuple[str, ...] = ("127.0.0.1", "::1", "localhost")
                 ) -> None:
        self._lock = threading.Lock()
        self._requests: dict[int, PaymentRequest] = {}
        self._by_link: dict[str, int] = {}
        self.webhooks = WebhookSender(DEMO_CHECKSUM_KEY, callback_hosts)

    # --- the API --------------------------------------------------------------------------
    def create(self, body: JSON) -> JSON:
        problem = self._create_problem(body)
        if problem is not None:
            return envelope("20", problem)
        code = int(body["orderCode"])
        with self._lock:
            if code in self._requests:
                return envelope("231", "Đơn thanh toán đã tồn tại")
            account = f"VQRQ{secrets.randbelow(10**8):08d}"
            request = PaymentRequest(code, int(body["amount"]), body["description"],
                                     body.get("expiredAt"), secrets.token_hex(16), time.time(),
                                     account)
            self._requests[code] = request
            self._by_link[request.link_id] = code
        data = {"bin": BANK_BIN, "accountNumber": account, "accountName": ACCOUNT_NAME,
                "amount": request.amount, "description": request.description,
                "orderCode": code, "currency": "VND", "paymentLinkId": request.link_id,
                "status": "PENDING", "expiredAt": request.expired_at,
                "checkoutUrl": f"https://pay.payos.vn/web/{request.link_id}",
                "qrCode": vietqr(BANK_BIN, account, request.amount, request.description)}
        return envelope("00", "success", data)

    @staticmethod
    def _create_problem(body: JSON) -> str | None:
        for name in ("orderCode", "amount"):
            value = body.get(name)
            if isinstance(value, bool) or not isinstance(value, int) or value <= 0:
                return f"{name} must be a positive integer"
        for name in ("description", "cancelUrl", "returnUrl", "signature"):
            if not isinstance(body.get(name), str) or not body[name]:
                return f"{name} is required"
        if len(body["description"]) > DESCRIPTION_MAX:
            return f"Mô tả tối đa {DESCRIPTION_MAX} kí tự"
        expired = body.get("expiredAt")
        if expired is not None and (isinstance(expired, bool) or not isinstance(expired, int)
                                    or not 0 < expired < 2**31):
            return "expiredAt must be a Unix time in seconds"
        if body["signature"] != signatures.of_create(DEMO_CHECKSUM_KEY, body):
            return "Chữ ký không hợp lệ (signature)"
        return None

    def _find(self, ident: str) -> PaymentRequest | None:
        code = int(ident) if ident.isdigit() else self._by_link.get(ident)
        request = self._requests.get(code) if code is not None else None
        if request is not None and request.status in OPEN and request.expired_at is not None \
                and time.time() > request.expired_at:
            request.status = "EXPIRED"
        return request

    def get(self, ident: str) -> JSON:
        with self._lock:
            request = self._find(ident)
            if request is None:
                return envelope("101", "Mã thanh toán không tồn tại")
            return envelope("00", "success", request.data())

    def cancel(self, ident: str, body: JSON) -> JSON:
        reason = body.get("cancellationReason")
        with self._lock:
            request = self._find(ident)
            if request is None:
                return envelope("101", "Mã thanh toán không tồn tại")
            if request.status in OPEN:
                request.status = "CANCELLED"
                request.canceled_at = time.time()
                request.cancellation_reason = reason if isinstance(reason, str) else None
            return envelope("00", "success", request.data())

    def confirm_webhook(self, body: JSON) -> JSON:
        """Register the merchant's webhook URL once its sample notice is answered 2xx
        (blocking: the sample is POSTed there)."""
        url = body.get("webhookUrl")
        if not isinstance(url, str) or not url.startswith(("http://", "https://")):
            return envelope("20", "webhookUrl is required")
        problem = self.webhooks.confirm(url)
        if problem is not None:
            return envelope("20", problem)
        return envelope("00", "success", {
            "webhookUrl": url, "accountNumber": MERCHANT_ACCOUNT, "accountName": ACCOUNT_NAME,
            "name": BANK_NAME, "shortName": BANK_SHORT_NAME})

    # --- the bank app and the control API ----------------------------------------------------
    def pay(self, ident: str, amount: int | None = None) -> JSON | None:
        """A transfer to the request's account: its amount (all that is missing if None). A
        request already closed keeps its status: the money is there (a late transfer)."""
        with self._lock:
            request = self._find(ident)
            if request is None:
                return None
            paid = amount if amount is not None else max(request.amount - request.amount_paid, 1)
            now = time.time()
            transaction = {
                "reference": f"FT{secrets.randbelow(10**10):010d}", "amount": paid,
                "accountNumber": request.account, "description": request.description,
                "transactionDateTime": _iso(now), "virtualAccountName": None,
                "virtualAccountNumber": None, "counterAccountBankId": "970436",
                "counterAccountBankName": "Vietcombank", "counterAccountName": "NGUYEN VAN A",
                "counterAccountNumber": "0011001234567"}
            request.transactions.append(transaction)
            if request.status in OPEN:
                request.status = "PAID" if request.amount_paid >= request.amount \
                    else "UNDERPAID"
            data = request.data()
        # the merchant's webhook, in the background: the bank app never waits for it
        self.webhooks.notify({
            **{k: v for k, v in transaction.items() if k != "transactionDateTime"},
            "orderCode": request.order_code, "transactionDateTime": datetime.fromtimestamp(
                now, VIETNAM).strftime("%Y-%m-%d %H:%M:%S"),
            "currency": "VND", "paymentLinkId": request.link_id, "code": "00",
            "desc": "success"})
        return data

    def expire(self, ident: str) -> JSON | None:
        with self._lock:
            request = self._find(ident)
            if request is None:
                return None
            if request.status in OPEN:
                request.status = "EXPIRED"
            return request.data()

    def requests_json(self) -> list[JSON]:
        with self._lock:
            return [r.data() for r in sorted(self._requests.values(),
                                             key=lambda r: -r.created_at)]

    # --- PartService ---------------------------------------------------------------------
    def issue_code(self, customer_id: str) -> str:
        raise KeyError("payOS customers show no code: they pay the shop's QR")

    def customers_json(self) -> list[JSON]:
        return []

    def reset(self) -> None:
        with self._lock:
            self._requests.clear()
            self._by_link.clear()
        self.webhooks.reset()


def demo_settings(settings: Any, base_url: str, gateway_url: str) -> dict[str, object]:
    """`[providers.payos]` as the demo's merchant of this emulator."""
    return {"base_url": base_url, "client_id": DEMO_CLIENT_ID, "api_key": DEMO_API_KEY,
            "checksum_key": DEMO_CHECKSUM_KEY, "environment": "emulator"}
