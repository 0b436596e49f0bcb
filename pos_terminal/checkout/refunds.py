"""Refunds, full or partial, of a succeeded payment.

A refund has its own journal row: born REFUNDING (committed before the request leaves), it ends
REFUNDED or FAILED, resolved by the refund status query when the first answer is missing or
"processing". A refund never exceeds what is left (refunds in flight count). A partial refund
keeps the payment SUCCEEDED and raises its refunded_amount; the payment becomes REFUNDED when
refunds reach its whole amount.
"""

from __future__ import annotations

import threading

from pos_terminal.base.reasons import Reason
from pos_terminal.base.wallet_errors import NoAnswer, NotSent, ServiceRefused, UnreadableAnswer
from pos_terminal.base.wallet_types import Refund
from pos_terminal.checkout import outcomes
from pos_terminal.checkout.errors import mark_refund
from pos_terminal.checkout.hooks import pause_point
from pos_terminal.checkout.polling import Deadline, intervals, wait_next
from pos_terminal.checkout.ports import CheckoutContext, RefundJournal
from pos_terminal.checkout.validation import check_refund_amount
from pos_terminal.journal import (
    Answer,
    IllegalTransition,
    PaymentState,
    RefundEvent,
    RefundNotAllowed,
    RefundRefTaken,
    RefundView,
)

S = PaymentState
RE = RefundEvent


#: What the customer reads in the wallet's history, in the shop's language: data sent to the
#: wallet (like a receipt's words), not a sentence of any front end, so it is no reason.
REFUND_DESCRIPTION = {"vi": "Hoàn tiền đơn {app_trans_id}", "en": "Refund of {app_trans_id}"}


def _no_answer(detail: Reason | str) -> Reason:
    return Reason.of("refund.no_answer", detail=detail)


def refund(
    co: CheckoutContext[RefundJournal],
    app_trans_id: str,
    amount: int | None,
    description: str,
    *,
    deadline_s: float | None = None,
    cancel: threading.Event | None = None,
    cashier_id: str | None = None,
    auto: bool = False,
    authorised_by: str | None = None,
    refund_ref: str | None = None,
) -> RefundView:
    """Refund `amount` VND (None: all that is left) and follow it until final or the deadline.
    `auto`: the automatic return of a late charge (checkout/late_charges.py). `refund_ref`: the
    sale system's reference, unique in the journal (RefundRefTaken before anything is sent).

    The answer is the refund's own row (its m_refund_id with it); whatever escapes after the
    refund was recorded names that refund (`errors.refund_of`), never another call's."""
    if amount is not None:
        amount = check_refund_amount(amount)
    journal = co.journal
    if refund_ref is not None:
        taken = journal.find_refund_by_ref(refund_ref)
        if taken is not None:
            raise RefundRefTaken(refund_ref, taken.m_refund_id)
    payment = journal.get(app_trans_id)
    if payment.state is not S.SUCCEEDED:
        raise RefundNotAllowed(
            Reason.of("refund.not_allowed.state", app_trans_id=app_trans_id,
                      state=payment.state.value)
        )
    if payment.zp_trans_id is None:
        raise RefundNotAllowed(
            Reason.of("refund.not_allowed.no_transaction_number", app_trans_id=app_trans_id)
        )
    now = journal.now()
    wallet = co.client_for(payment.provider)  # refunded by the wallet that charged it
    m_refund_id = wallet.new_refund_id(now)
    # What the customer reads in the wallet's history: in the shop's language.
    text = description or REFUND_DESCRIPTION.get(
        co.settings.terminal.language, REFUND_DESCRIPTION["en"]).format(app_trans_id=app_trans_id)
    # Validate the request with the largest amount it could carry before recording anything.
    wallet.check_refund(Refund(refund_id=m_refund_id, transaction_id=payment.zp_trans_id,
                                  amount=amount or payment.amount, description=text,
                                  created_ms=now, order_id=app_trans_id))
    ttl_ms = co.lease_ttl_ms(payment.provider)
    view = journal.record_refund_intent(
        m_refund_id=m_refund_id, app_trans_id=app_trans_id, amount=amount, description=text,
        request_ms=now, message=Reason.of("refund.sending"),
        lease_ttl_ms=ttl_ms,
        cashier_id=cashier_id, auto=auto, authorised_by=authorised_by, refund_ref=refund_ref,
    )
    try:
        return _send(co, view, Refund(
            refund_id=m_refund_id, transaction_id=payment.zp_trans_id, amount=view.amount,
            description=text, created_ms=now, order_id=app_trans_id), ttl_ms,
            deadline_s=deadline_s, cancel=cancel)
    except BaseException as exc:  # what escapes names its own refund (refunds at once)
        mark_refund(exc, m_refund_id)
        raise


def returned_by_shop(
    co: CheckoutContext[RefundJournal], app_trans_id: str, amount: int | None, *, wallet: str,
    reason: str, who: str, cashier_id: str | None = None, authorised_by: str | None = None,
) -> RefundView:
    """Record `amount` VND (None: all that is left) that the shop returned to the customer by
    its own bank transfer, for a wallet with no refund call (`wallet`: its name, for the
    sentence); nothing is sent to the wallet and nothing claims it refunded anything. Born and
    settled REFUNDED in one write, with `reason` and `who` (journal.record_returned_by_shop)."""
    if amount is not None:
        amount = check_refund_amount(amount)
    journal = co.journal
    payment = journal.get(app_trans_id)
    said = Reason.of("refund.by_shop", wallet=wallet, who=who.strip(), reason=reason.strip(),
                     amount=amount or payment.amount - payment.refunded_amount)
    return journal.record_returned_by_shop(
        m_refund_id=co.client_for(payment.provider).new_refund_id(journal.now()),
        app_trans_id=app_trans_id, amount=amount, description=reason.strip(), message=said,
        reason=reason, who=who, cashier_id=cashier_id, authorised_by=authorised_by)


def _send(co: CheckoutContext[RefundJournal], view: RefundView, request: Refund, ttl_ms: int, *,
          deadline_s: float | None, cancel: threading.Event | None) -> RefundView:
    """Send the recorded refund `view` (if this process still owns it) and follow it."""
    journal = co.journal
    m_refund_id = view.m_refund_id
    pause_point("refund_after_intent")
    if not journal.refund_claim_send(m_refund_id, ttl_ms):
        # Held up after recording it, and another process has taken it over: this process
        # does not send it (nobody else ever sends it: status queries settle it).
        return journal.get_refund(m_refund_id)
    try:
        co.count_request()
        result = co.client_for(view.provider).refund(request)
    except NotSent as exc:
        view = _settle_own(co, m_refund_id, message=Reason.of("refund.not_sent", cause=exc.cause))
    except (NoAnswer, UnreadableAnswer) as exc:
        view = outcomes.refund_pending(journal, view, _no_answer(exc.why), release=True)
    except ServiceRefused as exc:
        view = _settle_own(co, m_refund_id, message=exc.why, answer=Answer(
            exc.return_code, exc.sub_return_code, exc.service_message))
    except Exception as exc:
        view = outcomes.refund_pending(
            journal, view, _no_answer(f"unexpected error: {type(exc).__name__}"), release=True)
    else:
        view = outcomes.apply_refund_result(
            journal, view, result, from_query=False,
            not_found_grace_s=co.settings.checkout.not_found_grace_s, release=True,
        )
    return follow_refund(co, view, deadline_s=deadline_s, cancel=cancel)


def _settle_own(co: CheckoutContext[RefundJournal], m_refund_id: str, *, message: Reason,
               answer: Answer | None = None) -> RefundView:
    """This process's refund was refused or never left: FAILED, lease released in the same
    transaction; if another process settled it meanwhile, its verdict stands."""
    try:
        return co.journal.apply(co.journal.get_refund(m_refund_id), RE.FAILED, answer,
                                message=message, release=True)
    except IllegalTransition:
        co.journal.refund_release(m_refund_id)
        return co.journal.get_refund(m_refund_id)


def follow_refund(
    co: CheckoutContext[RefundJournal], view: RefundView, *, deadline_s: float | None = None,
    cancel: threading.Event | None = None,
) -> RefundView:
    cfg = co.settings.checkout
    deadline = Deadline.start(cfg.poll_deadline_s if deadline_s is None else deadline_s)
    schedule = intervals(cfg.poll_intervals_s)
    while not view.is_final and wait_next(deadline, schedule, cancel):
        view = query_refund_once(co, view)
    return view


def query_refund_once(co: CheckoutContext[RefundJournal], view: RefundView) -> RefundView:
    try:
        co.count_request()
        result = co.client_for(view.provider).query_refund(view.m_refund_id, view.app_trans_id,
                                                           view.amount)
    except (NoAnswer, NotSent, UnreadableAnswer, ServiceRefused) as exc:
        return outcomes.refund_pending(co.journal, view, _no_answer(exc.why))
    except Exception as exc:
        return outcomes.refund_pending(
            co.journal, view, _no_answer(f"unexpected error: {type(exc).__name__}"))
    return outcomes.apply_refund_result(
        co.journal, view, result, from_query=True,
        not_found_grace_s=co.settings.checkout.not_found_grace_s,
    )
