"""Checkout errors: refusals decided on this terminal, before anything is sent."""

from __future__ import annotations

from pos_terminal.base.errors import ExitCode, PosError
from pos_terminal.base.reasons import Reason
from pos_terminal.journal import JournalUnavailable


class CheckoutError(PosError):
    """Base; ``message`` is a sentence for the cashier or the integrator. Refused on this
    terminal before anything was sent: exit 2."""

    exit_code = ExitCode.NOTHING_SENT


class CodeRefused(CheckoutError):
    """The payment code is refused locally; nothing was sent.

    ``reason`` is "in_flight" (the same code is being processed right now: a double read),
    "unresolved" (it belongs to a payment still waiting for its result) or "charged" (this
    terminal already charged it). ``app_trans_id`` names the payment it belongs to (None while
    that payment is still being prepared in this process and has no id yet).
    """

    def __init__(self, message: Reason | str, reason: str, app_trans_id: str | None) -> None:
        super().__init__(message)
        self.reason = reason
        self.app_trans_id = app_trans_id


class InvalidPayment(CheckoutError):
    """Bad input refused before anything is recorded or sent; ``field`` names it."""

    def __init__(self, field: str, message: Reason | str) -> None:
        super().__init__(message)
        self.field = field


class AnswerNotRecorded(JournalUnavailable):
    """The journal failed *after* the charge left: payment ``app_trans_id`` is unresolved (its
    intent is in the journal, for reconcile), not refused. Nothing may be charged again."""

    exit_code = ExitCode.UNKNOWN

    def __init__(self, message: Reason | str, reason: str, app_trans_id: str) -> None:
        super().__init__(message, reason)
        self.app_trans_id = app_trans_id


class Stopped(CheckoutError):
    """Asked to stop (a signal, the cashier) before the payment was recorded: nothing was sent."""


#: The attribute Checkout.pay sets on whatever escapes it after the payment's intent was recorded.
_INTENT_ATTR = "pos_intent_app_trans_id"


def mark_intent(exc: BaseException, app_trans_id: str) -> None:
    """Tie an error to the payment whose intent was recorded before it: the error itself says
    which payment it belongs to, so parallel payments on one Checkout never name each other's."""
    if intent_of(exc) is None:
        setattr(exc, _INTENT_ATTR, app_trans_id)


def intent_of(exc: BaseException) -> str | None:
    """The app_trans_id of the payment this error happened to after its intent was recorded
    (None: raised before the intent, or not by Checkout.pay)."""
    value = getattr(exc, _INTENT_ATTR, None)
    return value if isinstance(value, str) else None


#: The attribute Checkout.refund sets on whatever escapes it after the refund's intent was
#: recorded.
_REFUND_ATTR = "pos_refund_m_refund_id"


def mark_refund(exc: BaseException, m_refund_id: str) -> None:
    """Tie an error to the refund recorded before it (as `mark_intent` does for a payment): two
    refunds at once on one Checkout never name each other's."""
    if refund_of(exc) is None:
        setattr(exc, _REFUND_ATTR, m_refund_id)


def refund_of(exc: BaseException) -> str | None:
    """The m_refund_id of the refund this error happened to after its intent was recorded
    (None: raised before the refund was recorded, or not by Checkout.refund)."""
    value = getattr(exc, _REFUND_ATTR, None)
    return value if isinstance(value, str) else None
