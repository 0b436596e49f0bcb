"""ShopeePay's CPM service as the emulator plays it (shared/spec/shopeepay.md): create a
payment from a customer's code, check a payment (type 13) or a refund (type 15), refund in
parts. A refusal carries no transaction (as ShopeePay's do); a repeated reference answers 11
while nothing is final; amounts travel ×100."""

from __future__ import annotations

import re
import secrets
import threading
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from pos_terminal.emulator.customer_codes import CustomerCodes
from pos_terminal.emulator.shopeepay.customers import BY_NUMBER, CUSTOMERS, Customer

JSON = dict[str, Any]
CustomerFault = Callable[[str], bool]

DEMO_CLIENT_ID = "SPAYDEMOCLIENT01"
DEMO_SECRET_KEY = "emulatorShopeePaySecretNotForProduction"  # noqa: S105 - a demo merchant
DEMO_MERCHANT = "DEMOMERCHANT"
DEMO_STORE = "DEMOSTORE01"
PAYMENT, REFUND = 13, 15
PROCESSING, PAID, FAILED = 2, 3, 4
_CODE = re.compile(r"SPC[0-9]{17}")
_ID_MAX = 64


@dataclass
class Payment:
    reference_id: str
    customer: Customer
    amount: int  # VND
    serial: str
    status: int
    ready_at: float = 0.0
    refunds: list[str] = field(default_factory=list)


@dataclass
class RefundRecord:
    reference_id: str
    payment: Payment
    amount: int
    serial: str
    body: JSON


class Reject(Exception):
    def __init__(self, code: int, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


@dataclass(frozen=True)
class ShopeePayOptions:
    client_id: str = DEMO_CLIENT_ID
    secret_key: str = DEMO_SECRET_KEY
    merchant_ext_id: str = DEMO_MERCHANT
    store_ext_id: str = DEMO_STORE
    processing_s: float = 3.0


class ShopeePayService(CustomerCodes):
    customers = CUSTOMERS

    def __init__(self, options: ShopeePayOptions) -> None:
        self.options = options
        self.processing_s = options.processing_s
        self.lock = threading.RLock()
        self.reset()

    def reset(self) -> None:
        with self.lock:
            self.balances = {c.id: c.balance for c in CUSTOMERS}
            self.codes: dict[str, str | None] = {}
            self.current: dict[str, str] = {}
            self.payments: dict[str, Payment] = {}
            self.refunds: dict[str, RefundRecord] = {}
            self.requests: Counter[str] = Counter()
            self._sequence = 0

    # -- codes -------------------------------------------------------------------------------
    def _fresh_code(self, customer: Customer) -> str:
        return f"SPC{customer.number}{secrets.randbelow(10**15):015d}"

    # -- answers -----------------------------------------------------------------------------
    @staticmethod
    def refusal(body: JSON, code: int, message: str = "") -> JSON:
        return {"request_id": body.get("request_id"), "errcode": code,
                "debug_msg": message or f"errcode {code}"}

    def _transaction(self, reference_id: str, amount: int, status: int, serial: str,
                     kind: int) -> JSON:
        return {"reference_id": reference_id, "amount": amount * 100, "status": status,
                "transaction_sn": serial, "transaction_type": kind,
                "merchant_ext_id": self.options.merchant_ext_id,
                "store_ext_id": self.options.store_ext_id}

    def _payment_answer(self, body: JSON, payment: Payment) -> JSON:
        return {"request_id": body.get("request_id"), "errcode": 0, "debug_msg": "success",
                "payment_method": 4, "transaction": self._transaction(
                    payment.reference_id, payment.amount, payment.status, payment.serial,
                    PAYMENT)}

    # -- checks ------------------------------------------------------------------------------
    def _common(self, body: JSON, *names: str) -> int:
        if (body.get("merchant_ext_id") != self.options.merchant_ext_id
                or body.get("store_ext_id") != self.options.store_ext_id):
            raise Reject(4, "merchant or store not found")
        for name in ("request_id", *names):
            value = body.get(name)
            if not isinstance(value, str) or not 0 < len(value) <= _ID_MAX:
                raise Reject(1, f"{name}: 1 to {_ID_MAX} characters")
        amount = body.get("amount")
        if not isinstance(amount, int) or isinstance(amount, bool) or amount < 100 or (
                amount % 100):
            raise Reject(1, "amount: a whole number of dong ×100")
        return amount // 100

    def _advance(self, payment: Payment, now: float) -> None:
        if payment.status == PROCESSING and now >= payment.ready_at:
            self._settle(payment)

    def _settle(self, payment: Payment) -> None:
        if self.balances[payment.customer.id] < payment.amount:
            payment.status = FAILED
        else:
            payment.status = PAID
            self.balances[payment.customer.id] -= payment.amount

    def _serial(self) -> str:
        self._sequence += 1
        return f"{7_000_000_000 + self._sequence}"

    # -- calls -------------------------------------------------------------------------------
    def pay(self, body: JSON, now: float, fault: CustomerFault) -> JSON | None:
        with self.lock:
            self.requests["pay"] += 1
            try:
                amount = self._common(body, "payment_reference_id", "payment_code")
                if body.get("currency") != "VND":
                    raise Reject(1, "currency: VND")
                reference = str(body["payment_reference_id"])
                known = self.payments.get(reference)
                if known is not None:
                    self._advance(known, now)
                    if known.status == PROCESSING:
                        raise Reject(11, "duplicate transaction")
                    return self._payment_answer(body, known)
                code = str(body["payment_code"]).upper()
                customer = BY_NUMBER.get(code[3:5]) if _CODE.fullmatch(code) else None
                if customer is None or code not in self.codes or self.codes[code] is not None:
                    raise Reject(301, "invalid payment code")
                if fault(customer.id):
                    return None
            except Reject as rejected:
                return self.refusal(body, rejected.code, rejected.message)
            self.codes[code] = reference
            payment = Payment(reference, customer, amount, self._serial(), PROCESSING)
            self.payments[reference] = payment
            if customer.behaviour == "balance" or self.balances[customer.id] < amount:
                payment.status = FAILED  # a refusal carries no transaction
                return self.refusal(body, 42, "insufficient balance")
            if customer.behaviour == "processing":
                payment.ready_at = now + self.processing_s
            else:
                self._settle(payment)
            return self._payment_answer(body, payment)

    def check(self, body: JSON, now: float, fault: CustomerFault) -> JSON | None:
        with self.lock:
            self.requests["check"] += 1
            try:
                amount = self._common(body, "reference_id")
                kind = body.get("transaction_type")
                reference = str(body["reference_id"])
                if kind == PAYMENT:
                    payment = self.payments.get(reference)
                    if payment is None:
                        raise Reject(4, "transaction not found")
                    if fault(payment.customer.id):
                        return None
                    if amount != payment.amount:
                        raise Reject(1, "amount: not the original transaction's amount")
                    self._advance(payment, now)
                    return self._payment_answer(body, payment)
                if kind == REFUND:
                    record = self.refunds.get(reference)
                    if record is None:
                        raise Reject(4, "transaction not found")
                    if fault(record.payment.customer.id):
                        return None
                    if amount != record.amount:
                        raise Reject(1, "amount: not the refund's amount")
                    return self._refund_answer(body, record)
                raise Reject(1, "transaction_type: 13 or 15")
            except Reject as rejected:
                return self.refusal(body, rejected.code, rejected.message)

    def _refund_answer(self, body: JSON, record: RefundRecord) -> JSON:
        return {"request_id": body.get("request_id"), "errcode": 0, "debug_msg": "success",
                "transaction": self._transaction(record.reference_id, record.amount, PAID,
                                                 record.serial, REFUND)}

    def refund(self, body: JSON, now: float, fault: CustomerFault) -> JSON | None:
        with self.lock:
            self.requests["refund"] += 1
            try:
                amount = self._common(body, "reference_id", "refund_reference_id")
                reference = str(body["refund_reference_id"])
                known = self.refunds.get(reference)
                if known is not None:  # the same payload acts once
                    if {k: v for k, v in known.body.items() if k != "request_id"} != {
                            k: v for k, v in body.items() if k != "request_id"}:
                        raise Reject(11, "duplicate refund_reference_id")
                    return self._refund_answer(body, known)
                payment = self.payments.get(str(body["reference_id"]))
                if payment is None or body.get("transaction_type") != PAYMENT:
                    raise Reject(4, "transaction not found")
                if fault(payment.customer.id):
                    return None
                self._advance(payment, now)
                refunded = sum(self.refunds[r].amount for r in payment.refunds)
                if payment.status != PAID:
                    raise Reject(2, "the payment is not successful: nothing to refund")
                if amount > payment.amount - refunded:
                    raise Reject(1, "amount: more than is left to refund")
            except Reject as rejected:
                return self.refusal(body, rejected.code, rejected.message)
            record = RefundRecord(reference, payment, amount, self._serial(), dict(body))
            self.refunds[reference] = record
            payment.refunds.append(reference)
            self.balances[payment.customer.id] += amount
            return self._refund_answer(body, record)


def demo_settings(settings: Any, base_url: str, gateway_url: str) -> dict[str, object]:
    """`[providers.shopeepay]` as the demo's merchant of this emulator."""
    return {"base_url": base_url, "client_id": DEMO_CLIENT_ID, "secret_key": DEMO_SECRET_KEY,
            "merchant_ext_id": DEMO_MERCHANT, "store_ext_id": DEMO_STORE,
            "environment": "emulator"}
