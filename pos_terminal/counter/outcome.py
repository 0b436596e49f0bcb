"""The one outcome rule (pos_terminal.checkout.verdict) as the front ends use it: what a payment
or refund means for the cashier and the exit code, with the journal reached through a Counter."""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING, Any

from pos_terminal.base.i18n import _
from pos_terminal.base.reasons import Reason
from pos_terminal.checkout import CodeRefused
from pos_terminal.checkout.verdict import (
    EXIT_CODES,
    EXIT_NOT_PAID,
    EXIT_NOTHING_SENT,
    EXIT_PAID,
    EXIT_UNKNOWN,
    Verdict,
    contract,
    describe_error,
    of_payment,
    of_refund,
    payment_answer,
    payment_exit,
    refund_answer,
    refund_exit,
    unexpected,
)
from pos_terminal.checkout.verdict import error_answer as _error_answer
from pos_terminal.journal import PaymentState, PaymentView
from pos_terminal.sentences.labels import headline, state_label

if TYPE_CHECKING:
    from pos_terminal.counter.session import Counter


def state_exit(state: PaymentState) -> int:
    """By state alone (a row's needs_review flag also counts: use payment_exit)."""
    if state in (PaymentState.SUCCEEDED, PaymentState.REFUNDED):
        return EXIT_PAID
    if state is PaymentState.FAILED:
        return EXIT_NOT_PAID
    return EXIT_UNKNOWN


def refusal_answer(exc: CodeRefused, counter: Counter, amount: int,
                   ) -> tuple[dict[str, Any], int, PaymentView | None]:
    """A code refused locally (the answer, its exit code, the payment to show if any). In
    flight or unresolved: answer with THAT payment (exit 3; this code is already being charged
    there). Already charged: this attempt failed (exit 1)."""
    other = counter.payments.find(exc.app_trans_id) if exc.app_trans_id else None
    if exc.reason != "charged" and (other is None or not other.is_final):
        message = exc.message
        if exc.app_trans_id:
            message += " " + _("Check it with `pos-terminal status {app_trans_id}`.").format(
                app_trans_id=exc.app_trans_id)
        shown: PaymentView | None = None
        if other is not None:
            shown = replace(other, why=Reason.text(message))
            data = payment_answer(shown)
            data.update(outcome=Verdict.UNKNOWN.value, exit_code=EXIT_UNKNOWN)
        else:
            data = contract(message, amount, state=PaymentState.PROCESSING.value,
                            verdict=Verdict.UNKNOWN)
        data.update(refused=exc.reason, previous_app_trans_id=exc.app_trans_id)
        return data, EXIT_UNKNOWN, shown
    message = exc.message
    if exc.reason != "charged" and other is not None:  # it settled meanwhile
        message += " " + _("That payment is now {state}: see `pos-terminal status "
                           "{app_trans_id}`.").format(state=state_label(other.state.value),
                                                      app_trans_id=other.app_trans_id)
    return ({**contract(message, amount, verdict=Verdict.NOT_PAID),
             "refused": exc.reason, "previous_app_trans_id": exc.app_trans_id},
            EXIT_NOT_PAID, None)


def error_answer(exc: BaseException, counter: Counter | None, app_trans_id: str | None,
                 amount: int | None) -> tuple[dict[str, Any], int]:
    """The answer (and exit code) for an unexpected error: nothing sent before the intent,
    otherwise the journal's row, unknown unless settled."""
    journal = counter.checkout.journal if counter is not None else None
    return _error_answer(exc, journal, app_trans_id, amount)


__all__ = [
    "EXIT_CODES", "EXIT_NOTHING_SENT", "EXIT_NOT_PAID", "EXIT_PAID", "EXIT_UNKNOWN", "Verdict",
    "contract", "describe_error", "error_answer", "headline", "of_payment", "of_refund",
    "payment_answer", "payment_exit", "refund_answer", "refund_exit", "refusal_answer",
    "state_exit", "state_label", "unexpected",
]
