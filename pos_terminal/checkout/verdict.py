"""The one rule for what a payment's or a refund's outcome means, as typed results:

    PAID          SUCCEEDED or REFUNDED, nothing to review (a late success is paid, and says so)
    NOT_PAID      FAILED, nothing to review: definitely not paid
    NOTHING_SENT  refused before an intent was recorded
    UNKNOWN       still open, or an error after the intent
    NEEDS_REVIEW  flagged for a person

"Not paid" is never said while the outcome is unknown. The front ends turn a verdict into their
answer: the JSON contract keys and the exit code (counter/answers.py), a screen's headline.
"""

from __future__ import annotations

from enum import StrEnum

from pos_terminal.base.errors import PosError
from pos_terminal.base.reasons import Reason
from pos_terminal.journal import PaymentState, PaymentView, RefundState, RefundView

S = PaymentState


class Verdict(StrEnum):
    PAID = "paid"
    NOT_PAID = "not_paid"
    NOTHING_SENT = "nothing_sent"
    UNKNOWN = "unknown"
    NEEDS_REVIEW = "needs_review"


def of_payment(view: PaymentView) -> Verdict:
    if view.needs_review:
        return Verdict.NEEDS_REVIEW
    if view.state in (S.SUCCEEDED, S.REFUNDED):
        return Verdict.PAID
    if view.state is S.FAILED:
        return Verdict.NOT_PAID
    return Verdict.UNKNOWN


def of_refund(view: RefundView) -> Verdict:
    """For a refund "paid" reads "refunded" and "not paid" reads "no money moved"."""
    if view.needs_review:
        return Verdict.NEEDS_REVIEW
    if view.state is RefundState.REFUNDED:
        return Verdict.PAID
    if view.state is RefundState.FAILED:
        return Verdict.NOT_PAID
    return Verdict.UNKNOWN


def describe_error(exc: BaseException) -> str:
    """A one-line description of any exception (never a traceback, never megabytes)."""
    text = exc.message if isinstance(exc, PosError) else ""
    if not text:
        try:
            text = str(exc)
        except Exception:
            text = ""
    text = " ".join(text.split())[:300]
    return f"{type(exc).__name__}: {text}" if text else type(exc).__name__


def unexpected(error: str, app_trans_id: str | None) -> Reason:
    """Why an error nobody planned for ends a payment (before or after its intent)."""
    return Reason.of("unexpected", error=error, app_trans_id=app_trans_id)
