"""`pay --qr`: the shop shows a QR (a shop-QR wallet's order: ZaloPay's gateway order, a bank
transfer's VietQR) and waits for it like a code payment, with the same exit codes. The QR's
content is printed (stdout; with --json in the answer's `qr_content`). When the wait ends
unresolved the order is cancelled at its provider if it can be, then its status decides: money
that arrived keeps the payment open for the cashier (a late payment), never "not paid"."""

from __future__ import annotations

import click

from pos_terminal import wallet_registry
from pos_terminal.base.amounts import parse_amount
from pos_terminal.base.i18n import _
from pos_terminal.base.reasons import Reason
from pos_terminal.cli.common import stop_on_signals
from pos_terminal.cli.money_common import answer_payment, counter_for, pay_error
from pos_terminal.cli.pay_answers import not_paid, show_progress
from pos_terminal.config import Settings
from pos_terminal.counter import answers
from pos_terminal.counter.types import CheckoutError, JournalError, WalletError, intent_of


def shop_qr_wallet(settings: Settings, provider: str | None) -> str | None:
    """`provider`, else the first wallet this counter takes that shows a shop QR (None: none)."""
    if provider:
        return provider
    for name in settings.wallets:
        if wallet_registry.wallet(name).capabilities.shop_qr:
            return name
    return None


def pay_by_qr(settings: Settings, *, amount_text: str, provider: str | None, description: str,
              deadline_s: float | None, cashier_id: str | None, as_json: bool) -> None:
    amount_read = parse_amount(amount_text, settings.checkout)
    if isinstance(amount_read, Reason):
        pay_error(str(amount_read), as_json=as_json, amount=None, field="amount")
    amount = amount_read
    wallet = shop_qr_wallet(settings, provider)
    if wallet is None:
        pay_error(_("no wallet of this counter shows a QR for the customer: configure one "
                    "(its [providers] table) or give --provider. Nothing was charged."),
                  as_json=as_json, amount=amount, field="provider")
    with stop_on_signals() as stop, counter_for(settings, as_json, pay=True, amount=amount,
                                                subject=lambda _c, exc: intent_of(exc)) as co:
        show_progress(co, as_json)
        arrived: dict[str, int] = {}
        qr: str | None = None
        try:
            order = co.payments.create_gateway_order(amount, description, cashier_id=cashier_id,
                                                     provider=wallet)
            qr = order.qr_code or order.order_url
            if qr and not as_json:
                click.echo(_("QR: {qr}").format(qr=qr))
            view = order.payment
            if not view.is_final:
                view = co.payments.follow(view.app_trans_id, deadline_s=deadline_s,
                                          cancel=stop.event)
        except (CheckoutError, JournalError, WalletError) as exc:
            not_paid(co, exc, amount=amount, as_json=as_json, signal=stop.name)
        if answers.of_payment(view) is answers.Verdict.UNKNOWN:  # the cashier gives up
            view = co.payments.cancel_gateway_order(view.app_trans_id)
            if answers.of_payment(view) is answers.Verdict.UNKNOWN:
                arrived = answers.part_paid(view)  # said before the row is given up
                view = co.payments.abandon(view.app_trans_id, cashier_id=cashier_id)
    answer_payment(view, as_json, stop, qr_content=qr, **arrived)
