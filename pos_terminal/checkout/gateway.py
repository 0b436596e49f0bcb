"""Gateway orders (the UI's "Show QR"): the customer pays on the service's page or QR code.

Journaled like a quick pay (kind "gateway", no payment code): intent committed before the create
request, then PROCESSING while the customer has not paid, followed by status queries until paid
(SUCCEEDED), cancelled or expired (FAILED).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from pos_terminal.base.reasons import Reason
from pos_terminal.base.wallet_errors import (
    NoAnswer,
    NotSent,
    ServiceRefused,
    UnreadableAnswer,
    WalletError,
)
from pos_terminal.base.wallet_types import HostedOrder
from pos_terminal.checkout import outcomes
from pos_terminal.checkout.ports import CancellableOrder, CheckoutContext, GatewayJournal
from pos_terminal.journal import Answer, PaymentEvent, PaymentState, PaymentView

S = PaymentState
E = PaymentEvent
WAITING = Reason.of("gateway.waiting")
PART_PAID_REASONS = outcomes.PART_PAID_REASONS
#: a part-paid shop QR settled by hand: the rest collected another way, or what arrived returned
#: by the shop; their reasons keep what arrived and what was missing
PART_SETTLED_REASONS = frozenset({"override.rest_collected", "override.part_returned"})


@dataclass(frozen=True)
class GatewayOrderView:
    payment: PaymentView
    zp_trans_token: str | None = None

    @property
    def app_trans_id(self) -> str:
        return self.payment.app_trans_id

    @property
    def state(self) -> PaymentState:
        return self.payment.state

    @property
    def order_url(self) -> str | None:
        return self.payment.order_url

    @property
    def qr_code(self) -> str | None:
        return self.payment.qr_code

    @property
    def message(self) -> str:
        return self.payment.message

    def to_json(self) -> dict[str, Any]:
        data = self.payment.to_json()
        data["zp_trans_token"] = self.zp_trans_token
        return data


def create_gateway_order(
    co: CheckoutContext[GatewayJournal], amount: int, description: str = "", bank_code: str = "",
    *, cashier_id: str | None = None, provider: str | None = None, sale_ref: str | None = None,
) -> GatewayOrderView:
    """`provider`: the wallet whose QR the shop shows (a shop-QR one); None: the default's."""
    amount = co.validate_amount(amount)
    journal = co.journal
    now = journal.now()
    provider = provider or co.default_provider
    client = co.client_for(provider)
    app_trans_id = client.new_order_id(now)
    order = HostedOrder(order_id=app_trans_id, amount=amount, created_ms=now,
                        customer=co.settings.terminal.app_user, description=description,
                        bank_code=bank_code,
                        redirect_url=co.settings.service.redirect_url or None)
    client.check_hosted_order(order)
    view = journal.record_intent(
        app_trans_id=app_trans_id, amount=amount, generation=client.generation,
        provider=provider, kind="gateway", description=description,
        message=Reason.of("gateway.creating"), now=now, cashier_id=cashier_id, sale_ref=sale_ref,
    )
    token: str | None = None
    try:
        co.count_request()
        result = client.create_hosted_order(order)
    except NotSent as exc:
        view = journal.apply(app_trans_id, E.DECLINED, message=outcomes.not_sent(exc.cause))
    except (NoAnswer, UnreadableAnswer) as exc:
        view = journal.apply(app_trans_id, E.NO_ANSWER, message=outcomes.no_answer(exc.why))
    except ServiceRefused as exc:
        view = journal.apply(app_trans_id, E.DECLINED, Answer(
            exc.return_code, exc.sub_return_code, exc.service_message), message=exc.why)
    else:
        token = result.token
        view = journal.apply(app_trans_id, E.ACCEPTED, Answer(
            result.return_code, None, result.service_message, order_url=result.order_url,
            qr_code=result.qr_code), message=WAITING)
    return GatewayOrderView(view, token)


def cancel_gateway_order(co: CheckoutContext[GatewayJournal], app_trans_id: str) -> PaymentView:
    """The cashier gives up a shown QR: its provider closes it if it can (CancellableOrder),
    then one status query records what is known (a failure to cancel changes nothing: the query
    still tells). A row already final is left as it is."""
    view = co.journal.get(app_trans_id)
    if view.is_final:
        return view
    client = co.client_for(view.provider)
    if isinstance(client, CancellableOrder):
        try:
            co.count_request()
            client.cancel_hosted_order(app_trans_id, view.amount)
        except WalletError:
            pass  # nothing learnt: the status query below decides
    return co.query_once(co.journal.get(app_trans_id))
