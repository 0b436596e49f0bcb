"""The Sổ Xanh wallet: its service (in memory) and its adapter to the checkout's wallet port."""

from __future__ import annotations

import hashlib
import itertools
import threading
from dataclasses import dataclass, field

from pos_terminal.base.reasons import Reason
from pos_terminal.base.wallet_errors import MismatchedAnswer
from pos_terminal.base.wallet_types import (
    Bank,
    BankList,
    ChargeAnswer,
    HostedOrder,
    HostedOrderAnswer,
    Order,
    PreparedCharge,
    Refund,
    RefundAnswer,
    ServiceCheck,
    WalletOutcome,
)

# Sổ Xanh's own codes (its API's, not ZaloPay's): 0 done, 10 waiting for the customer,
# 44 no such order.
DONE, WAITING, NO_SUCH_ORDER = 0, 10, 44


@dataclass
class Charge:
    order: Order
    code_last4: str  # the service keeps no more of the customer's code than the terminal does
    transaction_id: str
    queries_left: int  # status queries answered "waiting" before the customer confirms
    refunded: int = 0


@dataclass
class SoXanhService:
    """The provider's side: its charges and refunds, and every call it received."""

    confirm_after_queries: int = 1
    charges: dict[str, Charge] = field(default_factory=dict)
    refunds: dict[str, tuple[str, int]] = field(default_factory=dict)
    calls: list[str] = field(default_factory=list)
    _numbers: itertools.count[int] = field(default_factory=lambda: itertools.count(1))
    _lock: threading.Lock = field(default_factory=threading.Lock)

    def charge(self, order: Order, code_last4: str) -> tuple[int, Charge]:
        with self._lock:
            self.calls.append("charge")
            charge = Charge(order, code_last4, f"SX{next(self._numbers):08d}",
                            self.confirm_after_queries)
            self.charges[order.order_id] = charge
            return WAITING, charge

    def hosted_order(self, order: Order) -> Charge:
        """An order the customer pays by scanning its QR (paid once they confirm)."""
        with self._lock:
            self.calls.append("hosted_order")
            charge = Charge(order, "", f"SX{next(self._numbers):08d}", self.confirm_after_queries)
            self.charges[order.order_id] = charge
            return charge

    def status(self, order_id: str) -> tuple[int, Charge | None]:
        with self._lock:
            self.calls.append("status")
            charge = self.charges.get(order_id)
            if charge is None:
                return NO_SUCH_ORDER, None
            if charge.queries_left > 0:
                charge.queries_left -= 1
                return WAITING, charge
            return DONE, charge

    def refund(self, refund: Refund) -> int:
        with self._lock:
            self.calls.append("refund")
            charge = next(c for c in self.charges.values()
                          if c.transaction_id == refund.transaction_id)
            charge.refunded += refund.amount
            self.refunds[refund.refund_id] = (refund.transaction_id, refund.amount)
            return DONE

    def refund_status(self, refund_id: str) -> int:
        with self._lock:
            self.calls.append("refund_status")
            return DONE if refund_id in self.refunds else NO_SUCH_ORDER


class SoXanhWallet:
    """The adapter: the terminal's types to Sổ Xanh's calls and its codes back to outcomes."""

    generation = "soxanh-1"

    def __init__(self, service: SoXanhService, terminal_id: str) -> None:
        self.service = service
        self._terminal_id = terminal_id
        self._ids = itertools.count(1)
        self.closed = False
        #: what each status query and refund named: (call, payment's order id, amount)
        self.asked: list[tuple[str, str, int]] = []

    def new_order_id(self, now_ms: int) -> str:
        return f"sx-{self._terminal_id}-{now_ms}-{next(self._ids)}"

    def new_refund_id(self, now_ms: int) -> str:
        return f"sxr-{self._terminal_id}-{now_ms}-{next(self._ids)}"

    def prepare_charge(self, order: Order, payment_code: str) -> PreparedCharge:
        body = f"{order.order_id}|{order.amount}|{order.description}"
        return PreparedCharge(order, hashlib.sha256(body.encode()).hexdigest(),
                              sealed=payment_code[-4:])

    @staticmethod
    def _answer(code: int, order_id: str, charge: Charge | None) -> ChargeAnswer:
        outcome = {DONE: WalletOutcome.PAID, WAITING: WalletOutcome.PROCESSING,
                   NO_SUCH_ORDER: WalletOutcome.NOT_FOUND}[code]
        why = {DONE: "paid", WAITING: "processing", NO_SUCH_ORDER: "not_found"}[code]
        return ChargeAnswer(
            outcome=outcome, why=Reason.of(why), return_code=code, sub_return_code=None,
            service_message=why, code=code, order_id=order_id,
            transaction_id=charge.transaction_id if charge is not None else None,
            amount=charge.order.amount if charge is not None else None)

    def send_charge(self, prepared: PreparedCharge) -> ChargeAnswer:
        code, charge = self.service.charge(prepared.order, str(prepared.sealed))
        return self._answer(code, prepared.order.order_id, charge)

    def query_charge(self, order_id: str, amount: int) -> ChargeAnswer:
        self.asked.append(("status", order_id, amount))
        code, charge = self.service.status(order_id)
        if charge is not None and charge.order.order_id != order_id:
            raise MismatchedAnswer(Reason.text("an answer about another order"))
        return self._answer(code, order_id, charge)

    def check_refund(self, refund: Refund) -> None:
        """Sổ Xanh refuses nothing before sending."""

    def _refund_answer(self, code: int, refund_id: str) -> RefundAnswer:
        outcome = WalletOutcome.PAID if code == DONE else WalletOutcome.NOT_FOUND
        return RefundAnswer(outcome=outcome, why=Reason.of(
            "refund.done" if code == DONE else "refund.not_found"), return_code=code,
            sub_return_code=None, service_message="", code=code, refund_id=refund_id,
            provider_refund_id=f"R-{refund_id}" if code == DONE else None)

    def refund(self, refund: Refund) -> RefundAnswer:
        self.asked.append(("refund", refund.order_id, refund.amount))
        return self._refund_answer(self.service.refund(refund), refund.refund_id)

    def query_refund(self, refund_id: str, order_id: str, amount: int) -> RefundAnswer:
        self.asked.append(("refund_status", order_id, amount))
        return self._refund_answer(self.service.refund_status(refund_id), refund_id)

    def check_hosted_order(self, order: HostedOrder) -> None:
        """Any order may be shown as a QR."""

    def create_hosted_order(self, order: HostedOrder) -> HostedOrderAnswer:
        self.service.hosted_order(Order(order.order_id, order.amount, order.created_ms,
                                        order.customer, order.description))
        return HostedOrderAnswer(return_code=DONE, service_message="", token=order.order_id,
                                 order_url=f"https://soxanh.invalid/pay/{order.order_id}",
                                 qr_code=f"soxanh:{order.order_id}:{order.amount}")

    def list_banks(self) -> BankList:
        bank = Bank(bankcode="SX", name="Sổ Xanh", displayorder=1, pmcid=1, minamount=1,
                    maxamount=50_000_000)
        return BankList({1: [bank]}, raw={})

    def check_service(self, probe_order_id: str) -> tuple[ServiceCheck, str]:
        return ServiceCheck.OK, "Sổ Xanh answers"

    def close(self) -> None:
        self.closed = True
