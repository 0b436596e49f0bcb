"""`pay`: charge one payment and wait for its result. The command reads its options and the
payment code (pay_inputs.py), asks `counter.payments` to pay, and renders the answer
(money_common.answer_payment; pay_answers.py when the payment raised instead)."""

from __future__ import annotations

import click

from pos_terminal.base.i18n import _
from pos_terminal.cli.common import load_settings_or_exit, stop_on_signals
from pos_terminal.cli.journal_filters import WalletChoice
from pos_terminal.cli.money_common import answer_payment, counter_for, pay_error
from pos_terminal.cli.pay_answers import not_paid, show_progress
from pos_terminal.cli.pay_inputs import read_request
from pos_terminal.cli.pay_qr import pay_by_qr
from pos_terminal.counter import answers
from pos_terminal.counter.types import CheckoutError, JournalError, WalletError, intent_of


@click.command("pay")
@click.option("--amount", "amount_text", required=True, metavar="N",
              help="Amount in whole VND.")
@click.option("--code", default=None, metavar="CODE|-",
              help="The customer's payment code; - reads it from stdin. A code written here is "
                   "visible to every local user (ps) while the payment runs: prefer "
                   "--code-stdin.")
@click.option("--code-stdin", is_flag=True,
              help="Read the payment code from stdin (its first line; with --pin-stdin the PIN "
                   "follows on the next line).")
@click.option("--scanner", "scanner_spec", default=None, metavar="SPEC",
              help="Wait for a scan from this source instead: camera:0, images:DIR, "
                   "evdev:/dev/input/event3, serial:/dev/ttyACM0 (not wedge: a keyboard-wedge "
                   "scanner types into the terminal UI).")
@click.option("--scan-timeout", default=60.0, show_default=True,
              type=click.FloatRange(min=0, min_open=True),
              help="Seconds to wait for a scan with --scanner.")
@click.option("--description", default="", help="Order description shown to the customer.")
@click.option("--item", "items", multiple=True, metavar="JSON",
              help='An item: {"itemid","itemname","itemprice","itemquantity"}; repeatable. '
                   "The items must add up to --amount.")
@click.option("--deadline", "deadline_s", type=click.FloatRange(min=0), default=None,
              help="Seconds to wait for a final result (default [checkout] poll_deadline_s).")
@click.option("--cashier", "cashier_id", default=None, metavar="ID",
              help="The cashier taking the payment (journaled with it).")
@click.option("--pin-stdin", is_flag=True,
              help="With --cashier: check the cashier's PIN, read from stdin.")
@click.option("--provider", default=None, metavar="WALLET",
              type=WalletChoice(),
              help="The customer's wallet; without it the code's pattern decides (a code no "
                   "wallet or several take is refused, nothing sent).")
@click.option("--qr", "by_qr", is_flag=True,
              help="Show the shop's QR instead (a shop-QR wallet: --provider, else the first "
                   "configured) and wait for the customer to pay it; its content is printed.")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")
@click.pass_context
def pay_cmd(ctx: click.Context, amount_text: str, code: str | None, scanner_spec: str | None,
            scan_timeout: float, description: str, items: tuple[str, ...],
            deadline_s: float | None, cashier_id: str | None, pin_stdin: bool,
            as_json: bool, code_stdin: bool, provider: str | None, by_qr: bool) -> None:
    """Charge one payment and wait for its result.

    \b
    Examples:
      scan-tool | pos-terminal pay --amount 50000 --code-stdin --json
      pos-terminal pay --amount 50000 --scanner camera:0 --description "Table 4"
      pos-terminal pay --amount 50000 --scanner evdev:/dev/input/event3
      pos-terminal pay --amount 50000 --qr --json

    Exit 0 succeeded, 1 failed or declined, 3 still unresolved (run `pos-terminal reconcile`
    later; never charge again), 2 bad input or configuration (nothing was charged).
    """
    settings = load_settings_or_exit(ctx)
    if by_qr:
        if code is not None or code_stdin or scanner_spec is not None or items or pin_stdin:
            pay_error(_("--qr shows the shop's QR: give no payment code, scanner, items or "
                        "PIN with it. Nothing was charged."), as_json=as_json, amount=None,
                      field="qr")
        pay_by_qr(settings, amount_text=amount_text, provider=provider.lower() if provider
                  else None, description=description, deadline_s=deadline_s,
                  cashier_id=cashier_id, as_json=as_json)
        return
    request = read_request(settings, amount_text=amount_text, code=code, code_stdin=code_stdin,
                           scanner_spec=scanner_spec, scan_timeout=scan_timeout,
                           description=description, items=items, cashier_id=cashier_id,
                           pin_stdin=pin_stdin, as_json=as_json)
    amount = request.amount
    with stop_on_signals() as stop, counter_for(settings, as_json, pay=True, amount=amount,
                                                subject=lambda _c, exc: intent_of(exc)) as co:
        show_progress(co, as_json)
        try:
            view = co.payments.pay(amount, request.code, description=description,
                                   items=request.items, deadline_s=deadline_s,
                                   cancel=stop.event, stop=stop.event, cashier_id=cashier_id,
                                   provider=provider.lower() if provider else None)
        except (CheckoutError, JournalError, WalletError) as exc:
            not_paid(co, exc, amount=amount, as_json=as_json, signal=stop.name)
        if answers.of_payment(view) is answers.Verdict.UNKNOWN:  # exit 3: the cashier gives up
            view = co.payments.abandon(view.app_trans_id, cashier_id=cashier_id)
    answer_payment(view, as_json, stop)


def register(group: click.Group) -> None:
    group.add_command(pay_cmd)
