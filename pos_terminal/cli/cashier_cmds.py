"""Cashiers, shifts and receipts: `cashier add|list|remove|unlock|set-pin|events`,
`shift open|close|list`, `receipt ID`; and the supervisor authorisation that `refund` and
`override` ask for.

PINs come from stdin with --pin-stdin (one per line, for scripts) or are asked for without
echo. They are never printed, logged or journaled (the journal keeps salted scrypt hashes).
"""

from __future__ import annotations

import getpass
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import NoReturn

import click

from pos_terminal.base.clock import format_stamp
from pos_terminal.base.files import open_private
from pos_terminal.base.i18n import N_, _
from pos_terminal.base.reasons import render
from pos_terminal.cli.common import (
    EXIT_UNREACHABLE,
    EXIT_USAGE,
    load_settings_or_exit,
    print_json,
)
from pos_terminal.config import Settings
from pos_terminal.counter.admin import (
    Cashier,
    CashierError,
    Cashiers,
    Journal,
    check_cashier_name,
    check_pin_format,
)
from pos_terminal.counter.cashiers import supervisor_authority
from pos_terminal.counter.receipts import printer_reason
from pos_terminal.counter.types import JournalError
from pos_terminal.sentences.labels import cashier_event
from pos_terminal.text_safety import clean

ROLES = (N_("cashier"), N_("supervisor"))  # journaled in English, shown translated
EXIT_PRINTER = EXIT_UNREACHABLE  # the printer could not be reached


def _fail(message: str, *, as_json: bool = False, code: int = EXIT_USAGE) -> NoReturn:
    click.echo(_("error: {message}").format(message=message), err=True)
    if as_json:
        print_json({"error": message})
    raise click.exceptions.Exit(code)


@contextmanager
def open_cashiers(settings: Settings, as_json: bool = False) -> Iterator[Cashiers]:
    try:
        journal = Journal.open(settings.terminal.journal, private=settings.private_files,
                               busy_timeout_s=settings.terminal.journal_wait_s)
    except JournalError as exc:
        _fail(exc.message, as_json=as_json)
    try:
        yield Cashiers(journal, max_attempts=settings.cashiers.max_attempts,
                       lockout_s=settings.cashiers.lockout_s)
    finally:
        journal.close()


@contextmanager
def _changing(settings: Settings) -> Iterator[Cashiers]:
    """The cashier book for one change; a change it refuses stops the command with its
    sentence."""
    with open_cashiers(settings) as book:
        try:
            yield book
        except CashierError as exc:
            _fail(exc.message)


class PinReader:
    """PINs from stdin (one line each, in the order asked) or typed without echo."""

    def __init__(self, from_stdin: bool) -> None:
        self.from_stdin = from_stdin

    def read(self, prompt: str, *, confirm: bool = False) -> str:
        if self.from_stdin:
            try:
                line = sys.stdin.readline()
            except UnicodeDecodeError:  # never repeat what was read: it may be most of a PIN
                _fail(_("--pin-stdin: the line for {what} is not UTF-8 text; a PIN is 4 to 8 "
                        "digits").format(what=prompt.rstrip(": ").lower()))
            if not line:
                _fail(_("--pin-stdin: no line on stdin for {what}").format(
                    what=prompt.rstrip(": ").lower()))
            return line.rstrip("\r\n")
        if not sys.stdin.isatty():
            _fail(_("{what} is needed: give it on stdin with --pin-stdin, or run this in a "
                    "terminal to type it").format(what=prompt.rstrip(": ")))
        pin = getpass.getpass(prompt)
        if confirm and getpass.getpass(_("Again: ")) != pin:
            _fail(_("the two PINs differ; nothing changed"))
        return pin


def authorise(settings: Settings, *, action: str, supervisor_id: str | None, pins: PinReader,
              as_json: bool = False, warn: bool = True) -> str | None:
    """The supervisor who authorises `action` (their id), after checking their PIN.

    With no supervisor set up at all, anyone may (today's behaviour, so that existing shops are
    not locked out): a one-line warning says so (not with `warn` False: adding the first
    supervisor is what it would advise) and None is returned. Refusals exit 2 before anything
    is sent."""
    with open_cashiers(settings, as_json) as book:
        if not book.any_supervisor():
            if warn:
                click.echo(_("warning: no supervisor is set up, so anyone can {action}; add "
                             "one with `pos-terminal cashier add ID --name NAME --supervisor`"
                             ).format(action=_(action)), err=True)
            return None
        if supervisor_id is None:
            _fail(_("to {action} a supervisor must authorise: add {option} ID and the "
                    "supervisor's PIN (typed when asked, or on stdin with --pin-stdin). Nothing "
                    "was sent.").format(action=_(action), option=_supervisor_option()),
                  as_json=as_json)
        pin = pins.read(_("Supervisor PIN: "))
        try:
            return supervisor_authority(book, supervisor_id, pin)
        except CashierError as exc:
            nothing = _("Nothing was sent.")
            _fail(exc.message if exc.message.endswith(nothing) else f"{exc.message} {nothing}",
                  as_json=as_json)


def _supervisor_option() -> str:
    """The option of the command running that names the supervisor (`--supervisor`, or `--by`
    where `--supervisor` says the new cashier is one): a hint names the option that exists."""
    context = click.get_current_context(silent=True)
    if context is not None:
        for param in context.command.params:
            if param.name == "supervisor_id" and param.opts:
                return str(param.opts[0])
    return "--supervisor"


def signed_cashier(settings: Settings, cashier_id: str, pins: PinReader | None) -> Cashier:
    """The cashier taking a payment: must exist and be active; with `pins`, the PIN is
    checked. Raises CashierError (the caller refuses: nothing is charged)."""
    with open_cashiers(settings) as book:
        if pins is not None:
            return book.verify_pin(cashier_id, pins.read("Cashier PIN: "))
        cashier = book.get(cashier_id)
        if not cashier.active:
            raise CashierError(f"Cashier {cashier_id!r} ({cashier.name}) was removed.")
        return cashier


supervisor_option = click.option(
    "--supervisor", "supervisor_id", default=None, metavar="ID",
    help="The supervisor who authorises (needed once a supervisor is set up).")
pin_stdin_option = click.option(
    "--pin-stdin", is_flag=True,
    help="Read PINs from stdin, one line each (supervisor's first), instead of asking.")


# ------------------------------------------------------------------ cashier
@click.group("cashier")
def cashier_group() -> None:
    """Cashiers and supervisors: add, list, remove, unlock, set-pin, events."""


def _guard(settings: Settings, action: str, supervisor_id: str | None,
           pins: PinReader, *, warn: bool = True) -> str | None:
    """Changing the cashier book needs a supervisor once one exists (their id; None when no
    supervisor is set up)."""
    return authorise(settings, action=action, supervisor_id=supervisor_id, pins=pins,
                     warn=warn)


@cashier_group.command("add")
@click.argument("cashier_id", metavar="ID")
@click.option("--name", required=True, help="The name printed on receipts.")
@click.option("--supervisor", "is_supervisor", is_flag=True,
              help="A supervisor (authorises refunds and overrides).")
@click.option("--by", "supervisor_id", default=None, metavar="ID",
              help="The supervisor who authorises (needed once a supervisor is set up).")
@pin_stdin_option
@click.pass_context
def cashier_add(ctx: click.Context, cashier_id: str, name: str, is_supervisor: bool,
                supervisor_id: str | None, pin_stdin: bool) -> None:
    """Add a cashier with a PIN of 4 to 8 digits (asked twice, or on stdin)."""
    settings = load_settings_or_exit(ctx)
    try:
        check_cashier_name(name)  # before any PIN is asked for
    except CashierError as exc:
        _fail(exc.message)
    pins = PinReader(pin_stdin)
    # the first supervisor is added without the warning that advises adding one
    _guard(settings, N_("add a cashier"), supervisor_id, pins, warn=not is_supervisor)
    pin = pins.read(_("PIN for {cashier_id}: ").format(cashier_id=cashier_id), confirm=True)
    try:
        check_pin_format(pin)
    except CashierError as exc:
        _fail(exc.message + " " + _("Nothing changed."))
    with _changing(settings) as book:
        cashier = book.add(cashier_id, name, pin, supervisor=is_supervisor)
    click.echo(_("added {role} {cashier_id} ({name})").format(
        role=_(cashier.role), cashier_id=cashier.id, name=cashier.name))


@cashier_group.command("list")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")
@click.pass_context
def cashier_list(ctx: click.Context, as_json: bool) -> None:
    """Every cashier, removed ones too (never the PIN hashes)."""
    settings = load_settings_or_exit(ctx)
    with open_cashiers(settings, as_json) as book:
        rows = book.all()
    if as_json:
        print_json({"cashiers": [c.to_json() for c in rows], "count": len(rows)})
        return
    if not rows:
        click.echo(_("no cashiers (anyone can refund and override until a supervisor is "
                     "added)"))
    for c in rows:
        state = (_("removed {time}").format(time=format_stamp(c.removed_ms)) if c.removed_ms else
                 _("locked until {time}").format(time=format_stamp(c.locked_until_ms))
                 if c.locked_until_ms else _("active"))
        # A name an older version let in with control characters is shown without them.
        click.echo(f"{clean(c.id):<16} {_(c.role):<10} {state:<30} {clean(c.name)}")


@cashier_group.command("remove")
@click.argument("cashier_id", metavar="ID")
@supervisor_option
@pin_stdin_option
@click.pass_context
def cashier_remove(ctx: click.Context, cashier_id: str, supervisor_id: str | None,
                   pin_stdin: bool) -> None:
    """Remove a cashier (they can no longer sign in; history keeps their name)."""
    settings = load_settings_or_exit(ctx)
    _guard(settings, N_("remove a cashier"), supervisor_id, PinReader(pin_stdin))
    with _changing(settings) as book:
        cashier = book.remove(cashier_id)
    click.echo(_("removed {cashier_id} ({name})").format(cashier_id=cashier.id,
                                                         name=cashier.name))


@cashier_group.command("unlock")
@click.argument("cashier_id", metavar="ID")
@supervisor_option
@pin_stdin_option
@click.pass_context
def cashier_unlock(ctx: click.Context, cashier_id: str, supervisor_id: str | None,
                   pin_stdin: bool) -> None:
    """Unlock a cashier locked after too many wrong PINs."""
    settings = load_settings_or_exit(ctx)
    by = _guard(settings, N_("unlock a cashier"), supervisor_id, PinReader(pin_stdin))
    with _changing(settings) as book:
        cashier = book.unlock(cashier_id, by=by)
    click.echo(_("unlocked {cashier_id} ({name})").format(cashier_id=cashier.id,
                                                          name=cashier.name))


@cashier_group.command("set-pin")
@click.argument("cashier_id", metavar="ID")
@supervisor_option
@pin_stdin_option
@click.pass_context
def cashier_set_pin(ctx: click.Context, cashier_id: str, supervisor_id: str | None,
                    pin_stdin: bool) -> None:
    """Give a cashier a new PIN (asked twice, or on stdin after the supervisor's); it also
    clears a lock. Journaled as `pin_changed` with the supervisor, never the PIN."""
    settings = load_settings_or_exit(ctx)
    pins = PinReader(pin_stdin)
    by = _guard(settings, N_("set a new PIN"), supervisor_id, pins)
    pin = pins.read(_("New PIN for {cashier_id}: ").format(cashier_id=cashier_id), confirm=True)
    try:
        check_pin_format(pin)
    except CashierError as exc:
        _fail(exc.message + " " + _("Nothing changed."))
    with _changing(settings) as book:
        cashier = book.set_pin(cashier_id, pin, by=by)
    click.echo(_("{cashier_id} ({name}) has a new PIN").format(cashier_id=cashier.id,
                                                               name=cashier.name))


@cashier_group.command("events")
@click.argument("cashier_id", metavar="ID")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")
@click.pass_context
def cashier_events(ctx: click.Context, cashier_id: str, as_json: bool) -> None:
    """What happened to one cashier, oldest first: added, sign-ins, wrong PINs, locks,
    unlocks, new PINs, shifts (Vietnam time; never a PIN)."""
    settings = load_settings_or_exit(ctx)
    with open_cashiers(settings, as_json) as book:
        try:
            book.get(cashier_id)
        except CashierError as exc:
            _fail(exc.message, as_json=as_json)
        rows = book.events(cashier_id)
    if as_json:
        print_json({"cashier_id": cashier_id, "count": len(rows), "events": [
            {"time_ms": t, "kind": kind, "detail": detail} for t, kind, detail in rows]})
        return
    for t, kind, detail in rows:
        click.echo(f"{format_stamp(t)}  {clean(cashier_event(kind, detail))}")


# ------------------------------------------------------------------ shift
@click.group("shift")
def shift_group() -> None:
    """Shifts: a cashier signs in (open) and out (close); reports can be per shift."""


@shift_group.command("open")
@click.argument("cashier_id", metavar="ID")
@pin_stdin_option
@click.pass_context
def shift_open(ctx: click.Context, cashier_id: str, pin_stdin: bool) -> None:
    """Sign a cashier in (their PIN) and open their shift."""
    settings = load_settings_or_exit(ctx)
    with _changing(settings) as book:
        pin = PinReader(pin_stdin).read(_("PIN: "))
        book.verify_pin(cashier_id, pin)
        shift = book.open_shift(cashier_id)
    click.echo(_("shift {shift} open for {cashier_id} since {time}").format(
        shift=shift.id, cashier_id=cashier_id, time=format_stamp(shift.opened_ms)))


@shift_group.command("close")
@click.argument("cashier_id", metavar="ID")
@click.pass_context
def shift_close(ctx: click.Context, cashier_id: str) -> None:
    """Sign a cashier out: close their open shift."""
    settings = load_settings_or_exit(ctx)
    with _changing(settings) as book:
        shift = book.close_shift(cashier_id)
    click.echo(_("shift {shift} of {cashier_id} closed: {start} to {end}").format(
        shift=shift.id, cashier_id=cashier_id, start=format_stamp(shift.opened_ms),
        end=format_stamp(shift.closed_ms)))


@shift_group.command("list")
@click.option("--limit", type=click.IntRange(min=1), default=None)
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")
@click.pass_context
def shift_list(ctx: click.Context, limit: int | None, as_json: bool) -> None:
    """Shifts, newest first."""
    settings = load_settings_or_exit(ctx)
    with open_cashiers(settings, as_json) as book:
        rows = book.shifts(limit=limit)
    if as_json:
        print_json({"shifts": [s.to_json() for s in rows], "count": len(rows)})
        return
    if not rows:
        click.echo(_("no shifts"))
    for s in rows:
        until = format_stamp(s.closed_ms) if s.closed_ms else _("open")
        click.echo(f"{s.id:>5}  {s.cashier_id:<16} {format_stamp(s.opened_ms)}  {until}")


# ------------------------------------------------------------------ receipt
@click.command("receipt")
@click.argument("subject_id", metavar="ID")
@click.option("--format", "fmt", type=click.Choice(["text", "escpos"]), default="text",
              show_default=True)
@click.option("--output", "-o", type=click.Path(dir_okay=False, path_type=Path), default=None,
              help="Write to this file instead of stdout.")
@click.option("--print", "to_printer", is_flag=True,
              help="Print on the configured printer ([printer] target); journaled, and every "
                   "print after the first carries the reprint mark.")
@click.option("--lang", type=click.Choice(["en", "vi"]), default=None,
              help="Language of the receipt's labels (default: [terminal] language, the "
                   "shop's).")
@click.pass_context
def receipt_cmd(ctx: click.Context, subject_id: str, fmt: str, output: Path | None,
                to_printer: bool, lang: str | None) -> None:
    """The receipt of a paid payment (app_trans_id) or a refund (m_refund_id).

    Text to stdout by default; --format escpos writes the printer's bytes (to --output, or to
    stdout when it is not a terminal). Exit 2 for an unknown id or a payment that did not
    settle, 4 when the printer cannot be reached.
    """
    from hardware.printers import PrinterError, PrinterSpecError
    from pos_terminal.receipts import LABELS, NoReceipt, ReceiptFontMissing
    from pos_terminal.receipts.service import (
        UnknownReceipt,
        build_receipt,
        print_receipt,
        receipt_bytes,
    )

    settings = load_settings_or_exit(ctx)
    labels = LABELS[lang or settings.terminal.language]
    if to_printer and not settings.printer.target:
        _fail(_("no printer is configured: set [printer] target in {file} (e.g. "
                "tcp:192.168.1.50:9100, usb:0x04b8:0x0202, serial:/dev/ttyUSB0, "
                "file:/dev/usb/lp0)").format(file=settings.source))
    if fmt == "escpos" and output is None and not to_printer and sys.stdout.isatty():
        _fail(_("the ESC/POS format is binary: give --output FILE, or redirect stdout to a file "
                "or a printer device"))
    try:
        journal = Journal.open(settings.terminal.journal, private=settings.private_files,
                               busy_timeout_s=settings.terminal.journal_wait_s)
    except JournalError as exc:
        _fail(exc.message)
    try:
        if to_printer:
            receipt = print_receipt(journal, settings, subject_id, labels=labels)
            mark = " " + _("(reprint)") if receipt.reprint else ""
            click.echo(_("printed the receipt of {subject_id}{mark} on {target}").format(
                subject_id=subject_id, mark=mark, target=settings.printer.target),
                       err=True)
        else:
            receipt = build_receipt(journal, settings, subject_id, labels=labels)
        if to_printer and output is None:
            return
        data = (receipt_bytes(receipt, settings) if fmt == "escpos"
                else receipt.text.encode("utf-8"))
    except (UnknownReceipt, NoReceipt, ReceiptFontMissing) as exc:
        _fail(exc.message)
    except PrinterSpecError as exc:
        _fail(_("{error} ([printer] target in {file})").format(error=exc, file=settings.source))
    except PrinterError as exc:  # the printer named, in the language asked
        said = render(printer_reason(exc)).removesuffix(".")
        _fail(_("{error}. Nothing was printed; the receipt can be printed again with "
                "`pos-terminal receipt {subject_id} --print`.").format(
                    error=said, subject_id=subject_id), code=EXIT_PRINTER)
    except JournalError as exc:
        _fail(exc.message)
    finally:
        journal.close()
    if output is not None:
        try:
            with open_private(output, "wb") as out:
                out.write(data)
        except OSError as exc:
            _fail(_("cannot write the receipt to {file}: {error}").format(
                file=output, error=exc.strerror or exc))
        click.echo(_("wrote the receipt of {subject_id} to {file}").format(
            subject_id=subject_id, file=output), err=True)
    elif fmt == "escpos":
        sys.stdout.buffer.write(data)
        sys.stdout.buffer.flush()
    else:
        click.echo(receipt.text, nl=False)


def register(group: click.Group) -> None:
    for command in (cashier_group, shift_group, receipt_cmd):
        group.add_command(command)
