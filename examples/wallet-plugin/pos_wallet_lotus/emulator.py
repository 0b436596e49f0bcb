"""Lotus Pay's stand-in service, a part of the terminal's emulator: its four API paths and the
control paths every wallet's part answers (``/_emulator/lotus/customers``, and a customer's
fresh code at ``/_emulator/lotus/customers/<id>/code``, which the demo asks for).

The emulator mounts it from the declaration (its ``emulator``, `PART`: pos_terminal.emulator.
parts), with the routing every JSON wallet's part shares (pos_terminal.emulator.json_part): fault
rules name its endpoints ``lotus_pay``, ``lotus_status``, ``lotus_refund``,
``lotus_refund_status`` and its customers. The customers:
``lotus-paid`` pays at once, ``lotus-slow`` is waiting for the customer until its payment has
been asked about twice, ``lotus-poor`` has too little money, ``lotus-frozen``'s account is
frozen (result 23, a sentence of its own: sentences.py). A code is "LT", the customer's two
digits and fourteen random ones, good for one payment."""

from __future__ import annotations

import secrets
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from aiohttp import web

from pos_terminal.emulator.json_part import JsonRoutes, mount_json_routes
from pos_terminal.emulator.parts import PartContext, PartService

from . import codes

#: The API key the stand-in service takes (a demo key: [providers.lotus] api_key).
DEMO_API_KEY = "lotus-demo-key-0001"
#: Status queries a "slow" customer's payment answers "waiting" before it is paid.
SLOW_QUERIES = 2


@dataclass(frozen=True)
class Customer:
    id: str
    name: str
    number: str  # the code's two digits after "LT"
    balance: int
    slow: bool = False
    frozen: bool = False


CUSTOMERS = (
    Customer("lotus-paid", "Sen (Lotus Pay, pays at once)", "11", 50_000_000),
    Customer("lotus-slow", "Huệ (Lotus Pay, confirms in the app)", "22", 50_000_000, slow=True),
    Customer("lotus-poor", "Cúc (Lotus Pay, balance too low)", "33", 0),
    Customer("lotus-frozen", "Đào (Lotus Pay, account frozen)", "44", 50_000_000, frozen=True),
)
_BY_ID = {c.id: c for c in CUSTOMERS}
#: whether a fault rule on this customer stops the request before anything is committed
Fault = Callable[[str], bool]


@dataclass
class Payment:
    customer: str
    order_ref: str
    amount: int
    payment_id: str
    result: int
    queries_left: int
    refunded: int = 0


@dataclass
class LotusService:
    """The service's books: issued codes, payments by order, refunds by reference."""

    issued: dict[str, Customer] = field(default_factory=dict)
    payments: dict[str, Payment] = field(default_factory=dict)
    refunds: dict[str, dict[str, Any]] = field(default_factory=dict)
    _lock: threading.Lock = field(default_factory=threading.Lock)

    def issue_code(self, customer_id: str) -> str:
        customer = _BY_ID[customer_id]
        with self._lock:
            code = f"LT{customer.number}{secrets.randbelow(10**14):014d}"
            self.issued[code] = customer
            return code

    def customers_json(self) -> list[dict[str, Any]]:
        return [{"id": c.id, "name": c.name, "balance": c.balance} for c in CUSTOMERS]

    def reset(self) -> None:
        with self._lock:
            self.issued.clear()
            self.payments.clear()
            self.refunds.clear()

    def pay(self, body: dict[str, Any], now: float, fault: Fault) -> dict[str, Any] | None:
        order_ref, amount = str(body.get("order_ref", "")), body.get("amount")
        with self._lock:
            known = self.payments.get(order_ref)
            if known is not None:  # the same order again: its answer again, nothing new
                return self._payment(known)
            customer = self.issued.get(str(body.get("code", "")))
            if customer is not None and fault(customer.id):
                return None  # a fault on this customer stops it before anything is committed
            self.issued.pop(str(body.get("code", "")), None)
            if customer is None or not isinstance(amount, int) or amount <= 0:
                return {"result": codes.CODE_NOT_VALID, "message": "code expired or unknown",
                        "order_ref": order_ref}
            if customer.frozen:
                result, waits = codes.ACCOUNT_FROZEN, 0
            elif customer.balance < amount:
                result, waits = codes.BALANCE_TOO_LOW, 0
            elif customer.slow:
                result, waits = codes.PROCESSING, SLOW_QUERIES
            else:
                result, waits = codes.PAID, 0
            payment = Payment(customer.id, order_ref, amount, f"LP{secrets.token_hex(6)}",
                              result, waits)
            self.payments[order_ref] = payment
            return self._payment(payment)

    def status(self, body: dict[str, Any], now: float, fault: Fault) -> dict[str, Any] | None:
        order_ref = str(body.get("order_ref", ""))
        with self._lock:
            payment = self.payments.get(order_ref)
            if payment is None:
                return {"result": codes.NOT_FOUND, "message": "no such payment",
                        "order_ref": order_ref}
            if payment.result == codes.PROCESSING:
                payment.queries_left -= 1
                if payment.queries_left <= 0:
                    payment.result = codes.PAID
            return self._payment(payment)

    def refund(self, body: dict[str, Any], now: float, fault: Fault) -> dict[str, Any] | None:
        refund_ref, amount = str(body.get("refund_ref", "")), body.get("amount")
        with self._lock:
            if refund_ref in self.refunds:
                return self.refunds[refund_ref]
            payment = next((p for p in self.payments.values()
                            if p.payment_id == body.get("payment_id")), None)
            if (payment is None or payment.result != codes.PAID or not isinstance(amount, int)
                    or not 0 < amount <= payment.amount - payment.refunded):
                return {"result": codes.MORE_THAN_LEFT, "message": "more than is left",
                        "refund_ref": refund_ref}
            payment.refunded += amount
            answer = {"result": codes.PAID, "message": "refunded", "refund_ref": refund_ref,
                      "refund_id": f"LR{secrets.token_hex(6)}", "amount": amount}
            self.refunds[refund_ref] = answer
            return answer

    def refund_status(self, body: dict[str, Any], now: float,
                      fault: Fault) -> dict[str, Any] | None:
        refund_ref = str(body.get("refund_ref", ""))
        with self._lock:
            return self.refunds.get(refund_ref) or {
                "result": codes.NOT_FOUND, "message": "no such refund", "refund_ref": refund_ref}

    @staticmethod
    def _payment(payment: Payment) -> dict[str, Any]:
        return {"result": payment.result, "message": "", "order_ref": payment.order_ref,
                "payment_id": payment.payment_id, "amount": payment.amount}


def _key_refused(raw: bytes, headers: Any) -> dict[str, Any] | None:
    if headers.get("Authorization") != f"Bearer {DEMO_API_KEY}":
        return {"result": codes.KEY_REFUSED, "message": "API key refused"}
    return None


ROUTES = JsonRoutes(
    wallet="lotus",
    paths={"/lotus/v1/pay": "lotus_pay", "/lotus/v1/status": "lotus_status",
           "/lotus/v1/refund": "lotus_refund", "/lotus/v1/refund-status": "lotus_refund_status"},
    handlers=lambda lotus: {"lotus_pay": lotus.pay, "lotus_status": lotus.status,
                            "lotus_refund": lotus.refund,
                            "lotus_refund_status": lotus.refund_status},
    refusal=lambda body, code: {"result": code, "message": "emulator fault",
                                "order_ref": body.get("order_ref"),
                                "refund_ref": body.get("refund_ref")},
    bad_body={"result": codes.CODE_NOT_VALID, "message": "the body must be a JSON object"},
    other_amount=lambda answer: ({**answer, "amount": answer["amount"] + 1_000}
                                 if isinstance(answer.get("amount"), int) else None),
    other_id=lambda answer: {**answer, "order_ref": f"{answer.get('order_ref')}-other"},
    check_request=_key_refused)


class LotusPart:
    """Lotus Pay's part of the emulator (pos_terminal.emulator.parts.EmulatorPart)."""

    def mount(self, app: web.Application, context: PartContext) -> PartService:
        return mount_json_routes(app, ROUTES, LotusService(), context, tuple(_BY_ID))


PART = LotusPart()
