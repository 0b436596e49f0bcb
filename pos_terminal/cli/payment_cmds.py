"""Headless payment commands: pay, status, reconcile, refund, override, journal, report.

Exit codes (docs/external-contracts.md#the-command-line): 0 succeeded, 1 failed or declined, 3 still
unresolved (processing or unknown after the deadline), 2 usage, configuration or journal error.
With --json every command prints exactly one JSON object on stdout.
"""

from __future__ import annotations

import itertools
import json
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any, NoReturn, TextIO, TypeVar

import click

from pos_terminal.base.clock import VN_TZ, day_bounds_ms, format_stamp, today
from pos_terminal.base.codes import mask_last4
from pos_terminal.base.files import open_private
from pos_terminal.base.i18n import N_, _
from pos_terminal.base.money import format_vnd
from pos_terminal.cli.cashier_cmds import (
    PinReader,
    authorise,
    pin_stdin_option,
    signed_cashier,
    supervisor_option,
)
from pos_terminal.cli.common import (
    EXIT_OK,
    EXIT_UNRESOLVED,
    EXIT_USAGE,
    SignalStop,
    load_settings_or_exit,
    print_json,
    stop_on_signals,
)
from pos_terminal.config import Settings
from pos_terminal.counter import Counter, PaymentProgress, Scanner, open_counter, source_factory
from pos_terminal.counter import outcome as verdict
from pos_terminal.counter.admin import (
    CashierError,
    Journal,
    has_ledger,
    write_csv,
    write_json,
    write_json_list,
    write_refunds_csv,
    write_refunds_json,
)
from pos_terminal.counter.types import (
    FINAL_STATES,
    AnswerNotRecorded,
    CheckoutError,
    CodeRefused,
    FieldError,
    IllegalTransition,
    InvalidPayment,
    Item,
    JournalError,
    PaymentState,
    PaymentView,
    RefundNotAllowed,
    RefundView,
    RsaKeyError,
    Stopped,
    UnknownPayment,
    WalletError,
    check_code,
    check_code_format,
    check_description,
    check_items,
    intent_of,
    parse_amount,
    refund_of,
)
from pos_terminal.sentences import use_front_end
from pos_terminal.sentences.reports import group_lines, report_lines
from pos_terminal.text_safety import AbsurdNumber, bounded_int, clean

S = PaymentState
#: States a payment row can be in (NEW is before the intent).
STATE_NAMES = [s.value for s in PaymentState if s is not PaymentState.NEW]


# ------------------------------------------------------------------ shared helpers
def _exit(code: int) -> NoReturn:
    raise click.exceptions.Exit(code)


def _error(message: str, *, as_json: bool, code: int = EXIT_USAGE, **extra: Any) -> NoReturn:
    """Refuse with a sentence on stderr (and one JSON object on stdout with --json)."""
    click.echo(_("error: {message}").format(message=message), err=True)
    if as_json:
        print_json({"error": message, **extra})
    _exit(code)



def _unexpected(co: Counter, exc: Exception, *, as_json: bool, kind: str,
                subject: str | None, amount: int | None) -> NoReturn:
    """Any error nobody planned for: never a traceback, never exit 1 while the outcome is
    unknown. The answer is the journal's row when there is one (verdict.error_answer)."""
    error = verdict.describe_error(exc)
    click.echo(_("error: unexpected {error}").format(error=error), err=True)
    if kind == "refund" and subject is not None:
        try:
            refund = co.get_refund(subject)
        except Exception:
            refund = None
        if refund is not None:
            data = verdict.refund_answer(refund, error=error)
            if as_json:
                print_json(data)
            _exit(int(data["exit_code"]))
    if kind == "reconcile":
        if as_json:
            print_json(verdict.contract(str(verdict.unexpected(error, None)).replace(
                "before the payment was recorded", "while reconciling"), None,
                state=S.UNKNOWN.value, verdict=verdict.Verdict.UNKNOWN, error=error))
        _exit(EXIT_UNRESOLVED)
    target = subject if kind in ("pay", "status") else None
    data, code = verdict.error_answer(exc, co, target, amount)
    if kind == "status" and target is not None and code == EXIT_USAGE:
        code = EXIT_UNRESOLVED
    if kind == "refund" and code == EXIT_USAGE and refund_of(exc) is not None:
        code = EXIT_UNRESOLVED
    if as_json:
        print_json(data)
    _exit(code)


@contextmanager
def _checkout(settings: Settings, as_json: bool, *, pay: bool = False,
              amount: int | None = None, kind: str = "",
              subject: Callable[[Counter, Exception], str | None] | None = None
              ) -> Iterator[Counter]:
    """A Counter for one command. The CLI runs no background reconciler, so an open payment's
    message says to run `pos-terminal reconcile`. With `pay`, errors carry the pay contract.
    An unexpected error inside answers by the one rule (never a traceback)."""

    def refuse(message: str, **extra: Any) -> NoReturn:
        if pay:
            _pay_error(message, as_json=as_json, amount=amount, **extra)
        _error(message, as_json=as_json, **extra)

    try:
        use_front_end("commands")  # an open payment's next step is `pos-terminal reconcile`
        co = open_counter(settings)
    except JournalError as exc:
        refuse(exc.message, reason=getattr(exc, "reason", "journal"))
    except RsaKeyError as exc:
        refuse(_("[service] rsa_public_key in {file}: {error}").format(
            file=settings.source, error=exc.message))
    try:
        yield co
    except (click.exceptions.Exit, click.ClickException, click.exceptions.Abort):
        raise
    except Exception as exc:
        _unexpected(co, exc, as_json=as_json, kind=kind or ("pay" if pay else ""),
                    subject=subject(co, exc) if subject is not None else None, amount=amount)
    finally:
        co.close()


@contextmanager
def _journal(settings: Settings, as_json: bool) -> Iterator[Journal]:
    try:
        journal = Journal.open(settings.terminal.journal, private=settings.private_files)
    except JournalError as exc:
        _error(exc.message, as_json=as_json)
    try:
        yield journal
    finally:
        journal.close()


def _money(amount: int) -> str:
    return format_vnd(amount)


def _payment_line(view: PaymentView) -> str:
    state = verdict.state_label(view.state.value).upper()
    if view.late:
        state += " " + _("(LATE: charged after the terminal said failed)")
    elif view.charged_late:
        state += " " + _("(LATE: charged after the cashier gave up)")
    parts = [state, _money(view.amount), view.app_trans_id]
    # A wallet transaction number only for money that moved (a failed row may carry one).
    if view.zp_trans_id and view.state in (S.SUCCEEDED, S.REFUNDED):
        parts.append(_("zp {zp_trans_id}").format(zp_trans_id=view.zp_trans_id))
    if view.refunded_amount:
        parts.append(_("refunded {amount}").format(amount=_money(view.refunded_amount)))
    if view.needs_review:
        parts.append(_("NEEDS REVIEW"))
    return "  ".join(parts) + f"\n  {clean(view.message)}"


def _refund_line(view: RefundView) -> str:
    return (_("REFUND {state}  {amount}  {m_refund_id}  (payment {app_trans_id})").format(
        state=verdict.state_label(view.state.value).upper(), amount=_money(view.amount),
        m_refund_id=view.m_refund_id, app_trans_id=view.app_trans_id)
        + f"\n  {clean(view.message)}")


def _show_progress(co: Counter, as_json: bool) -> None:
    """Render the counter's PaymentProgress events on stderr (not with --json)."""
    if as_json:
        return
    started = time.monotonic()
    last: list[str] = []

    def show(event: PaymentProgress) -> None:
        view = event.view
        if view.state in FINAL_STATES:
            return
        why = ""
        if view.state is S.UNKNOWN:  # say why it waits (a 5xx or a drop can take a minute)
            queries = {0: _("no query yet"), 1: _("1 query")}.get(
                view.polls, _("{count} queries").format(count=view.polls))
            why = _(": no answer to the charge; asking the service whether it arrived "
                    "({queries})").format(queries=queries)
        line = (f"{verdict.state_label(view.state.value)} "
                f"({time.monotonic() - started:.1f} s){why}")
        if last == [line]:
            return
        last[:] = [line]
        click.echo(f"... {line}", err=True)

    co.bus.subscribe(PaymentProgress, show, name="pay progress")


def _parse_items(raw: tuple[str, ...], as_json: bool, amount: int) -> list[Item]:
    items: list[Item] = []

    def bad(message: str) -> NoReturn:
        _pay_error(message, as_json=as_json, amount=amount, field="item")

    for text in raw:
        shown = repr(clean(text) if len(text) <= 200 else clean(text[:200]) + "...")
        try:
            data = json.loads(text, parse_int=bounded_int)
        except AbsurdNumber as exc:
            bad(_("--item {text} holds a number of {digits} digits: no price or quantity is "
                  "that large").format(text=shown[:80] + "...", digits=f"{exc.digits:,}"))
        except (ValueError, RecursionError) as exc:
            error = exc.msg if isinstance(exc, json.JSONDecodeError) else _("unreadable")
            bad(_("--item {text} is not JSON ({error}); give an object like {example}").format(
                text=shown, error=error,
                example='{"itemid":"a1","itemname":"Tea","itemprice":20000,"itemquantity":1}'))
        for obj in data if isinstance(data, list) else [data]:
            if not isinstance(obj, dict):
                bad(_("--item {text} must be a JSON object (or a list of objects)").format(
                    text=shown))
            try:
                item = Item(itemid=str(obj["itemid"]), itemname=str(obj["itemname"]),
                            itemprice=obj["itemprice"], itemquantity=obj.get("itemquantity", 1))
            except KeyError as exc:
                bad(_("--item {text} has no {key}").format(text=shown, key=exc.args[0]))
            if (not isinstance(item.itemprice, int) or isinstance(item.itemprice, bool)
                    or not isinstance(item.itemquantity, int)
                    or isinstance(item.itemquantity, bool)):
                bad(_("--item {text}: itemprice and itemquantity must be whole numbers").format(
                    text=shown))
            items.append(item)
    return items


def _code_from_stdin(as_json: bool, amount: int) -> str:
    """The payment code from the first line of stdin (never on the command line, where every
    local user sees it in `ps`)."""
    try:
        if sys.stdin.isatty():  # typed or a keyboard-mode scanner: not echoed, not in scrollback
            import getpass

            line = getpass.getpass(_("Payment code: "))
        else:
            line = sys.stdin.readline()
    except (UnicodeDecodeError, EOFError):
        line = None
    if line is None or not line.strip():
        _pay_error(_("no payment code on stdin: pipe it in as one line of text, e.g. from the "
                     "scanner's program or `read -s CODE; printf '%s\\n' \"$CODE\" | "
                     "pos-terminal pay --amount 50000 --code-stdin`. Nothing was charged."),
                   as_json=as_json, amount=amount, field="code")
    return line.rstrip("\r\n")


def _read_scan(settings: Settings, spec: str, timeout_s: float) -> str:
    """Wait for one code from a scan source (camera, wedge, serial, ...)."""
    source = source_factory(settings, spec)()
    assert source is not None  # `wedge` is refused before
    scanner = Scanner(source)
    click.echo(_("Waiting for a payment code from {spec} (up to {seconds} s)...").format(
        spec=spec, seconds=f"{timeout_s:g}"), err=True)
    scanner.start()
    try:
        code = scanner.wait_for_code(timeout_s, keep_earlier=True)
    finally:
        scanner.stop()
    if code is None:
        raise InvalidPayment("payment code", _("No payment code was read from {spec} within "
                                               "{seconds} s. Nothing was charged.").format(
                                                   spec=spec, seconds=f"{timeout_s:g}"))
    return code.text


# ------------------------------------------------------------------ pay
WEDGE_REFUSAL = N_(
    "the keyboard wedge is read by the terminal UI, not by `pay` (a keyboard-wedge scanner types "
    "into the terminal UI): for a scanner in keyboard mode use --scanner "
    "evdev:/dev/input/eventN (see `ls /dev/input/by-id`), or give the code with --code. Nothing "
    "was charged."
)


def _contract(message: str, amount: int | None, *, state: str = "failed",
              app_trans_id: str | None = None) -> dict[str, Any]:
    """The CLI contract keys, for a result that is not (or not only) a journal row."""
    v = (verdict.Verdict.NOTHING_SENT if app_trans_id is None and state == "failed"
         else verdict.Verdict.UNKNOWN)
    return verdict.contract(message, amount, state=state, app_trans_id=app_trans_id, verdict=v)


def _pay_error(message: str, *, as_json: bool, amount: int | None, field: str | None = None,
               **extra: Any) -> NoReturn:
    """Refuse a payment before anything was charged: exit 2, and with --json one object with
    the contract keys (state "failed", no app_trans_id) plus error and field."""
    click.echo(_("error: {message}").format(message=message), err=True)
    if as_json:
        print_json({**_contract(message, amount), "error": message, "field": field, **extra})
    _exit(EXIT_USAGE)


def _refused_result(co: Counter, exc: CodeRefused, amount: int,
                    as_json: bool) -> NoReturn:
    """A code refused locally: the answer by the outcome rule (verdict.refusal_answer)."""
    click.echo(_("refused: {message}").format(message=exc.message), err=True)
    data, code, shown = verdict.refusal_answer(exc, co, amount)
    if as_json:
        print_json(data)
    elif shown is not None:
        click.echo(_payment_line(shown))
    elif code == EXIT_UNRESOLVED:
        click.echo(_("PROCESSING  {amount}  (payment being prepared)").format(
            amount=_money(amount)) + f"\n  {data['message']}")
    else:
        click.echo(_("FAILED  {amount}  not sent (refused: {reason}, payment "
                     "{app_trans_id})").format(amount=_money(amount), reason=exc.reason,
                                               app_trans_id=exc.app_trans_id)
                   + f"\n  {data['message']}")
    _exit(code)


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
        _pay_error(exc.message, as_json=as_json, amount=None, field=exc.field)
    if code_stdin and code is not None:
        _pay_error(_("give the payment code once: --code-stdin or --code, not both. Nothing "
                     "was charged."), as_json=as_json, amount=amount, field="code")
    if code_stdin:
        code = "-"
    if (code is None) == (scanner_spec is None):
        _pay_error(_("give exactly one of --code-stdin (the code on stdin) or --scanner SPEC"),
                   as_json=as_json, amount=amount, field="code")
    if code == "-":
        code = _code_from_stdin(as_json, amount)
    if scanner_spec is not None and scanner_spec.strip().partition(":")[0].lower() == "wedge":
        _pay_error(_(WEDGE_REFUSAL), as_json=as_json, amount=amount, field="scanner")
    if code is not None:
        try:
            check_code(code)
            check_code_format(code, settings.scanner, field="--code")
        except InvalidPayment as exc:
            _pay_error(exc.message, as_json=as_json, amount=amount, field="code")
    item_list = _parse_items(items, as_json, amount)
    if cashier_id is not None:
        try:
            signed_cashier(settings, cashier_id, PinReader(True) if pin_stdin else None)
        except CashierError as exc:
            _pay_error(exc.message + " " + _("Nothing was charged."), as_json=as_json,
                       amount=amount,
                       field="cashier")
    elif pin_stdin:
        _pay_error(_("--pin-stdin checks the PIN of --cashier ID: give --cashier too. Nothing "
                     "was charged."), as_json=as_json, amount=amount, field="cashier")
    try:
        check_description(description, label="--description")
        check_items(item_list, amount, items_label="The --item values",
                    amount_label="--amount")
    except InvalidPayment as exc:
        field = "item" if exc.field == "items" else exc.field
        _pay_error(exc.message, as_json=as_json, amount=amount, field=field)
    if scanner_spec is not None:
        from pos_terminal.cli.ui_cmds import scanner_unusable
        from pos_terminal.counter import missing_device

        problem = missing_device(scanner_spec)
        if problem is not None:
            _pay_error(scanner_unusable(scanner_spec, problem), as_json=as_json, amount=amount,
                       field="scanner")
        try:
            code = _read_scan(settings, scanner_spec, scan_timeout)
        except InvalidPayment as exc:
            _pay_error(exc.message, as_json=as_json, amount=amount, field=exc.field)
        except (ValueError, OSError) as exc:
            _pay_error(_("the scanner {spec} cannot be used: {error}").format(
                spec=repr(scanner_spec), error=exc), as_json=as_json,
                       amount=amount, field="scanner")
    assert code is not None
    with stop_on_signals() as stop, _checkout(settings, as_json, pay=True, amount=amount,
                                              subject=lambda _c, exc: intent_of(exc)) as co:
        _show_progress(co, as_json)
        try:
            view = co.pay(amount, code, description=description, items=item_list,
                          deadline_s=deadline_s, cancel=stop.event, stop=stop.event,
                          cashier_id=cashier_id)
        except Stopped as exc:
            _pay_error(exc.message, as_json=as_json, amount=amount, signal=stop.name)
        except (InvalidPayment, FieldError) as exc:
            _pay_error(exc.message, as_json=as_json, amount=amount, field=exc.field)
        except CodeRefused as exc:
            _refused_result(co, exc, amount, as_json)
        except AnswerNotRecorded as exc:
            # The charge left, its answer is not journaled: unresolved, never charge again.
            click.echo(f"error: {exc.message}", err=True)
            if as_json:
                print_json({**_contract(exc.message, amount, state=S.UNKNOWN.value,
                                        app_trans_id=exc.app_trans_id),
                            "error": exc.message, "reason": exc.reason})
            _exit(EXIT_UNRESOLVED)
        except (JournalError, WalletError, CheckoutError) as exc:
            intent = intent_of(exc)
            if intent is not None:  # after the intent: never "nothing was sent"
                _unexpected(co, exc, as_json=as_json, kind="pay", subject=intent, amount=amount)
            _pay_error(exc.message, as_json=as_json, amount=amount,
                       **({"reason": getattr(exc, "reason", "journal")}
                          if isinstance(exc, JournalError) else {}))
        if verdict.of_payment(view) is verdict.Verdict.UNKNOWN:  # exit 3: the cashier gives up
            view = co.abandon(view.app_trans_id, cashier_id=cashier_id)
    _answer_payment(view, as_json, stop)


def _answer_payment(view: PaymentView, as_json: bool, stop: SignalStop | None = None) -> NoReturn:
    extra: dict[str, Any] = {}
    if stop is not None and stop.name:
        extra["signal"] = stop.name
    if as_json:
        print_json(verdict.payment_answer(view, **extra))
    else:
        click.echo(_payment_line(view))
    _exit(verdict.payment_exit(view))


# ------------------------------------------------------------------ status, reconcile
@click.command("status")
@click.argument("app_trans_id")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")
@click.pass_context
def status_cmd(ctx: click.Context, app_trans_id: str, as_json: bool) -> None:
    """Show a payment; an unresolved one is asked about once first. Exit as for pay."""
    settings = load_settings_or_exit(ctx)
    with stop_on_signals() as stop, _checkout(settings, as_json, kind="status",
                                              subject=lambda _c, _e: app_trans_id) as co:
        try:
            view = co.status(app_trans_id)
        except UnknownPayment as exc:
            _error(exc.message, as_json=as_json)
        except JournalError as exc:
            _error(exc.message, as_json=as_json)
    _answer_payment(view, as_json, stop)


@click.command("reconcile")
@click.option("--wait", "wait_s", type=click.FloatRange(min=0), default=0.0, show_default=True,
              help="Keep checking unresolved payments for up to this many seconds.")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")
@click.pass_context
def reconcile_cmd(ctx: click.Context, wait_s: float, as_json: bool) -> None:
    """Resolve every unresolved payment and refund by status queries (never by paying again).

    Exit 0 when nothing is left open, 3 when some are still open or need review.
    """
    settings = load_settings_or_exit(ctx)
    with stop_on_signals() as stop, _checkout(settings, as_json, kind="reconcile") as co:
        try:
            report = co.reconcile(wait_s=wait_s, cancel=stop.event)
        except JournalError as exc:
            _error(exc.message, as_json=as_json)
    open_left = report.still_open + (report.refunds_checked - report.refunds_resolved)
    if as_json:
        data = report.to_json()
        data["exit_code"] = EXIT_UNRESOLVED if open_left or report.flagged else EXIT_OK
        if stop.name:
            data["signal"] = stop.name
        print_json(data)
    else:
        click.echo(_("checked {checked} payments: {resolved} resolved, {still_open} still "
                     "open, {flagged} need review; {refunds_checked} refunds checked, "
                     "{refunds_resolved} resolved ({requests} requests)").format(
            checked=report.checked, resolved=report.resolved, still_open=report.still_open,
            flagged=report.flagged, refunds_checked=report.refunds_checked,
            refunds_resolved=report.refunds_resolved, requests=report.requests))
        for view in report.payments:
            click.echo(_payment_line(view))
        for refund in report.refunds:
            click.echo(_refund_line(refund))
    _exit(EXIT_UNRESOLVED if open_left or report.flagged else EXIT_OK)


# ------------------------------------------------------------------ refund, override
@click.command("refund")
@click.argument("app_trans_id")
@click.option("--amount", "amount_text", default=None, metavar="N",
              help="VND to refund (default: everything that is left).")
@click.option("--description", default="", help="Reason shown on the refund.")
@click.option("--cashier", "cashier_id", default=None, metavar="ID",
              help="The cashier who asks for the refund (reports count it for them; default: "
                   "the cashier who took the payment).")
@supervisor_option
@pin_stdin_option
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")
@click.pass_context
def refund_cmd(ctx: click.Context, app_trans_id: str, amount_text: str | None,
               description: str, cashier_id: str | None, supervisor_id: str | None,
               pin_stdin: bool, as_json: bool) -> None:
    """Refund a succeeded payment, in full or in part. Exit 0 refunded, 1 failed, 3 in progress.

    Once a supervisor is set up, a supervisor's PIN authorises it (--supervisor ID). The refund
    is journaled with who asked (--cashier) and who authorised it."""
    settings = load_settings_or_exit(ctx)
    amount: int | None = None
    if amount_text is not None:
        try:
            amount = parse_amount(amount_text, settings.checkout)
        except InvalidPayment as exc:
            _error(exc.message.replace(_("The amount"), _("The refund amount"), 1),
                   as_json=as_json,
                   field="amount")
    if cashier_id is not None:
        try:
            signed_cashier(settings, cashier_id, None)
        except CashierError as exc:
            _error(exc.message + " " + _("Nothing was sent."), as_json=as_json, field="cashier")
    authorised_by = authorise(settings, action=N_("refund"), supervisor_id=supervisor_id,
                              pins=PinReader(pin_stdin), as_json=as_json)
    with stop_on_signals() as stop, _checkout(settings, as_json, kind="refund",
                                              subject=lambda _c, exc: refund_of(exc)) as co:
        try:
            view = co.refund(app_trans_id, amount, description, cancel=stop.event,
                             cashier_id=cashier_id, authorised_by=authorised_by)
        except (UnknownPayment, RefundNotAllowed) as exc:
            _error(exc.message, as_json=as_json)
        except (FieldError, InvalidPayment) as exc:
            _error(exc.message, as_json=as_json, field=exc.field)
        except (JournalError, WalletError) as exc:
            if refund_of(exc) is not None:  # after the refund's intent: answer with it
                _unexpected(co, exc, as_json=as_json, kind="refund", subject=refund_of(exc),
                            amount=None)
            _error(exc.message, as_json=as_json)
    if as_json:
        print_json(verdict.refund_answer(view, **({"signal": stop.name} if stop.name else {})))
    else:
        click.echo(_refund_line(view))
    _exit(verdict.refund_exit(view))


@click.command("override")
@click.argument("app_trans_id")
@click.option("--mark", type=click.Choice(["paid", "failed"]), required=True,
              help="What you found in the merchant portal.")
@click.option("--reason", required=True, help="What you checked, and where.")
@click.option("--who", default=None,
              help="Who decides (default: the authorising supervisor, else the app_user).")
@supervisor_option
@pin_stdin_option
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")
@click.pass_context
def override_cmd(ctx: click.Context, app_trans_id: str, mark: str, reason: str,
                 who: str | None, supervisor_id: str | None, pin_stdin: bool,
                 as_json: bool) -> None:
    """Settle an unresolved payment by hand, as an explicit journaled event with its reason.

    Once a supervisor is set up, a supervisor's PIN authorises it (--supervisor ID)."""
    settings = load_settings_or_exit(ctx)
    target = S.SUCCEEDED if mark == "paid" else S.FAILED
    authorised_by = authorise(settings, action=N_("override a payment"),
                              supervisor_id=supervisor_id, pins=PinReader(pin_stdin),
                              as_json=as_json)
    with _checkout(settings, as_json) as co:
        try:
            view = co.override(app_trans_id, target, reason,
                               who or authorised_by or settings.terminal.app_user,
                               cashier_id=authorised_by)
        except (UnknownPayment, IllegalTransition) as exc:
            _error(exc.message, as_json=as_json)
        except JournalError as exc:
            _error(exc.message, as_json=as_json)
    if as_json:
        print_json(view.to_json())
    else:
        click.echo(_payment_line(view))
    _exit(verdict.state_exit(view.state))


# ------------------------------------------------------------------ journal
T = TypeVar("T")


def _day_start_ms(text: str, option: str, as_json: bool) -> int:
    try:
        day = datetime.strptime(text, "%Y-%m-%d").replace(tzinfo=VN_TZ)
    except ValueError:
        _error(_("{option} {text} is not a date like 2026-11-21 (Vietnam time)").format(
                   option=option, text=repr(text)),
               as_json=as_json)
    return int(day.timestamp() * 1000)


def _filters(since: str | None, until: str | None, states: tuple[str, ...],
             as_json: bool) -> dict[str, Any]:
    since_ms = None if since is None else _day_start_ms(since, "--from", as_json)
    until_start = None if until is None else _day_start_ms(until, "--to", as_json)
    if since_ms is not None and until_start is not None and since_ms > until_start:
        _error(_("--from {since} is after --to {until}: no day could match. Give --from on or "
                 "before --to.").format(since=since, until=until), as_json=as_json, field="from")
    return {
        "since_ms": since_ms,
        "until_ms": None if until_start is None
        else until_start + int(timedelta(days=1).total_seconds() * 1000),
        "states": [S(s) for s in states] or None,
    }


_filter_options = [
    click.option("--from", "--since", "since", default=None, metavar="YYYY-MM-DD",
                 help="First day (Vietnam time)."),
    click.option("--to", "--until", "until", default=None, metavar="YYYY-MM-DD",
                 help="Last day, included (Vietnam time)."),
    click.option("--state", "states", multiple=True, type=click.Choice(STATE_NAMES),
                 help="Only these states; repeatable."),
]


def _with_filters(f: Callable[..., Any]) -> Callable[..., Any]:
    for option in reversed(_filter_options):
        f = option(f)
    return f


@click.group("journal")
def journal_group() -> None:
    """Read the payment journal: list, show, export."""


def _read_first(rows: Iterator[T]) -> Iterator[T]:
    """`rows` with its first batch read before any output: a journal that cannot be read is
    then one sentence (one JSON object with --json), not half a listing."""
    first = next(rows, None)
    return itertools.chain(() if first is None else (first,), rows)


@journal_group.command("list")
@_with_filters
@click.option("--limit", type=click.IntRange(min=1), default=None,
              help="At most this many (newest first); the last line tells how to go on.")
@click.option("--cursor", default=None, metavar="APP_TRANS_ID",
              help="Go on after this payment (the cursor a page with --limit ends with).")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")
@click.pass_context
def journal_list(ctx: click.Context, since: str | None, until: str | None,
                 states: tuple[str, ...], limit: int | None, cursor: str | None,
                 as_json: bool) -> None:
    """List payments, newest first: today's (Vietnam time) unless --from/--to say which days."""
    settings = load_settings_or_exit(ctx)
    filters = _filters(since, until, states, as_json)
    if since is None and until is None:
        filters["since_ms"], filters["until_ms"] = day_bounds_ms(today())
    with _journal(settings, as_json) as journal:
        try:
            rows = journal.iter_payments(**filters, limit=limit, newest_first=True,
                                         after=cursor)
        except UnknownPayment:
            _error(_("--cursor {cursor} is not a payment in this journal: give the cursor the "
                     "previous page ended with.").format(cursor=repr(cursor)),
                   as_json=as_json, field="cursor")
        rows = _read_first(rows)
        last: list[str] = []

        def seen(views: Iterator[PaymentView]) -> Iterator[PaymentView]:
            for view in views:
                last[:] = [view.app_trans_id]
                yield view

        if as_json:
            write_json_list("payments", (r.to_json() for r in seen(rows)), sys.stdout,
                            lambda n: {"count": n,
                                       "next_cursor": last[0] if last and n == limit else None})
            return
        count = 0
        for r in seen(rows):
            count += 1
            flag = " " + _("REVIEW") if r.needs_review else ""
            refunded = (" (" + _("refunded {amount}").format(
                amount=_money(r.refunded_amount)) + ")" if r.refunded_amount else "")
            click.echo(f"{format_stamp(r.created_ms)}  {r.app_trans_id:<32} "
                       f"{verdict.state_label(r.state.value):<10} "
                       f"{_money(r.amount):>15}{refunded}{flag}")
    if not count:
        click.echo(_("no payments"))
    elif count == limit:
        click.echo(_("more: add --cursor {cursor} for the next page").format(cursor=last[0]),
                   err=True)


@journal_group.command("show")
@click.argument("app_trans_id")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")
@click.pass_context
def journal_show(ctx: click.Context, app_trans_id: str, as_json: bool) -> None:
    """One payment with its full history of events and its refunds."""
    settings = load_settings_or_exit(ctx)
    with _journal(settings, as_json) as journal:
        try:
            view = journal.get(app_trans_id)
        except UnknownPayment as exc:
            _error(exc.message, as_json=as_json)
        events = journal.events(app_trans_id)
        refunds = journal.refunds(app_trans_id)
    if as_json:
        data = view.to_json()
        data["events"] = [e.to_json() for e in events]
        data["refunds"] = [r.to_json() for r in refunds]
        print_json(data)
        return
    click.echo(_payment_line(view))
    if view.code_last4:
        click.echo("  " + _("code {code}  created {time}").format(
            code=mask_last4(view.code_last4), time=format_stamp(view.created_ms)))
    for e in events:
        extra = f"  [{e.return_code}]" if e.return_code is not None else ""
        why = ("  " + _("reason: {reason} (by {who})").format(
            reason=clean(e.reason), who=clean(e.who or "")) if e.reason else "")
        subject = " " + _("refund {m_refund_id}").format(
            m_refund_id=e.m_refund_id) if e.m_refund_id else ""
        click.echo(f"  {format_stamp(e.time_ms)}{subject} {e.from_state} -> {e.to_state}{extra}  "
                   f"{clean(e.message or '')}{why}")
    for r in refunds:
        click.echo(_refund_line(r))


@journal_group.command("export")
@click.option("--format", "fmt", type=click.Choice(["csv", "json"]), default="csv",
              show_default=True)
@click.option("--what", type=click.Choice(["payments", "refunds"]), default="payments",
              show_default=True,
              help="Payments (filtered by their day and state) or refunds (by theirs).")
@click.option("--output", "-o", type=click.Path(dir_okay=False, path_type=Path), default=None,
              help="Write to this file instead of stdout.")
@_with_filters
@click.pass_context
def journal_export(ctx: click.Context, fmt: str, what: str, output: Path | None,
                   since: str | None, until: str | None, states: tuple[str, ...]) -> None:
    """Export payments (CSV: one line each; JSON: with events and refunds) or refunds (one line
    each, marked when automatic), oldest first."""
    settings = load_settings_or_exit(ctx)
    filters = _filters(since, until, states, False)
    if output is not None:
        _check_export_target(output, settings.terminal.journal)
    with _journal(settings, False) as journal:
        rows: Iterator[Any] = _read_first(
            journal.iter_payments(**filters) if what == "payments"
            else journal.iter_refunds(**filters))

        def write(out: TextIO) -> int:
            if what == "refunds":
                return (write_refunds_csv if fmt == "csv" else write_refunds_json)(rows, out)
            if fmt == "csv":
                return write_csv(rows, out)
            return write_json(journal, rows, out)

        try:
            if output is None:
                write(sys.stdout)
                return
            try:
                with open_private(output, encoding="utf-8", newline="") as out_file:
                    count = write(out_file)
            except OSError as exc:
                _error(_("cannot write the export {file}: {error}. Nothing was changed in the "
                         "journal; choose another --output (a folder you can write, with free "
                         "space).").format(file=output, error=exc.strerror or exc),
                       as_json=False)
        except JournalError as exc:
            _error(exc.message, as_json=False)
    done = (_("exported {count} refunds to {file}") if what == "refunds"
            else _("exported {count} payments to {file}"))
    click.echo(done.format(count=count, file=output), err=True)


#: The journal's own files: SQLite's write-ahead log, its index, its rollback journal.
JOURNAL_SIDE_FILES = ("", "-wal", "-shm", "-journal")


def _check_export_target(output: Path, journal: Path) -> None:
    """Refuse an export that would overwrite the journal or one of its side files (also
    through a symlink or a hard link), or that goes to a folder that does not exist."""
    target = output.expanduser()
    resolved = target.resolve()
    protected = [Path(f"{journal}{suffix}") for suffix in JOURNAL_SIDE_FILES]
    for path in protected:
        same = resolved == path.resolve()
        if not same and target.exists() and path.exists():
            try:
                same = target.samefile(path)
            except OSError:
                same = False
        if same:
            _error(_("--output {output} is the payment journal's own file {path}: the export "
                     "would destroy the journal. Nothing was written; choose another file, e.g. "
                     "--output payments.csv.").format(output=output, path=path), as_json=False,
                   field="output")
    if not resolved.parent.is_dir():
        _error(_("--output {output}: the folder {folder} does not exist. Nothing was written; "
                 "create the folder first or choose another --output.").format(
                     output=output, folder=resolved.parent), as_json=False, field="output")
    if resolved.is_dir():
        _error(_("--output {output} is a folder: give a file name, e.g. --output "
                 "{output}/payments.csv. Nothing was written.").format(output=output),
               as_json=False, field="output")


# ------------------------------------------------------------------ reports
@click.group("report")
def report_group() -> None:
    """X report (running totals) and Z report (closes the day)."""


_by_option = click.option(
    "--by", type=click.Choice(["cashier", "shift"]), default=None,
    help="Also the totals of each cashier, or of each shift (sign-in to sign-out).")


def _show_report(report: Any, groups: list[Any] | None, as_json: bool) -> None:
    if as_json:
        data = report.to_json()
        if groups is not None:
            data["groups"] = [g.to_json() for g in groups]
        print_json(data)
        return
    click.echo("\n".join(report_lines(report)))
    for group in groups or ():
        click.echo("\n".join(group_lines(group)))
    if groups == []:
        click.echo("  " + _("(no cashier or shift recorded)"))


@report_group.command("x")
@_by_option
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")
@click.pass_context
def report_x(ctx: click.Context, by: str | None, as_json: bool) -> None:
    """Running totals of the open day; changes nothing."""
    settings = load_settings_or_exit(ctx)
    with _journal(settings, as_json) as journal:
        report = journal.x_report()
        groups = None if by is None else journal.grouped_report(by)
    _show_report(report, groups, as_json)


@report_group.command("z")
@click.option("--show", "number", type=click.IntRange(min=1), default=None,
              help="Print the stored Z report with this number instead of closing the day.")
@_by_option
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")
@click.pass_context
def report_z(ctx: click.Context, number: int | None, by: str | None, as_json: bool) -> None:
    """Close the day: a numbered Z report, immutable afterwards."""
    settings = load_settings_or_exit(ctx)
    with _journal(settings, as_json) as journal:
        try:
            report = (journal.close_day(ledger=has_ledger(settings)) if number is None
                      else journal.z_report(number))
            groups = None if by is None else journal.grouped_report(by, report.number)
        except LookupError as exc:
            _error(str(exc), as_json=as_json)
        except JournalError as exc:
            _error(exc.message, as_json=as_json)
    _show_report(report, groups, as_json)


def register(group: click.Group) -> None:
    for command in (pay_cmd, status_cmd, reconcile_cmd, refund_cmd, override_cmd, journal_group,
                    report_group):
        group.add_command(command)
