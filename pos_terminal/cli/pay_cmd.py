"""`pay`: charge one payment and wait for its result. The command reads its options and the
payment code, asks `counter.payments` to pay, and renders the answer (pay_answers.py)."""

from __future__ import annotations

import click

from pos_terminal.base.i18n import _
from pos_terminal.cli.cashier_cmds import PinReader, signed_cashier
from pos_terminal.cli.common import (
    EXIT_UNRESOLVED,
    load_settings_or_exit,
    print_json,
    stop_on_signals,
)
from pos_terminal.cli.money_common import (
    answer_payment,
    counter_for,
    exit_with,
    not_sent,
    pay_error,
    unexpected,
)
from pos_terminal.cli.pay_answers import refused_result, show_progress
from pos_terminal.cli.pay_inputs import WEDGE_REFUSAL, code_from_stdin, parse_items, read_scan
from pos_terminal.counter import outcome as verdict
from pos_terminal.counter.types import (
    AnswerNotRecorded,
    CashierError,
    CheckoutError,
    CodeRefused,
    FieldError,
    InvalidPayment,
    JournalError,
    PaymentState,
    Stopped,
    WalletError,
    check_code,
    check_code_format,
    check_description,
    check_items,
    intent_of,
    parse_amount,
)

S = PaymentState


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
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")
@click.pass_context
def pay_cmd(ctx: click.Context, amount_text: str, code: str | None, scanner_spec: str | None,
            scan_timeout: float, description: str, items: tuple[str, ...],
            deadline_s: float | None, cashier_id: str | None, pin_stdin: bool,
            as_json: bool, code_stdin: bool) -> None:
    """Charge one payment and wait for its result.

    \b
    Examples:
      scan-tool | pos-terminal pay --amount 50000 --code-stdin --json
      pos-terminal pay --amount 50000 --scanner camera:0 --description "Table 4"
      pos-terminal pay --amount 50000 --scanner evdev:/dev/input/event3

    Exit 0 succeeded, 1 failed or declined, 3 still unresolved (run `pos-terminal reconcile`
    later; never charge again), 2 bad input or configuration (nothing was charged).
    """
    settings = load_settings_or_exit(ctx)
    try:
        amount = parse_amount(amount_text, settings.checkout)
    except InvalidPayment as exc:
        pay_error(exc.message, as_json=as_json, amount=None, field=exc.field)
    if code_stdin and code is not None:
        pay_error(_("give the payment code once: --code-stdin or --code, not both. Nothing "
                    "was charged."), as_json=as_json, amount=amount, field="code")
    if code_stdin:
        code = "-"
    if (code is None) == (scanner_spec is None):
        pay_error(_("give exactly one of --code-stdin (the code on stdin) or --scanner SPEC"),
                  as_json=as_json, amount=amount, field="code")
    if code == "-":
        code = code_from_stdin(as_json, amount)
    if scanner_spec is not None and scanner_spec.strip().partition(":")[0].lower() == "wedge":
        pay_error(_(WEDGE_REFUSAL), as_json=as_json, amount=amount, field="scanner")
    if code is not None:
        try:
            check_code(code)
            check_code_format(code, settings.scanner, field="--code")
        except InvalidPayment as exc:
            pay_error(exc.message, as_json=as_json, amount=amount, field="code")
    item_list = parse_items(items, as_json, amount)
    if cashier_id is not None:
        try:
            signed_cashier(settings, cashier_id, PinReader(True) if pin_stdin else None)
        except CashierError as exc:
            pay_error(exc.message + " " + _("Nothing was charged."), as_json=as_json,
                      amount=amount,
                      field="cashier")
    elif pin_stdin:
        pay_error(_("--pin-stdin checks the PIN of --cashier ID: give --cashier too. Nothing "
                    "was charged."), as_json=as_json, amount=amount, field="cashier")
    try:
        check_description(description, label="--description")
        check_items(item_list, amount, items_label="The --item values",
                    amount_label="--amount")
    except InvalidPayment as exc:
        field = "item" if exc.field == "items" else exc.field
        pay_error(exc.message, as_json=as_json, amount=amount, field=field)
    if scanner_spec is not None:
        from pos_terminal.cli.ui_cmds import scanner_unusable
        from pos_terminal.counter import missing_device

        problem = missing_device(scanner_spec)
        if problem is not None:
            pay_error(scanner_unusable(scanner_spec, problem), as_json=as_json, amount=amount,
                      field="scanner")
        try:
            code = read_scan(settings, scanner_spec, scan_timeout)
        except InvalidPayment as exc:
            pay_error(exc.message, as_json=as_json, amount=amount, field=exc.field)
        except (ValueError, OSError) as exc:
            pay_error(_("the scanner {spec} cannot be used: {error}").format(
                spec=repr(scanner_spec), error=exc), as_json=as_json,
                      amount=amount, field="scanner")
    assert code is not None
    with stop_on_signals() as stop, counter_for(settings, as_json, pay=True, amount=amount,
                                                subject=lambda _c, exc: intent_of(exc)) as co:
        show_progress(co, as_json)
        try:
            view = co.payments.pay(amount, code, description=description, items=item_list,
                                   deadline_s=deadline_s, cancel=stop.event, stop=stop.event,
                                   cashier_id=cashier_id)
        except Stopped as exc:
            pay_error(exc.message, as_json=as_json, amount=amount, signal=stop.name)
        except (InvalidPayment, FieldError) as exc:
            pay_error(exc.message, as_json=as_json, amount=amount, field=exc.field)
        except CodeRefused as exc:
            refused_result(co, exc, amount, as_json)
        except AnswerNotRecorded as exc:
            # The charge left, its answer is not journaled: unresolved, never charge again.
            click.echo(f"error: {exc.message}", err=True)
            if as_json:
                print_json({**not_sent(exc.message, amount, state=S.UNKNOWN.value,
                                       app_trans_id=exc.app_trans_id),
                            "error": exc.message, "reason": exc.reason})
            exit_with(EXIT_UNRESOLVED)
        except (JournalError, WalletError, CheckoutError) as exc:
            intent = intent_of(exc)
            if intent is not None:  # after the intent: never "nothing was sent"
                unexpected(co, exc, as_json=as_json, kind="pay", subject=intent, amount=amount)
            pay_error(exc.message, as_json=as_json, amount=amount,
                      **({"reason": getattr(exc, "reason", "journal")}
                         if isinstance(exc, JournalError) else {}))
        if verdict.of_payment(view) is verdict.Verdict.UNKNOWN:  # exit 3: the cashier gives up
            view = co.payments.abandon(view.app_trans_id, cashier_id=cashier_id)
    answer_payment(view, as_json, stop)



def register(group: click.Group) -> None:
    group.add_command(pay_cmd)
