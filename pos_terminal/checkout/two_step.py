"""Two-step payments: the wallet holds the money (AUTHORISED) until the terminal captures it,
or cancels it when the cashier has given up on the payment (the held money goes back to the
customer at once: cancelled, never refunded).

No state of its own: a held payment is PROCESSING, and what decides is the wallet's answer in
hand. Whenever an answer says AUTHORISED (the payment's own send, a status query, reconcile
after a crash), `conclude` acts on it: it records ``capture_sent`` (or ``void_sent``) BEFORE
asking, then asks; the provider repeats the same request for the same payment every time (its
idempotency key), so a capture lost, crashed or sent by two processes at once takes the money
once. An answer to the capture or cancel that is not a clear "done" decides nothing: the row
stays open and the next status query settles it (still held: ask again; paid; released).
"""

from __future__ import annotations

import logging
from collections.abc import Callable

from pos_terminal.base.reasons import Reason
from pos_terminal.base.wallet_errors import WalletError
from pos_terminal.base.wallet_types import ChargeAnswer, WalletOutcome
from pos_terminal.checkout import outcomes
from pos_terminal.checkout.answer_checks import answer_problems, review
from pos_terminal.checkout.hooks import pause_point
from pos_terminal.checkout.ports import CheckoutContext, HoldingWallet, LateChargeJournal
from pos_terminal.journal import IllegalTransition, PaymentEvent, PaymentState, PaymentView

log = logging.getLogger(__name__)
S = PaymentState
E = PaymentEvent


def conclude(co: CheckoutContext[LateChargeJournal], view: PaymentView) -> PaymentView:
    """`view` was just answered AUTHORISED: capture it, or cancel it if the cashier gave up."""
    wallet = co.client_for(view.provider)
    if view.state is not S.PROCESSING or view.needs_review:
        return view
    if not isinstance(wallet, HoldingWallet):  # a provider that holds but cannot capture
        return outcomes.needs_review(co.journal, view, Reason.of(
            "two_step.cannot_confirm", app_trans_id=view.app_trans_id))
    if view.abandoned:
        return _void(co, wallet, view)
    return _capture(co, wallet, view)


def _ask(co: CheckoutContext[LateChargeJournal], view: PaymentView, sent: PaymentEvent,
         how: str, call: Callable[[str, int], ChargeAnswer]
         ) -> tuple[PaymentView, ChargeAnswer | None]:
    """Record `sent` (before anything leaves), then make the call; None: no usable answer."""
    try:
        view = co.journal.apply(view, sent, message=Reason.of(f"two_step.{how}"))
    except IllegalTransition:  # settled meanwhile (another process): its verdict stands
        return co.journal.get(view.app_trans_id), None
    pause_point(f"before_{how}")
    try:
        co.count_request()
        return view, call(view.app_trans_id, view.amount)
    except WalletError as exc:
        log.info("%s of %s unanswered: %s", how, view.app_trans_id, exc.code)
        return outcomes.stay(co.journal, view, Reason.of(
            f"two_step.{how}_unanswered", detail=exc.why), poll=False), None
    except Exception as exc:  # whatever it was, the status query settles the payment
        log.exception("unexpected error %s %s", how, view.app_trans_id)
        return outcomes.stay(co.journal, view, Reason.of(
            f"two_step.{how}_unanswered", detail=type(exc).__name__), poll=False), None


def _capture(co: CheckoutContext[LateChargeJournal], wallet: HoldingWallet,
             view: PaymentView) -> PaymentView:
    view, result = _ask(co, view, E.CAPTURE_SENT, "capturing", wallet.capture)
    if result is None:
        return view
    if result.outcome is not WalletOutcome.PAID or result.order_id != view.app_trans_id:
        return outcomes.stay(co.journal, view, Reason.of(
            "two_step.undecided", code=result.code, detail=result.why), poll=False)
    problems = [p for p in answer_problems(view, result)
                # the hold's answer brought the transaction id already
                if not (p.code == "problem.no_transaction_number" and view.zp_trans_id)]
    if problems:
        return outcomes.needs_review(co.journal, view, review(view.app_trans_id, problems),
                                     result)
    try:
        return co.journal.apply(view, E.CAPTURED, outcomes.answer_of(result),
                                message=Reason.of("paid"))
    except IllegalTransition:
        return co.journal.get(view.app_trans_id)


def _void(co: CheckoutContext[LateChargeJournal], wallet: HoldingWallet,
          view: PaymentView) -> PaymentView:
    view, result = _ask(co, view, E.VOID_SENT, "voiding", wallet.void)
    if result is None:
        return view
    if result.outcome is not WalletOutcome.DECLINED or result.order_id != view.app_trans_id:
        return outcomes.stay(co.journal, view, Reason.of(
            "two_step.undecided", code=result.code, detail=result.why), poll=False)
    try:
        return co.journal.apply(view, E.VOIDED, outcomes.answer_of(result), message=result.why)
    except IllegalTransition:
        return co.journal.get(view.app_trans_id)


def release_if_held(co: CheckoutContext[LateChargeJournal], view: PaymentView) -> None:
    """A payment concluded FAILED whose wallet still holds its money (the hold came after
    "never reached the service"): release it; the row stays as it is, the money goes back."""
    wallet = co.client_for(view.provider)
    if view.state is not S.FAILED or not isinstance(wallet, HoldingWallet):
        return
    try:
        co.count_request()
        wallet.void(view.app_trans_id, view.amount)
    except WalletError as exc:
        log.warning("could not release the held money of %s: %s", view.app_trans_id, exc.code)
