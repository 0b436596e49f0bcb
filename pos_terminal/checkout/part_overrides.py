"""A supervisor settles a shop QR paid in part (`Checkout.override`): what arrived and what was
missing are written from a FRESH status answer, never from the row's older reason (more may have
arrived since it was flagged). A wallet that cannot be asked, or whose answer no longer says
"part of it arrived", refuses the override with a sentence: nothing changed."""

from __future__ import annotations

from pos_terminal.base.reasons import Reason
from pos_terminal.base.wallet_errors import WalletError
from pos_terminal.base.wallet_types import ChargeAnswer
from pos_terminal.checkout import outcomes
from pos_terminal.checkout.ports import CheckoutContext, GatewayJournal
from pos_terminal.journal import IllegalTransition, PaymentView

#: the reasons of a row settled from a fresh answer (a part arrived; or more since a person
#: settled it)
SETTLED_FRESH = outcomes.PART_PAID_REASONS | {outcomes.MORE_AFTER_SETTLED}


def _wallet(view: PaymentView) -> str:
    return str(view.why.params.get("wallet") or view.provider)


def ask(co: CheckoutContext[GatewayJournal], view: PaymentView) -> ChargeAnswer:
    """One status query of `view`, or IllegalTransition (a sentence) if the wallet could not
    say what arrived for it."""
    def unconfirmed(detail: Reason | str) -> IllegalTransition:
        return IllegalTransition(Reason.of("override.unconfirmed", wallet=_wallet(view),
                                           app_trans_id=view.app_trans_id, detail=detail))
    try:
        co.count_request()
        result = co.client_for(view.provider).query_charge(view.app_trans_id, view.amount)
    except WalletError as exc:
        raise unconfirmed(exc.why) from exc
    if result.order_id != view.app_trans_id or outcomes.arrived(result) is None:
        raise unconfirmed(result.why)
    return result


def settled(view: PaymentView, result: ChargeAnswer, *, paid: bool, who: str,
            reason: str) -> Reason:
    """The override's reason from the fresh answer `result` about `view` (its row before the
    answer); IllegalTransition if the answer now says something else than part of it arrived
    (a row a person had settled, found holding more, is settled with whatever arrived)."""
    if result.why.code not in outcomes.PART_PAID_REASONS \
            and view.why.code != outcomes.MORE_AFTER_SETTLED:
        raise IllegalTransition(Reason.of("override.answer_changed", wallet=_wallet(view),
                                          app_trans_id=view.app_trans_id, said=result.why))
    now = outcomes.arrived(result) or 0  # what the wallet counts in all
    # the shop holds what it counts less what the shop had returned before (a row settled
    # "returned by the shop", then more arrived)
    held = max(now - int(view.why.params.get("returned", 0) or 0), 0)
    ordered = int(result.why.params.get("ordered", view.amount) or view.amount)
    return Reason.of("override.rest_collected" if paid else "override.part_returned",
                     wallet=_wallet(view), amount=held, ordered=ordered,
                     missing=max(ordered - held, 0), at_wallet=now, who=who.strip(),
                     reason=reason.strip())
