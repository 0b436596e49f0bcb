"""The few words a screen or a table shows for a payment: its state, its headline, a late charge.

They read a journal view's fields (state, needs_review, charged_late) and nothing else, so this
package needs nothing of the payment core.
"""

from __future__ import annotations

from typing import Protocol

from pos_terminal.base.i18n import N_, _

# The journal's states as a person reads them (the journal and JSON keep the English value).
STATE_LABELS = {
    "new": N_("new"), "submitting": N_("submitting"), "processing": N_("processing"),
    "succeeded": N_("succeeded"), "failed": N_("failed"), "unknown": N_("unknown"),
    "refunding": N_("refunding"), "refunded": N_("refunded"),
}


class _State(Protocol):
    @property
    def value(self) -> str: ...


class PaymentLike(Protocol):
    @property
    def state(self) -> _State: ...
    @property
    def needs_review(self) -> bool: ...
    @property
    def charged_late(self) -> bool: ...


class RefundLike(Protocol):
    @property
    def state(self) -> _State: ...


def state_label(state: str) -> str:
    """A payment state's value (``"succeeded"``) in the current language."""
    return _(STATE_LABELS.get(state, state))


def headline(view: PaymentLike) -> str:
    """The few words a cashier sees first (the outcome rule of checkout/verdict.py)."""
    state = view.state.value
    if view.needs_review:
        return _("NEEDS REVIEW")
    if state in ("succeeded", "refunded"):
        if view.charged_late and state == "refunded":
            return _("CHARGED LATE, RETURNED")
        return _("PAID (LATE)") if view.charged_late else _("PAID")
    if state == "failed":
        return _("NOT PAID")
    return _("NOT CONFIRMED YET")


def late_charge_note(view: PaymentLike, auto_refund: RefundLike | None) -> str:
    """A few words on a late charge for History and the Result screen ("" when not one)."""
    if not view.charged_late:
        return ""
    if auto_refund is None:
        return _("charged late: needs review") if view.needs_review else _("charged late")
    if auto_refund.state.value == "refunded":
        return _("charged late, returned automatically")
    if auto_refund.state.value == "refunding":
        return _("charged late, being returned automatically")
    return _("charged late, automatic return failed: needs review")
