"""Late charges: a payment the wallet charged after the terminal had said FAILED, or after the
cashier gave up waiting for it (abandoned), when the customer has most likely paid another way.

With ``[checkout] late_success = "refund"`` (the default) it is returned by a full refund through
the refund machinery, marked `auto` in the journal: at most one per payment (a unique index), so
two processes reconciling at once, or a crash between the success and the refund, never return
it twice. With ``"review"`` it is flagged for a person. A return that fails is flagged too.
"""

from __future__ import annotations

import logging

from pos_terminal.base.i18n import _
from pos_terminal.checkout import refunds
from pos_terminal.checkout.errors import InvalidPayment
from pos_terminal.checkout.hooks import pause_point
from pos_terminal.checkout.ports import CheckoutContext
from pos_terminal.checkout.validation import vnd
from pos_terminal.journal import (
    AlreadyReturned,
    PaymentState,
    PaymentView,
    RefundNotAllowed,
    RefundView,
)
from pos_terminal.wallet.errors import WalletError

log = logging.getLogger(__name__)
S = PaymentState


def returns_automatically(co: CheckoutContext) -> bool:
    return co.settings.checkout.late_success == "refund"


def gave_up_message(returns: bool, background: bool = True, app_trans_id: str = "") -> str:
    """What the cashier is told on giving up waiting for a payment whose outcome is unknown.
    `background`: this program keeps checking it; otherwise `pos-terminal reconcile` does."""
    if background:
        checking = _("The terminal keeps checking this payment")
    else:
        checking = _("Run `pos-terminal reconcile` (or `pos-terminal status {id}`) to keep "
                     "checking it").format(id=app_trans_id or "<app_trans_id>")
    if returns:
        return _(
            "Outcome still unknown: ask the customer to pay another way. {checking}; if the "
            "wallet charges it after all, the charge is returned to the customer automatically."
        ).format(checking=checking)
    return _(
        "Outcome still unknown: do not take another payment for this sale yet. {checking}; if "
        "the wallet charges it late, it is marked NEEDS REVIEW and a supervisor refunds it or "
        "settles the sale."
    ).format(checking=checking)


def review_message(amount: int) -> str:
    return _(
        "CHARGED LATE: the wallet charged {amount} after the cashier had given up or the "
        "terminal had said it failed. Check whether the customer also paid another way; if so, "
        "refund it (pos-terminal refund, supervisor PIN)."
    ).format(amount=vnd(amount))


def return_failed_message(amount: int, why: str) -> str:
    return _(
        "CHARGED LATE and the automatic return of {amount} failed ({why}). Refund it by hand "
        "(pos-terminal refund, supervisor PIN) or from the merchant portal."
    ).format(amount=vnd(amount), why=why)


def note(view: PaymentView, auto_refund: RefundView | None) -> str:
    """A few words on a late charge for History and the Result screen ("" when not one)."""
    if not view.charged_late:
        return ""
    if auto_refund is None:
        return _("charged late: needs review") if view.needs_review else _("charged late")
    if auto_refund.state is S.REFUNDED:
        return _("charged late, returned automatically")
    if auto_refund.state is S.REFUNDING:
        return _("charged late, being returned automatically")
    return _("charged late, automatic return failed: needs review")


def abandon(co: CheckoutContext, app_trans_id: str, *,
            cashier_id: str | None = None) -> PaymentView:
    """The cashier stops waiting for an open payment. Returns the row: still open (from now on
    a success is a late charge), or already settled (its verdict came first: show it)."""
    message = gave_up_message(returns_automatically(co), co.reconciles_in_background,
                              app_trans_id)
    return co.journal.mark_abandoned(app_trans_id, message, cashier_id=cashier_id)


def _flag(co: CheckoutContext, view: PaymentView, message: str) -> PaymentView:
    return co.journal.flag_answer(
        view.app_trans_id, message, return_code=view.return_code,
        sub_return_code=view.sub_return_code, service_message=view.service_message,
        zp_trans_id=view.zp_trans_id,
    )


def settle(co: CheckoutContext, view: PaymentView) -> PaymentView:
    """If `view` is a late charge not yet handled: return it (or flag it for review)."""
    if view.state is not S.SUCCEEDED or not view.charged_late or view.needs_review:
        return view
    journal = co.journal
    if not returns_automatically(co):
        log.warning("late charge %s left for review", view.app_trans_id)
        return _flag(co, view, review_message(view.amount))
    if journal.auto_refund_of(view.app_trans_id) is not None:
        return journal.get(view.app_trans_id)
    log.warning("returning late charge %s", view.app_trans_id)
    pause_point("late_charge_before_return")
    try:
        returned = refunds.refund(
            co, view.app_trans_id, None,
            _("Automatic return of a late charge ({id})").format(id=view.app_trans_id),
            deadline_s=0.0, auto=True, cashier_id=view.cashier_id,
        )
    except AlreadyReturned:
        return journal.get(view.app_trans_id)
    except (RefundNotAllowed, InvalidPayment, WalletError) as exc:
        current = journal.get(view.app_trans_id)
        has_return = journal.auto_refund_of(view.app_trans_id) is not None
        if has_return or current.state is not S.SUCCEEDED:
            return current  # another process returned it, or a person refunded it meanwhile
        return _flag(co, current, return_failed_message(view.amount, str(exc)))
    return after_return(co, returned)


def after_return(co: CheckoutContext, refund: RefundView) -> PaymentView:
    """A failed automatic return flags its payment for a person."""
    payment = co.journal.get(refund.app_trans_id)
    if refund.auto and refund.state is S.FAILED and not payment.needs_review:
        return _flag(co, payment, return_failed_message(refund.amount, refund.message))
    return payment


def sweep(co: CheckoutContext) -> list[PaymentView]:
    """With late_success = "refund": every late charge not yet returned (after a crash, or found
    by another process), settled within the status query window (older ones, e.g. from before
    this feature, stay as they are)."""
    if not returns_automatically(co):  # "review": flagged when the charge was found, once
        return []
    window_ms = int(co.settings.checkout.status_query_window_h * 3_600_000)
    return [settle(co, v) for v in co.journal.late_charges_to_return(co.journal.now() - window_ms)]
