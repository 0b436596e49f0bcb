"""Late charges: a payment the wallet charged after the terminal had said FAILED, or after the
cashier gave up waiting for it (abandoned), when the customer has most likely paid another way.

With ``[checkout] late_success = "refund"`` (the default) it is returned by a full refund through
the refund machinery, marked `auto` in the journal: at most one per payment (a unique index), so
two processes reconciling at once, or a crash between the success and the refund, never return
it twice. With ``"review"`` it is flagged for a person. A return that fails is flagged too.
"""

from __future__ import annotations

import logging

from pos_terminal.base.reasons import Reason
from pos_terminal.base.wallet_errors import WalletError
from pos_terminal.checkout import refunds
from pos_terminal.checkout.errors import InvalidPayment
from pos_terminal.checkout.gateway import PART_PAID_REASONS
from pos_terminal.checkout.hooks import pause_point
from pos_terminal.checkout.ports import CheckoutContext, HoldingWallet, LateChargeJournal
from pos_terminal.journal import (
    AlreadyReturned,
    Answer,
    IllegalTransition,
    PaymentEvent,
    PaymentState,
    PaymentView,
    RefundNotAllowed,
    RefundState,
    RefundView,
)

log = logging.getLogger(__name__)
S = PaymentState
E = PaymentEvent


def returns_automatically(co: CheckoutContext[LateChargeJournal]) -> bool:
    return co.settings.checkout.late_success == "refund"


def gave_up(returns: bool, app_trans_id: str) -> Reason:
    """The cashier gave up waiting for a payment whose outcome is unknown; `returns`: a late
    charge would be returned automatically (the front end says who keeps checking it)."""
    return Reason.of("unknown.gave_up", returns=returns, app_trans_id=app_trans_id)


def review(amount: int) -> Reason:
    return Reason.of("late.review", amount=amount)


def return_failed(amount: int, why: Reason | str) -> Reason:
    return Reason.of("late.return_failed", amount=amount, why=why)


def abandon(co: CheckoutContext[LateChargeJournal], app_trans_id: str, *,
            cashier_id: str | None = None) -> PaymentView:
    """The cashier stops waiting for an open payment. Returns the row: still open (from now on
    a success is a late charge), or already settled (its verdict came first: show it).

    With a wallet that holds money (two-step), the payment is asked about once at once: if its
    money is held, it is cancelled now and goes back to the customer (checkout/two_step.py)."""
    said = co.journal.get(app_trans_id).why
    if said.code not in PART_PAID_REASONS:  # money that arrived stays said, and what to do
        said = gave_up(returns_automatically(co), app_trans_id)
    try:
        view = co.journal.apply(app_trans_id, E.ABANDONED, message=said, cashier_id=cashier_id)
    except IllegalTransition:  # settled (its verdict came first: show it), or abandoned already
        return co.journal.get(app_trans_id)
    if isinstance(co.client_for(view.provider), HoldingWallet) \
            and app_trans_id not in co.rows_in_flight():
        return co.query_once(view)
    return view


def _flag(co: CheckoutContext[LateChargeJournal], view: PaymentView,
          message: Reason) -> PaymentView:
    """A late charge left for a person (the row's answer is kept as it is)."""
    answer = Answer(view.return_code, view.sub_return_code, view.service_message,
                    view.zp_trans_id)
    try:
        return co.journal.apply(view, E.LATE_REVIEW, answer, message=message)
    except IllegalTransition:  # refunded or settled otherwise meanwhile
        return co.journal.get(view.app_trans_id)


def settle(co: CheckoutContext[LateChargeJournal], view: PaymentView) -> PaymentView:
    """If `view` is a late charge not yet handled: return it (or flag it for review). A sale a
    person kept by an override to paid (`late_not_kept` false: a late charge kept after review,
    or a shop QR paid in part whose rest was collected in cash) is the sale's money: neither (a
    wallet that refused its return before recording it left no automatic return to say so)."""
    if view.state is not S.SUCCEEDED or not view.late_not_kept or view.needs_review:
        return view
    journal = co.journal
    if not returns_automatically(co):
        log.warning("late charge %s left for review", view.app_trans_id)
        return _flag(co, view, review(view.amount))
    if journal.auto_refund_of(view.app_trans_id) is not None:
        return journal.get(view.app_trans_id)
    log.warning("returning late charge %s", view.app_trans_id)
    pause_point("late_charge_before_return")
    try:
        returned = refunds.refund(
            co, view.app_trans_id, None,
            f"Automatic return of a late charge ({view.app_trans_id})",
            deadline_s=0.0, auto=True, cashier_id=view.cashier_id,
        )
    except AlreadyReturned:
        return journal.get(view.app_trans_id)
    except (RefundNotAllowed, InvalidPayment, WalletError) as exc:
        current = journal.get(view.app_trans_id)
        has_return = journal.auto_refund_of(view.app_trans_id) is not None
        if has_return or current.state is not S.SUCCEEDED:
            return current  # another process returned it, or a person refunded it meanwhile
        return _flag(co, current, return_failed(view.amount, exc.why))
    return after_return(co, returned)


def after_return(co: CheckoutContext[LateChargeJournal], refund: RefundView) -> PaymentView:
    """A failed automatic return flags its payment for a person."""
    payment = co.journal.get(refund.app_trans_id)
    if refund.auto and refund.state is RefundState.FAILED and not payment.needs_review:
        return _flag(co, payment, return_failed(refund.amount, refund.why))
    return payment


def sweep(co: CheckoutContext[LateChargeJournal]) -> list[PaymentView]:
    """With late_success = "refund": every late charge not yet returned (after a crash, or found
    by another process), settled within the status query window (older ones, e.g. from before
    this feature, stay as they are)."""
    if not returns_automatically(co):  # "review": flagged when the charge was found, once
        return []
    window_ms = int(co.settings.checkout.status_query_window_h * 3_600_000)
    return [settle(co, v) for v in co.journal.late_charges_to_return(co.journal.now() - window_ms)]
