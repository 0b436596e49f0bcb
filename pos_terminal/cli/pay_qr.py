"""`pay --qr`: the shop shows a QR (counter/qr_sales.py) and waits for it like a code payment,
with the same exit codes. The QR's content is printed (stdout; with --json in the answer's
`qr_content`, and `amount_paid` / `amount_missing` when part of the money arrived)."""

from __future__ import annotations

import click

from pos_terminal.base.amounts import parse_amount
from pos_terminal.base.i18n import _
from pos_terminal.base.reasons import Reason
from pos_terminal.cli.common import stop_on_signals
from pos_terminal.cli.money_common import answer_payment, counter_for, pay_error
from pos_terminal.cli.pay_answers import not_paid, show_progress
from pos_terminal.config import Settings
from pos_terminal.counter.qr_sales import qr_sale, shop_qr_wallet
from pos_terminal.counter.types import CheckoutError, JournalError, WalletError, intent_of


def pay_by_qr(settings: Settings, *, amount_text: str, provider: str | None, description: str,
              deadline_s: float | None, cashier_id: str | None, as_json: bool) -> None:
    amount_read = parse_amount(amount_text, settings.checkout)
    if isinstance(amount_read, Reason):
        pay_error(str(amount_read), as_json=as_json, amount=None, field="amount")
    amount = amount_read
    wallet = shop_qr_wallet(settings.wallets, provider)
    if wallet is None:
        pay_error(_("no wallet of this counter shows a QR for the customer: configure one "
                    "(its [providers] table) or give --provider. Nothing was charged."),
                  as_json=as_json, amount=amount, field="provider")

    def shown(qr: str | None) -> None:
        if qr and not as_json:
            click.echo(_("QR: {qr}").format(qr=qr))

    with stop_on_signals() as stop, counter_for(settings, as_json, pay=True, amount=amount,
                                                subject=lambda _c, exc: intent_of(exc)) as co:
        show_progress(co, as_json)
        try:
            ended = qr_sale(co.payments, amount, provider=wallet, description=description,
                            deadline_s=deadline_s, cancel=stop.event, cashier_id=cashier_id,
                            on_shown=shown)
        except (CheckoutError, JournalError, WalletError) as exc:
            not_paid(co, exc, amount=amount, as_json=as_json, signal=stop.name)
    answer_payment(ended.view, as_json, stop, **ended.extra())
