"""The few words a screen or a table shows for a payment: its state, its headline, a late charge.

They read a journal view's fields (state, needs_review, charged_late) and nothing else, so this
package needs nothing of the payment core.
"""

from __future__ import annotations

from typing import Protocol

from pos_terminal import wallet_registry
from pos_terminal.base.i18n import N_, _, current_language

# The journal's states as a person reads them (the journal and JSON keep the English value).
STATE_LABELS = {
    "new": N_("new"), "submitting": N_("submitting"), "processing": N_("processing"),
    "succeeded": N_("succeeded"), "failed": N_("failed"), "unknown": N_("unknown"),
    "refunding": N_("refunding"), "refunded": N_("refunded"),
}


def wallet_name(provider: str) -> str:
    """A provider's name in the current language, as its declaration
    gives it (pos_terminal/wallet_registry.py); an unknown key as written."""
    known = wallet_registry.wallets().get(provider)
    return known.display_name(current_language()) if known is not None else provider


def shows_wallets(by_provider: dict[str, dict[str, int]]) -> bool:
    """Whether a report names its wallets: more than one, or one that is not the first wallet
    (a counter that only ever took the first wallet, from before wallets were journaled, reads
    as it always did)."""
    first = wallet_registry.names()[0]
    return len(by_provider) > 1 or any(p != first for p in by_provider)


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


#: A payment's outcome (checkout/verdict.py) as the few words a cashier sees first: only "paid"
#: says PAID; a late charge and money returned never do.
OUTCOME_HEADLINES = {
    "paid": N_("PAID"), "late": N_("CHARGED LATE: NOT FOR THIS SALE"),
    "returned": N_("RETURNED TO THE CUSTOMER"), "not_paid": N_("NOT PAID"),
    "needs_review": N_("NEEDS REVIEW"), "unknown": N_("NOT CONFIRMED YET"),
    "nothing_sent": N_("NOT PAID"),
}


def outcome_headline(outcome: str, *, late: bool = False) -> str:
    """The headline of an outcome (`late`: money returned was a late charge)."""
    if outcome == "returned" and late:
        return _("CHARGED LATE, RETURNED")
    return _(OUTCOME_HEADLINES.get(outcome, outcome))


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


# The cashier book's events (journal `cashier_events.kind`) as a person reads them.
CASHIER_EVENT_LABELS = {
    "added": N_("added"), "removed": N_("removed"), "unlocked": N_("unlocked"),
    "pin_changed": N_("PIN changed"), "pin_ok": N_("signed in"), "pin_failed": N_("wrong PIN"),
    "locked": N_("locked"), "shift_opened": N_("shift opened"), "shift_closed": N_("shift closed"),
}
ROLE_LABELS = {"cashier": N_("cashier"), "supervisor": N_("supervisor")}


def cashier_event(kind: str, detail: str) -> str:
    """One cashier event in the current language, its detail too: "PIN changed (by boss)",
    "locked until 25/11/2026 14:05:00", "shift opened (3)". The journal keeps the kind and a
    plain detail (a supervisor's id, a role, a time, a shift number), never a sentence."""
    label = _(CASHIER_EVENT_LABELS.get(kind, kind))
    if not detail:
        return label
    if kind in ("unlocked", "pin_changed"):
        return _("{event} (by {supervisor})").format(event=label, supervisor=detail)
    if kind == "added":
        return f"{label} ({_(ROLE_LABELS.get(detail, detail))})"
    if kind == "locked" and detail.startswith("until "):
        return _("locked until {time}").format(time=detail.removeprefix("until "))
    if kind.startswith("shift_") and detail.startswith("shift "):
        return f"{label} ({detail.removeprefix('shift ')})"
    return f"{label} ({detail})"
