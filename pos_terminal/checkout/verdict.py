"""The one rule for what a payment's or a refund's outcome means, as typed results. Every door
(the Terminal API's answers and events, the customer display, the screens, the CLI, headless
lines, receipts) asks it, of the payment's latest state:

    PAID          SUCCEEDED, charged for the sale, nothing to review (part may be refunded:
                  `refunded_amount`)
    LATE          SUCCEEDED, but charged after the sale was given up (the cashier stopped
                  waiting, or the terminal had said it failed): not the sale's money; it is
                  returned automatically (`[checkout] late_success = "refund"`) or left to a
                  person (who may keep it as the sale's: an override to paid makes it PAID)
    RETURNED      REFUNDED: all of it is back with the customer (a late charge returned, or a
                  sale refunded in full)
    NOT_PAID      FAILED, nothing to review: definitely not charged
    NOTHING_SENT  refused before an intent was recorded
    UNKNOWN       still open, or an error after the intent
    NEEDS_REVIEW  flagged for a person

and for a refund: REFUNDED (the money is back with the customer), NOT_REFUNDED (no money moved),
UNKNOWN, NEEDS_REVIEW.

Only PAID is "paid" and says "the sale is complete". "Not paid" is never said while the outcome
is unknown. `money_of` says where the money is now. The front ends turn a verdict into their
answer: the JSON contract keys and the exit code (counter/answers.py), a screen's headline.
"""

from __future__ import annotations

from enum import StrEnum

from pos_terminal.base.errors import PosError
from pos_terminal.base.reasons import Reason
from pos_terminal.checkout.outcomes import PART_PAID_REASONS
from pos_terminal.journal import PaymentState, PaymentView, RefundState, RefundView

S = PaymentState


class Verdict(StrEnum):
    PAID = "paid"
    LATE = "late"
    RETURNED = "returned"
    NOT_PAID = "not_paid"
    NOTHING_SENT = "nothing_sent"
    UNKNOWN = "unknown"
    NEEDS_REVIEW = "needs_review"
    REFUNDED = "refunded"  # a refund's
    NOT_REFUNDED = "not_refunded"  # a refund's


class Money(StrEnum):
    """Where a payment's money is now."""

    SHOP = "shop"  # charged, and kept (paid; or a late charge not returned yet)
    CUSTOMER = "customer"  # never charged, or all of it returned
    PART = "part"  # part of a shop QR's transfer arrived (`amount_paid`; the rest never did)
    UNKNOWN = "unknown"  # not known yet (open, or waiting for a person)


def of_payment(view: PaymentView) -> Verdict:
    if view.needs_review:
        return Verdict.NEEDS_REVIEW
    if view.state is S.REFUNDED:
        return Verdict.RETURNED
    if view.state is S.SUCCEEDED:
        return Verdict.LATE if view.late_not_kept else Verdict.PAID
    if view.state is S.FAILED:
        return Verdict.NOT_PAID
    return Verdict.UNKNOWN


def money_of(view: PaymentView) -> Money:
    if view.state is S.SUCCEEDED:
        return Money.SHOP
    if view.why.code in PART_PAID_REASONS:  # known: what arrived is at the shop, no more
        return Money.PART
    if view.state is S.REFUNDED or (view.state is S.FAILED and not view.needs_review):
        return Money.CUSTOMER
    return Money.UNKNOWN


def of_refund(view: RefundView) -> Verdict:
    if view.needs_review:
        return Verdict.NEEDS_REVIEW
    if view.state is RefundState.REFUNDED:
        return Verdict.REFUNDED
    if view.state is RefundState.FAILED:
        return Verdict.NOT_REFUNDED
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
