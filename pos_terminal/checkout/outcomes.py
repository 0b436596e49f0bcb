"""Applying the service's answers to the journal: the only place results become states.

Every function here takes the journal row as it is and a result, and commits the next state with
its event. A result about another payment is never applied, and a refusal of the *query itself*
(bad mac, rate limit, maintenance) never settles the payment it asked about.
"""

from __future__ import annotations

import logging

from pos_terminal.base.reasons import Reason
from pos_terminal.base.wallet_types import ChargeAnswer, RefundAnswer, WalletOutcome
from pos_terminal.checkout.answer_checks import answer_problems, review
from pos_terminal.checkout.ports import Answers
from pos_terminal.journal import (
    Answer,
    IllegalTransition,
    PaymentEvent,
    PaymentState,
    PaymentView,
    RefundEvent,
    RefundView,
    Refused,
)

log = logging.getLogger(__name__)
S = PaymentState
E = PaymentEvent
RE = RefundEvent

SENDING = Reason.of("sending")
NEVER_ARRIVED = Reason.of("not_sent.never_arrived")
CHECKING = Reason.of("checking")
SENDER_LIVE = Reason.of("unknown.sender_live")


def late_success(amount: int) -> Reason:
    return Reason.of("late.success", amount=amount)


def charged_late(amount: int) -> Reason:
    """A success for a row the cashier had given up on: not the sale's money."""
    return Reason.of("late.charged", amount=amount)


def no_answer(detail: Reason | str) -> Reason:
    return Reason.of("unknown.no_answer", detail=detail)


def still_open(seconds: float, app_trans_id: str) -> Reason:
    """Waiting ended without a verdict: the front end says who keeps checking it."""
    return Reason.of("unknown.still_open", seconds=f"{seconds:.0f}", app_trans_id=app_trans_id)


def not_sent(cause: str) -> Reason:
    """A charge that could not even connect: nothing reached the service."""
    return Reason.of("not_sent", cause=cause)


def answer_of(result: ChargeAnswer | RefundAnswer | None) -> Answer | None:
    """What the journal keeps of a wallet answer: its codes, its words and the wallet's id."""
    if result is None:
        return None
    wallet_id = (result.transaction_id if isinstance(result, ChargeAnswer)
                 else result.provider_refund_id)
    return Answer(result.return_code, result.sub_return_code, result.service_message, wallet_id)


def never_arrived(view: PaymentView) -> bool:
    """Concluded FAILED because the wallet had no record of it (the charge may still land)."""
    return view.state is S.FAILED and view.why.code == NEVER_ARRIVED.code


#: the reasons of a shop-QR payment some of whose money arrived (never "paid" by itself)
PART_PAID_REASONS = frozenset({"shop_qr.underpaid", "shop_qr.closed_with_money"})
#: a part-paid shop QR a person settled not paid: what arrived was returned by the shop
PART_SETTLED_FAILED = frozenset({"override.part_returned"})
#: a shop QR a person had settled, found holding more money since (flagged for them again)
MORE_AFTER_SETTLED = "shop_qr.more_after_settled"


#: FAILED rows of a shop QR a bank transfer can still reach: closed empty, closed holding part
#: of the money (flagged), or settled by a person (more can arrive after any of them)
_SHOP_QR_CLOSED = frozenset({"shop_qr.closed", MORE_AFTER_SETTLED}) | PART_PAID_REASONS \
    | PART_SETTLED_FAILED


def may_land_late(view: PaymentView) -> bool:
    """Concluded FAILED, yet money may still arrive: the wallet had no record of it, or the
    shop's QR was closed (a bank transfer to it can land after that, more of it too)."""
    return never_arrived(view) or (view.state is S.FAILED and view.why.code in _SHOP_QR_CLOSED)


def _settle(
    journal: Answers, view: PaymentView, event: PaymentEvent, *, message: Reason,
    result: ChargeAnswer | None = None, poll: bool = False, release: bool = False,
) -> PaymentView:
    try:
        return journal.apply(view, event, answer_of(result), message=message, count_poll=poll,
                             release=release)
    except IllegalTransition:
        # Another process (or the background reconciler) settled it meanwhile: keep its verdict,
        # except a success for a row concluded FAILED: that charge happened, late.
        current = journal.get(view.app_trans_id)
        if release:
            journal.release(view.app_trans_id)
        if event is E.PAID and result is not None and current.state is S.FAILED:
            return late(journal, current, result)
        log.info("payment %s already %s; answer %s not applied", view.app_trans_id,
                 current.state.value, event.value)
        return current


def late(journal: Answers, current: PaymentView, result: ChargeAnswer) -> PaymentView:
    """A success for a row concluded FAILED: that charge happened, late."""
    log.warning("late success for %s, concluded failed before", current.app_trans_id)
    try:
        return journal.apply(current, E.LATE_SUCCESS, answer_of(result),
                             message=late_success(current.amount))
    except IllegalTransition:  # recorded already (by another process)
        return journal.get(current.app_trans_id)


def _still_checking(why: Reason, wrapper: str) -> Reason:
    """An answer that decides nothing, for the cashier: its own reason when it already says
    "still checking" (a provider's ``checking.*``), else wrapped in `wrapper`."""
    return why if why.code.startswith("checking.") else Reason.of(wrapper, reason=why)


def stay(journal: Answers, view: PaymentView, message: Reason, *, poll: bool = True,
         release: bool = False) -> PaymentView:
    """No verdict: keep the state (a SUBMITTING row becomes UNKNOWN: its request is over)."""
    return _settle(journal, view, E.NO_VERDICT, message=message, poll=poll, release=release)


def needs_review(journal: Answers, view: PaymentView, message: Reason,
                 result: ChargeAnswer | None = None) -> PaymentView:
    """An answer that does not fit its order: flagged, never paid, never "not paid"."""
    log.warning("payment %s needs review: %s", view.app_trans_id, message.code)
    try:
        return journal.apply(view, E.MISFIT, answer_of(result), message=message)
    except IllegalTransition:
        return journal.get(view.app_trans_id)


def apply_payment_result(
    journal: Answers,
    view: PaymentView,
    result: ChargeAnswer,
    *,
    from_query: bool,
    not_found_grace_s: float,
    release: bool = False,
) -> PaymentView:
    """Commit what `result` says about `view` (with `release`, in the same transaction that ends
    this process's lease on it: the answer to its own send)."""
    if not result.order_id:
        # a wallet's client ties every answer to its request (wallets/answer_fields.py): one
        # that still names no payment is the client's error, recorded as such, never applied
        log.error("an answer of the %s wallet names no payment: not applied to %s",
                  view.provider, view.app_trans_id)
        return stay(journal, view, Reason.of("unknown.untied_answer",
                                             app_trans_id=view.app_trans_id),
                    poll=from_query, release=release)
    if result.order_id != view.app_trans_id:
        log.warning("ignored an answer for %s while resolving %s", result.order_id,
                    view.app_trans_id)
        return stay(
            journal, view,
            Reason.of("unknown.other_payment", app_trans_id=result.order_id),
            poll=from_query,
        )
    problems = answer_problems(view, result)
    if problems:
        return needs_review(journal, view, review(view.app_trans_id, problems), result)
    meaning = result.outcome
    if meaning is WalletOutcome.PAID:
        said = charged_late(view.amount) if view.abandoned else result.why
        return _settle(journal, view, E.PAID, message=said,
                       result=result, poll=from_query, release=release)
    if meaning is WalletOutcome.AUTHORISED:  # held: the caller captures or voids it (two_step)
        return _settle(journal, view, E.AUTHORISED, message=result.why, result=result,
                       poll=from_query, release=release)
    if meaning is WalletOutcome.PROCESSING:
        if result.duplicate:
            return _settle(
                journal, view, E.NO_ANSWER if view.state is not S.PROCESSING else E.ACCEPTED,
                message=result.why, result=result,
                poll=from_query,
                release=release,
            )
        return _settle(journal, view, E.ACCEPTED, message=result.why,
                       result=result, poll=from_query, release=release)
    if meaning is WalletOutcome.NOT_FOUND and view.state is S.PROCESSING:
        # The service said it has this order: its "not found" now cannot prove it never
        # arrived (a wallet may publish the same code as "refund succeeded" too:
        # docs/protocol.md).
        return stay(journal, view, Reason.of("unknown.not_found_after_accepted"),
                    poll=from_query, release=release)
    if meaning is WalletOutcome.NOT_FOUND:
        if release:
            journal.release(view.app_trans_id)
        # "Never reached the service" only once no process can still be sending it and the
        # sending has been quiet for the grace period on the monotonic clock (journal/lease.py).
        try:
            return journal.apply(view, E.NEVER_ARRIVED, answer_of(result), message=NEVER_ARRIVED,
                                 grace_s=not_found_grace_s, count_poll=from_query)
        except Refused as refused:
            settled = journal.get(view.app_trans_id)
            if refused.detail == "owner_live":  # its sender may not have sent it yet
                return _settle(journal, settled, E.STILL_SENDING, message=SENDER_LIVE,
                               poll=from_query)
            return stay(journal, settled, Reason.of("unknown.not_found_yet"), poll=from_query)
        except IllegalTransition:
            return journal.get(view.app_trans_id)
    if meaning is WalletOutcome.REFUSED_REQUEST:
        # The request was refused for its own sake (maintenance, a system error, a code the
        # table does not publish...): it says nothing about the payment, which stays open.
        return stay(journal, view, _still_checking(result.why, "unknown.query_refused"),
                    poll=from_query, release=release)
    if meaning is WalletOutcome.UNKNOWN:
        return _settle(journal, view, E.NO_ANSWER, message=no_answer(result.service_message
                       or f"code {result.code}"), result=result, release=release)
    return _settle(journal, view, E.DECLINED, message=result.why, result=result,
                   poll=from_query, release=release)


# ---------------------------------------------------------------- refunds


def _refund_settle(
    journal: Answers, refund: RefundView, event: RefundEvent, *, message: Reason,
    result: RefundAnswer | None = None, release: bool = False,
) -> RefundView:
    try:
        return journal.apply(refund, event, answer_of(result), message=message, release=release)
    except IllegalTransition:
        if release:
            journal.refund_release(refund.m_refund_id)
        return journal.get_refund(refund.m_refund_id)


def refund_pending(journal: Answers, refund: RefundView, message: Reason, *,
                   release: bool = False) -> RefundView:
    return _refund_settle(journal, refund, RE.PENDING, message=message,
                          release=release)


def apply_refund_result(
    journal: Answers, refund: RefundView, result: RefundAnswer, *, from_query: bool,
    not_found_grace_s: float, release: bool = False,
) -> RefundView:
    if not result.refund_id:
        log.error("an answer of the %s wallet names no refund: not applied to %s",
                  refund.provider, refund.m_refund_id)
        return refund_pending(journal, refund, Reason.of("refund.untied_answer"),
                              release=release)
    if result.refund_id != refund.m_refund_id:
        return refund_pending(journal, refund, Reason.of("refund.other_refund"),
                              release=release)
    meaning = result.outcome
    if meaning is WalletOutcome.PAID:
        return _refund_settle(journal, refund, RE.DONE, message=result.why,
                              result=result, release=release)
    if meaning is WalletOutcome.PROCESSING:
        return _refund_settle(journal, refund, RE.PENDING, message=result.why,
                              result=result, release=release)
    if meaning is WalletOutcome.NOT_FOUND:
        if release:
            journal.refund_release(refund.m_refund_id)
        try:
            return journal.apply(refund, RE.NEVER_ARRIVED, answer_of(result),
                                 message=Reason.of("refund.never_arrived"),
                                 grace_s=not_found_grace_s)
        except Refused as refused:
            if refused.detail == "owner_live":
                return refund_pending(journal, refund, Reason.of("refund.sender_live"))
            return refund_pending(journal, refund, Reason.of("refund.not_found_yet"))
        except IllegalTransition:  # settled meanwhile
            return journal.get_refund(refund.m_refund_id)
    if meaning in (WalletOutcome.REFUSED_REQUEST, WalletOutcome.UNKNOWN):
        # Says nothing about the refund (or it may have been made): it stays open.
        return refund_pending(journal, refund,
                              _still_checking(result.why, "refund.query_refused"),
                              release=release)
    return _refund_settle(journal, refund, RE.FAILED, message=result.why,
                          result=result, release=release)


def arrived(result: ChargeAnswer) -> int | None:
    """What an answer says reached the wallet for its order: part of it (a part-paid reason's
    amount), all of it (PAID), or nothing known (None)."""
    if result.why.code in PART_PAID_REASONS:
        return int(result.why.params.get("amount", 0) or 0)
    if result.outcome is WalletOutcome.PAID:
        return result.amount
    return None


def _said_amount(view: PaymentView) -> int:
    return int(view.why.params.get("amount", 0) or 0)


def counted(view: PaymentView) -> int:
    """What the wallet counted as arrived when the row's reason was written: a settlement's
    `at_wallet` (money the shop returned included), else its `amount`."""
    return int(view.why.params.get("at_wallet", _said_amount(view)) or 0)


def more_after_settled(view: PaymentView, now: int) -> Reason:
    """More money reached a shop QR after a person settled what had arrived ("returned by the
    shop": all the wallet counted then went back, `returned`): theirs to decide again, their
    earlier decision kept in the sentence."""
    params = view.why.params
    again = view.why.code == MORE_AFTER_SETTLED
    return Reason.of(MORE_AFTER_SETTLED, wallet=params.get("wallet") or view.provider,
                     amount=now, ordered=view.amount,
                     returned=int(params.get("returned", 0)) if again else counted(view),
                     decided=params.get("decided") if again else view.why)


def recheck_final(journal: Answers, view: PaymentView, result: ChargeAnswer) -> PaymentView:
    """A status answer about a row already final: only a FAILED row can change. A success
    becomes a late success (or, if the answer does not fit the order, a flag for review); money
    that arrived in part to a closed shop QR flags it for review, and a flagged one takes the
    answer's newer amount. A row a person settled (what arrived returned by the shop) changes
    only if MORE money arrived since: flagged for them again, their decision kept in the
    sentence (a notice sent again, or an answer saying the same, changes nothing)."""
    current = journal.get(view.app_trans_id)
    if current.state is not S.FAILED or result.order_id != view.app_trans_id:
        return current
    now = arrived(result)
    if current.why.code in PART_SETTLED_FAILED or current.why.code == MORE_AFTER_SETTLED:
        # the wallet still counts money the shop returned by its own transfer: only a GROWN
        # amount is news, and never a late success as if all of it were at the shop
        if now is None or now <= counted(current):
            return current
        return needs_review(journal, current, more_after_settled(current, now), result)
    if result.why.code in PART_PAID_REASONS:
        # part of a transfer landed after the shop's QR was closed empty: the cashier's to
        # handle (what arrived, what is missing), never "not paid"; a newer amount replaces
        # the one the flag said
        if current.needs_review and (current.why.code not in PART_PAID_REASONS
                                     or now == _said_amount(current)):
            return current
        return needs_review(journal, current, result.why, result)
    if result.outcome is not WalletOutcome.PAID:
        return current
    problems = answer_problems(current, result)
    if problems:
        return needs_review(journal, current, review(view.app_trans_id, problems), result)
    return late(journal, current, result)
