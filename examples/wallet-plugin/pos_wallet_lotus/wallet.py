"""Lotus Pay behind the checkout's wallet port: the terminal's own types to Lotus Pay's four
calls (pay, status, refund, refund status) and its result codes back to outcomes.

What is Lotus Pay's own is here: its paths, its fields, its codes. The HTTP exchange is the
terminal's shared one (pos_terminal.wallets.http_json: bounded, "not sent" kept apart from "no
answer"); the reading of a code is the shared code table's (codes.py)."""

from __future__ import annotations

import hashlib
import itertools
from typing import Any

from pos_terminal.base.reasons import Reason
from pos_terminal.base.wallet_errors import MismatchedAnswer, NoAnswer, NotSent, UnreadableAnswer
from pos_terminal.base.wallet_types import (
    ChargeAnswer,
    Order,
    PreparedCharge,
    Refund,
    RefundAnswer,
    ServiceCheck,
    WalletOutcome,
)
from pos_terminal.wallets.answer_mapping import charge_outcome, refund_outcome
from pos_terminal.wallets.code_table import Operation
from pos_terminal.wallets.http_json import new_session, post_json
from pos_terminal.wallets.port_parts import CustomerPresentedOnly

from . import codes
from .sentences import FROZEN
from .settings import LotusSettings

WALLET_NAME = "Lotus Pay"
GENERATION = "lotus-v1"

def _text(answer: dict[str, object], key: str) -> str:
    value = answer.get(key)
    return value if isinstance(value, str) else ""


def _result(answer: dict[str, object], operation: str) -> int:
    code = answer.get("result")
    if not isinstance(code, int) or isinstance(code, bool):
        raise UnreadableAnswer(f"unreadable answer to the {WALLET_NAME} {operation}: "
                               "no whole-number result")
    return code


def _amount(answer: dict[str, object]) -> int | None:
    amount = answer.get("amount")
    return amount if isinstance(amount, int) and not isinstance(amount, bool) else None


class LotusWallet(CustomerPresentedOnly):
    """The checkout's WalletPort over Lotus Pay's API v1 (customer-presented codes only: no
    shop QR, no bank list, as the shared `CustomerPresentedOnly` says)."""

    generation: str = GENERATION
    wallet_name = WALLET_NAME

    def __init__(self, settings: LotusSettings, *, terminal_id: str) -> None:
        self._settings = settings
        self._terminal_id = terminal_id or "T"
        self._ids = itertools.count(1)
        self._session = new_session()

    # --- the exchange -----------------------------------------------------------------------
    def _post(self, path: str, body: dict[str, object], operation: str) -> dict[str, object]:
        key = self._settings.api_key.get_secret_value()
        return post_json(
            self._session, self._settings.base_url.rstrip("/") + path, body, operation,
            wallet=WALLET_NAME, connect_s=self._settings.connect_timeout_s,
            total_s=self._settings.connect_timeout_s + self._settings.timeout_s,
            sign=lambda _data: {"Authorization": f"Bearer {key}"})

    # --- ids --------------------------------------------------------------------------------
    def new_order_id(self, now_ms: int) -> str:
        return f"LT-{self._terminal_id}-{now_ms}-{next(self._ids)}"

    def new_refund_id(self, now_ms: int) -> str:
        return f"LTR-{self._terminal_id}-{now_ms}-{next(self._ids)}"

    # --- charges ----------------------------------------------------------------------------
    def _charge_answer(self, answer: dict[str, object], operation: Operation,
                       order_id: str) -> ChargeAnswer:
        code = _result(answer, operation.value)
        said = _text(answer, "order_ref")
        if said != order_id:  # an answer about another payment (or none) is never applied
            raise MismatchedAnswer(Reason.text(
                f"{WALLET_NAME} answered about {said or 'no payment'}, not {order_id}"))
        row = codes.TABLE.classify(operation, code)
        outcome = charge_outcome(row.cls)
        why = {WalletOutcome.PAID: Reason.of("paid"),
               WalletOutcome.PROCESSING: Reason.of("processing"),
               WalletOutcome.NOT_FOUND: Reason.of("not_found")}.get(outcome)
        if why is None and code == codes.BALANCE_TOO_LOW:
            why = Reason.of("declined.balance")
        elif why is None and code == codes.ACCOUNT_FROZEN:  # a sentence of its own
            why = Reason.of(FROZEN, amount=_amount(answer))
        elif why is None and outcome is WalletOutcome.DECLINED:
            why = Reason.of("declined.code", code=code, detail=row.meaning_en)
        elif why is None:
            why = Reason.of("unknown.no_information", wallet=WALLET_NAME, code=code,
                            detail=_text(answer, "message"))
        return ChargeAnswer(
            outcome=outcome, why=why, return_code=code, sub_return_code=None,
            service_message=_text(answer, "message"), code=code, order_id=said,
            transaction_id=_text(answer, "payment_id") or None, amount=_amount(answer))

    def prepare_charge(self, order: Order, payment_code: str) -> PreparedCharge:
        body = {"order_ref": order.order_id, "amount": order.amount, "code": payment_code,
                "description": order.description or order.order_id}
        # the hash names the request, never the code itself
        digest = hashlib.sha256(f"{order.order_id}|{order.amount}|{order.description}".encode())
        return PreparedCharge(order, digest.hexdigest(), sealed=body)

    def send_charge(self, prepared: PreparedCharge) -> ChargeAnswer:
        if not isinstance(prepared.sealed, dict):
            raise TypeError("this charge was not prepared by the Lotus Pay wallet")
        answer = self._post("/lotus/v1/pay", prepared.sealed, "payment")
        return self._charge_answer(answer, Operation.QUICK_PAY, prepared.order.order_id)

    def query_charge(self, order_id: str, amount: int | None = None) -> ChargeAnswer:
        answer = self._post("/lotus/v1/status", {"order_ref": order_id}, "status query")
        return self._charge_answer(answer, Operation.STATUS, order_id)

    # --- refunds ----------------------------------------------------------------------------
    def check_refund(self, refund: Refund) -> None:
        """Lotus Pay refuses nothing before sending (its service checks what is left)."""

    def _refund_answer(self, answer: dict[str, object], operation: Operation,
                       refund_id: str) -> RefundAnswer:
        code = _result(answer, operation.value)
        said = _text(answer, "refund_ref")
        if said != refund_id:
            raise MismatchedAnswer(Reason.text(
                f"{WALLET_NAME} answered about {said or 'no refund'}, not {refund_id}"))
        row = codes.TABLE.classify(operation, code)
        outcome = refund_outcome(row.cls)
        why = {WalletOutcome.PAID: Reason.of("refund.done"),
               WalletOutcome.PROCESSING: Reason.of("refund.processing"),
               WalletOutcome.NOT_FOUND: Reason.of("refund.not_found"),
               WalletOutcome.DECLINED: Reason.of("refund.failed.code", code=code,
                                                 detail=row.meaning_en)}.get(
            outcome, Reason.of("unknown.no_information", wallet=WALLET_NAME, code=code,
                               detail=_text(answer, "message")))
        return RefundAnswer(
            outcome=outcome, why=why, return_code=code, sub_return_code=None,
            service_message=_text(answer, "message"), code=code, refund_id=said,
            provider_refund_id=(_text(answer, "refund_id") or None)
            if outcome is WalletOutcome.PAID else None)

    def refund(self, refund: Refund) -> RefundAnswer:
        body = {"refund_ref": refund.refund_id, "payment_id": refund.transaction_id,
                "amount": refund.amount, "description": refund.description}
        return self._refund_answer(self._post("/lotus/v1/refund", body, "refund"),
                                   Operation.REFUND, refund.refund_id)

    def query_refund(self, refund_id: str, order_id: str,
                     amount: int | None = None) -> RefundAnswer:
        answer = self._post("/lotus/v1/refund-status", {"refund_ref": refund_id},
                            "refund status query")
        return self._refund_answer(answer, Operation.REFUND_STATUS, refund_id)

    # --- the service itself -----------------------------------------------------------------
    def check_service(self, probe_order_id: str) -> tuple[ServiceCheck, str]:
        """A status query about an order that does not exist: "not found" means Lotus Pay
        answers and took the key."""
        try:
            answer = self._post("/lotus/v1/status", {"order_ref": probe_order_id},
                                "status query")
        except NotSent as exc:
            return ServiceCheck.UNREACHABLE, exc.cause
        except (NoAnswer, UnreadableAnswer) as exc:
            return ServiceCheck.UNREACHABLE, str(exc.message)
        code = answer.get("result")
        if code == codes.KEY_REFUSED:
            return ServiceCheck.CREDENTIALS_WRONG, f"{WALLET_NAME} refused the API key"
        if code == codes.NOT_FOUND:
            return ServiceCheck.OK, f"{WALLET_NAME} answers and accepts this terminal's key"
        return ServiceCheck.REFUSED, f"{WALLET_NAME} result {code!r}"

    def close(self) -> None:
        self._session.close()


def client_for(settings: Any) -> LotusWallet:
    """Lotus Pay's client as `[providers.lotus]` configures it (no I/O yet)."""
    section = settings.providers.lotus
    if section is None:
        raise ValueError("[providers.lotus] is not configured")
    return LotusWallet(section, terminal_id=settings.terminal.terminal_id)
