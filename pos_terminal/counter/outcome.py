"""The one outcome rule (pos_terminal.checkout.verdict) as the front ends use it: what a payment
or refund means for the cashier and the exit code, with the journal reached through a Counter."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from pos_terminal.checkout.verdict import (
    EXIT_CODES,
    EXIT_NOT_PAID,
    EXIT_NOTHING_SENT,
    EXIT_PAID,
    EXIT_UNKNOWN,
    Verdict,
    contract,
    describe_error,
    headline,
    of_payment,
    of_refund,
    payment_answer,
    payment_exit,
    refund_answer,
    refund_exit,
    unexpected_message,
)
from pos_terminal.checkout.verdict import error_answer as _error_answer
from pos_terminal.journal import PaymentState

if TYPE_CHECKING:
    from pos_terminal.counter.session import Counter


def state_exit(state: PaymentState) -> int:
    """By state alone (a row's needs_review flag also counts: use payment_exit)."""
    if state in (PaymentState.SUCCEEDED, PaymentState.REFUNDED):
        return EXIT_PAID
    if state is PaymentState.FAILED:
        return EXIT_NOT_PAID
    return EXIT_UNKNOWN


def error_answer(exc: BaseException, counter: Counter | None, app_trans_id: str | None,
                 amount: int | None) -> tuple[dict[str, Any], int]:
    """The answer (and exit code) for an unexpected error: nothing sent before the intent,
    otherwise the journal's row, unknown unless settled."""
    journal = counter.checkout.journal if counter is not None else None
    return _error_answer(exc, journal, app_trans_id, amount)


__all__ = [
    "EXIT_CODES", "EXIT_NOTHING_SENT", "EXIT_NOT_PAID", "EXIT_PAID", "EXIT_UNKNOWN", "Verdict",
    "contract", "describe_error", "error_answer", "headline", "of_payment", "of_refund",
    "payment_answer", "payment_exit", "refund_answer", "refund_exit", "state_exit",
    "unexpected_message",
]
