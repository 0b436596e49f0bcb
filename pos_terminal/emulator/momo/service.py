"""MoMo's POS API as the emulator answers it: pure request -> answer functions over its books.

Checked in MoMo's order: the partner, the fields and their formats, the signature, the amount
limits, then the business rules. A repeated requestId answers what its first request answered
once that is final, and 40 "duplicated requestId" while it is not (spec: then query). A payment
code is single-use and must be one the emulator issued.
"""

from __future__ import annotations

import base64
import binascii
import re
import secrets
import threading
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from cryptography.hazmat.primitives.asymmetric import rsa

from pos_terminal.emulator.customer_codes import CustomerCodes
from pos_terminal.emulator.momo import signatures
from pos_terminal.emulator.momo.customers import BY_NUMBER, CUSTOMERS, Customer
from pos_terminal.emulator.pkcs1 import decrypt_v15

JSON = dict[str, Any]
CustomerFault = Callable[[str], bool]

#: The emulator's MoMo merchant (config/default.toml's [providers.momo] holds the same).
DEMO_PARTNER_CODE = "MOMOPOSDEMO01"
DEMO_ACCESS_KEY = "emulatorMomoAccessKey"
DEMO_SECRET_KEY = "emulatorMomoSecretKeyNotForProduction"  # noqa: S105 - a demo merchant

PAY_LIMITS = (1_000, 5_000_000)
REFUND_LIMITS = (1_000, 50_000_000)
_ORDER_ID = re.compile(r"[0-9a-zA-Z]([-_.]*[0-9a-zA-Z]+)*")
_CODE = re.compile(r"MM[0-9]{18}", re.IGNORECASE)
FINAL = frozenset({0, 1001, 1002, 1003, 1081, 41, 42, 20, 21, 22, 11, 13})

MESSAGES = {
    0: "Thành công.", 9000: "Giao dịch đã được xác nhận thành công.",
    1000: "Giao dịch đã được khởi tạo, chờ người dùng xác nhận thanh toán.",
    1001: "Giao dịch thanh toán thất bại do tài khoản người dùng không đủ tiền.",
    1002: "Giao dịch bị từ chối do nhà phát hành tài khoản thanh toán.",
    1003: "Giao dịch bị đã bị hủy.",
    1081: "Giao dịch hoàn tiền bị từ chối.",
    11: "Truy cập bị từ chối.", 13: "Xác thực doanh nghiệp thất bại.",
    20: "Yêu cầu sai định dạng.", 21: "Số tiền giao dịch không hợp lệ.",
    22: "Số tiền giao dịch nằm ngoài phạm vi cho phép.", 40: "RequestId bị trùng.",
    41: "OrderId bị trùng.", 42: "OrderId không hợp lệ hoặc không được tìm thấy.",
}


@dataclass
class MomoOrder:
    order_id: str
    customer: Customer
    amount: int
    trans_id: int
    auto_capture: bool
    status: str  # processing | held | paid | declined | cancelled
    code: int
    ready_at: float = 0.0
    refunds: list[JSON] = field(default_factory=list)

    @property
    def refunded(self) -> int:
        return sum(r["amount"] for r in self.refunds if r["resultCode"] == 0)


@dataclass(frozen=True)
class MomoOptions:
    partner_code: str = DEMO_PARTNER_CODE
    access_key: str = DEMO_ACCESS_KEY
    secret_key: str = DEMO_SECRET_KEY
    processing_s: float = 3.0


class Reject(Exception):
    def __init__(self, code: int, message: str = "") -> None:
        super().__init__(message)
        self.code = code
        self.message = message or MESSAGES.get(code, "")


class MomoService(CustomerCodes):
    customers = CUSTOMERS

    def __init__(self, options: MomoOptions, private_key: rsa.RSAPrivateKey) -> None:
        self.options = options
        #: how long a "processing" customer takes to confirm (tests hold it, then release)
        self.processing_s = options.processing_s
        self._key = private_key
        self.lock = threading.RLock()
        self.reset()

    def reset(self) -> None:
        with self.lock:
            self.balances = {c.id: c.balance for c in CUSTOMERS}
            self.codes: dict[str, str | None] = {}  # issued code -> order that used it
            self.current: dict[str, str] = {}  # customer -> its code on screen
            self.orders: dict[str, MomoOrder] = {}
            self.by_trans: dict[int, MomoOrder] = {}
            self.refund_ids: set[str] = set()
            self.answers: dict[tuple[str, str], JSON] = {}
            self.requests: Counter[str] = Counter()
            self._sequence = 0

    # -- codes -------------------------------------------------------------------------------
    def _fresh_code(self, customer: Customer) -> str:
        return f"MM{customer.number}{secrets.randbelow(10**16):016d}"

    # -- time ------------------------------------------------------------------------------
    def _advance(self, order: MomoOrder, now: float) -> None:
        if order.status == "processing" and now >= order.ready_at:
            self._authorise(order, now)
        elif (order.status == "held" and order.auto_capture and order.ready_at
              and now >= order.ready_at):
            self._take(order)  # the held customer: MoMo captures it itself

    def _authorise(self, order: MomoOrder, now: float) -> None:
        hold = order.customer.behaviour == "hold"
        if not order.auto_capture or hold:
            order.status, order.code = "held", 9000
            order.ready_at = now + self.processing_s if order.auto_capture else 0.0
        else:
            self._take(order)

    def _take(self, order: MomoOrder) -> None:
        order.status, order.code = "paid", 0
        self.balances[order.customer.id] -= order.amount

    # -- checks ------------------------------------------------------------------------------
    def _common(self, call: str, body: JSON) -> str:
        if body.get("partnerCode") != self.options.partner_code:
            raise Reject(11, "partnerCode không hợp lệ.")
        request_id = body.get("requestId")
        if not isinstance(request_id, str) or not 1 <= len(request_id) <= 50:
            raise Reject(20, "requestId: 1 to 50 characters")
        order_id = body.get("orderId")
        if not isinstance(order_id, str) or _ORDER_ID.fullmatch(order_id) is None:
            raise Reject(20, "orderId: letters and digits, -_. between them")
        if body.get("lang", "vi") not in ("vi", "en"):
            raise Reject(20, "lang: vi or en")
        if not signatures.valid(call, body, self.options.access_key, self.options.secret_key):
            raise Reject(13, "Chữ ký không hợp lệ (signature).")
        return request_id

    @staticmethod
    def _amount(body: JSON, limits: tuple[int, int]) -> int:
        value = body.get("amount")
        if isinstance(value, str) and value.isascii() and value.isdigit() and len(value) < 16:
            value = int(value)
        if not isinstance(value, int) or isinstance(value, bool):
            raise Reject(21)
        if not limits[0] <= value <= limits[1]:
            raise Reject(22)
        return value

    def _answer(self, body: JSON, code: int, **extra: Any) -> JSON:
        return {"partnerCode": self.options.partner_code, "orderId": body.get("orderId"),
                "requestId": body.get("requestId"), "resultCode": code,
                "message": extra.pop("message", MESSAGES.get(code, "")),
                "responseTime": extra.pop("now_ms", 0), **extra}

    def _idempotent(self, call: str, body: JSON, now: float,
                    run: Callable[[], JSON | None]) -> JSON | None:
        """A repeated requestId: the first answer if final, else 40 (query meanwhile)."""
        try:
            request_id = self._common(call, body)
        except Reject as rejected:
            return self._answer(body, rejected.code, message=rejected.message,
                                now_ms=int(now * 1000))
        with self.lock:
            self.requests[call] += 1
            first = self.answers.get((call, request_id))
            if first is not None:
                order = self.orders.get(str(body.get("orderId")))
                if order is not None:
                    self._advance(order, now)
                if first["resultCode"] in FINAL:
                    return first
                return self._answer(body, 40, now_ms=int(now * 1000))
            answer = run()
            if answer is not None:
                self.answers[(call, request_id)] = answer
            return answer

    # -- payment -----------------------------------------------------------------------------
    def pay(self, body: JSON, now: float, fault: CustomerFault) -> JSON | None:
        return self._idempotent("pay", body, now, lambda: self._pay(body, now, fault))

    def _decrypt(self, sealed: object) -> str:
        if not isinstance(sealed, str):
            raise Reject(20, "paymentCode is missing")
        try:
            data = decrypt_v15(self._key, base64.b64decode(sealed, validate=True))
            return data.decode("ascii")
        except (ValueError, binascii.Error, UnicodeDecodeError):
            raise Reject(20, "paymentCode: not RSA-encrypted with MoMo's public key") from None

    def _pay(self, body: JSON, now: float, fault: CustomerFault) -> JSON | None:
        now_ms = int(now * 1000)
        try:
            amount = self._amount(body, PAY_LIMITS)
            for name in ("orderInfo", "extraData", "storeId"):
                if not isinstance(body.get(name, ""), str):
                    raise Reject(20, f"{name} must be text")
            if not isinstance(body.get("autoCapture", True), bool):
                raise Reject(20, "autoCapture must be true or false")
            code = self._decrypt(body.get("paymentCode"))
            customer = BY_NUMBER.get(code[2:4]) if _CODE.fullmatch(code) else None
            if customer is None or code.upper() not in self.codes:
                raise Reject(1002, "Mã thanh toán không hợp lệ.")
            if fault(customer.id):
                return None  # a fault bound to this customer stops it before the commit
            if self.codes[code.upper()] is not None:
                raise Reject(1002, "Mã thanh toán đã được sử dụng.")
            order_id = str(body["orderId"])
            if order_id in self.orders or order_id in self.refund_ids:
                raise Reject(41)
        except Reject as rejected:
            return self._answer(body, rejected.code, message=rejected.message, now_ms=now_ms)
        self.codes[code.upper()] = order_id
        self._sequence += 1
        order = MomoOrder(order_id, customer, amount, 4_000_000_000 + self._sequence,
                          bool(body.get("autoCapture", True)), "processing", 1000)
        self.orders[order_id] = order
        self.by_trans[order.trans_id] = order
        if customer.behaviour == "balance" or self.balances[customer.id] < amount:
            order.status, order.code = "declined", 1001
        elif customer.behaviour == "processing":
            order.ready_at = now + self.processing_s
        else:
            self._authorise(order, now)
        return self._order_answer(body, order, now_ms)

    def _order_answer(self, body: JSON, order: MomoOrder, now_ms: int) -> JSON:
        return self._answer(body, order.code, amount=order.amount, transId=order.trans_id,
                            payType="qr", now_ms=now_ms)

    # -- status ------------------------------------------------------------------------------
    def query(self, body: JSON, now: float, fault: CustomerFault) -> JSON | None:
        now_ms = int(now * 1000)
        try:
            self._common("query", body)
        except Reject as rejected:
            return self._answer(body, rejected.code, message=rejected.message, now_ms=now_ms)
        with self.lock:
            self.requests["query"] += 1
            order = self.orders.get(str(body["orderId"]))
            if order is None:
                return self._answer(body, 42, now_ms=now_ms)
            if fault(order.customer.id):
                return None
            self._advance(order, now)
            answer = self._order_answer(body, order, now_ms)
            answer["refundTrans"] = [dict(r) for r in order.refunds]
            return answer

    # -- confirm -----------------------------------------------------------------------------
    def confirm(self, body: JSON, now: float, fault: CustomerFault) -> JSON | None:
        return self._idempotent("confirm", body, now, lambda: self._confirm(body, now, fault))

    def _confirm(self, body: JSON, now: float, fault: CustomerFault) -> JSON | None:
        now_ms = int(now * 1000)
        order = self.orders.get(str(body["orderId"]))
        kind = body.get("requestType")
        try:
            if order is None:
                raise Reject(42)
            if kind not in ("capture", "cancel") or not isinstance(body.get("description", ""),
                                                                   str):
                raise Reject(20, "requestType: capture or cancel")
            if self._amount(body, PAY_LIMITS) != order.amount:
                raise Reject(21, "amount: not the authorised amount")
            if fault(order.customer.id):
                return None
            self._advance(order, now)
            if order.status != "held":
                raise Reject(20 if order.status != "cancelled" else 1003,
                             f"the order is {order.status}, not waiting for a confirm")
        except Reject as rejected:
            return self._answer(body, rejected.code, message=rejected.message, now_ms=now_ms)
        if kind == "capture":
            self._take(order)
        else:
            order.status, order.code = "cancelled", 1003
        return self._answer(body, 0, amount=order.amount, transId=order.trans_id,
                            requestType=kind, now_ms=now_ms)

    # -- refund ------------------------------------------------------------------------------
    def refund(self, body: JSON, now: float, fault: CustomerFault) -> JSON | None:
        return self._idempotent("refund", body, now, lambda: self._refund(body, now, fault))

    def _refund(self, body: JSON, now: float, fault: CustomerFault) -> JSON | None:
        now_ms = int(now * 1000)
        refund_id = str(body["orderId"])
        try:
            amount = self._amount(body, REFUND_LIMITS)
            trans = body.get("transId")
            order = self.by_trans.get(trans) if isinstance(trans, int) else None
            if order is None:
                raise Reject(42, "transId không tồn tại.")
            if not isinstance(body.get("description", ""), str):
                raise Reject(20, "description must be text")
            if refund_id in self.orders or refund_id in self.refund_ids:
                raise Reject(41)
            if fault(order.customer.id):
                return None
            self._advance(order, now)
            if order.status != "paid" or amount > order.amount - order.refunded:
                raise Reject(1081, "Hoàn tiền bị từ chối: vượt quá số tiền còn lại.")
        except Reject as rejected:
            return self._answer(body, rejected.code, message=rejected.message, now_ms=now_ms)
        self._sequence += 1
        self.refund_ids.add(refund_id)
        record = {"orderId": refund_id, "amount": amount, "resultCode": 0,
                  "transId": 5_000_000_000 + self._sequence, "createdTime": now_ms}
        order.refunds.append(record)
        self.balances[order.customer.id] += amount
        return self._answer(body, 0, amount=amount, transId=record["transId"], now_ms=now_ms)


def demo_settings(settings: Any, base_url: str, gateway_url: str) -> dict[str, object]:
    """`[providers.momo]` as the demo's merchant of this emulator (MoMo's declaration names it):
    its public key is the emulator's pair."""
    return {"base_url": base_url, "partner_code": DEMO_PARTNER_CODE,
            "access_key": DEMO_ACCESS_KEY, "secret_key": DEMO_SECRET_KEY,
            "public_key": settings.service.rsa_public_key, "store_id": "DEMO01",
            "store_name": settings.shop.name or "Cửa hàng Demo"}
