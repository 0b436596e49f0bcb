"""`journal list|show|export`: what the journal remembers, read through `counter.history` of a
back office (the journal opened on its own: no wallet key needed). `journal info|compact` are
in journal_upkeep_cmds.py."""

from __future__ import annotations

import itertools
import sys
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any, TextIO, TypeVar

import click

from pos_terminal.base.clock import day_bounds_ms, format_stamp, today
from pos_terminal.base.codes import mask_last4
from pos_terminal.base.files import open_private
from pos_terminal.base.i18n import _
from pos_terminal.base.money import format_vnd
from pos_terminal.cli.common import load_settings_or_exit, print_json
from pos_terminal.cli.journal_filters import (
    payment_rows,
    refund_rows,
    with_export_filters,
    with_payment_filters,
    with_provider,
)
from pos_terminal.cli.money_common import back_office, fail, payment_line, refund_line
from pos_terminal.counter import answers
from pos_terminal.counter.types import (
    JournalError,
    PaymentState,
    PaymentView,
    UnknownPayment,
)
from pos_terminal.text_safety import clean

S = PaymentState
T = TypeVar("T")


@click.group("journal")
def journal_group() -> None:
    """Read the payment journal: list, show, export."""


def _read_first(rows: Iterator[T]) -> Iterator[T]:
    """`rows` with its first batch read before any output: a journal that cannot be read is
    then one sentence (one JSON object with --json), not half a listing."""
    first = next(rows, None)
    return itertools.chain(() if first is None else (first,), rows)


@journal_group.command("list")
@with_payment_filters
@with_provider
@click.option("--limit", type=click.IntRange(min=1), default=None,
              help="At most this many (newest first); the last line tells how to go on.")
@click.option("--cursor", default=None, metavar="APP_TRANS_ID",
              help="Go on after this payment (the cursor a page with --limit ends with).")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")
@click.pass_context
def journal_list(ctx: click.Context, since: str | None, until: str | None,
                 states: tuple[str, ...], limit: int | None, cursor: str | None,
                 as_json: bool, provider: str | None) -> None:
    """List payments, newest first: today's (Vietnam time) unless --from/--to say which days."""
    settings = load_settings_or_exit(ctx)
    filters = payment_rows(since, until, states, as_json)
    if since is None and until is None:
        day_start, day_end = day_bounds_ms(today())
        filters = replace(filters, since_ms=day_start, until_ms=day_end)
    with back_office(settings, as_json) as office:
        try:
            rows = office.history.iter_payments(
                since_ms=filters.since_ms, until_ms=filters.until_ms, states=filters.states,
                limit=limit, newest_first=True, after=cursor, provider=provider)
        except UnknownPayment:
            fail(_("--cursor {cursor} is not a payment in this journal: give the cursor the "
                   "previous page ended with.").format(cursor=repr(cursor)),
                 as_json=as_json, field="cursor")
        rows = _read_first(rows)
        last: list[str] = []

        def seen(views: Iterator[PaymentView]) -> Iterator[PaymentView]:
            for view in views:
                last[:] = [view.app_trans_id]
                yield view

        if as_json:
            def tail(n: int) -> dict[str, object]:
                return {"count": n, "next_cursor": last[0] if last and n == limit else None}

            office.history.write_list("payments", (r.to_json() for r in seen(rows)), sys.stdout,
                                      tail)
            return
        count = 0
        for r in seen(rows):
            count += 1
            flag = " " + _("REVIEW") if r.needs_review else ""
            refunded = (" (" + _("refunded {amount}").format(
                amount=format_vnd(r.refunded_amount)) + ")" if r.refunded_amount else "")
            click.echo(f"{format_stamp(r.created_ms)}  {r.app_trans_id:<32} "
                       f"{answers.state_label(r.state.value):<10} "
                       f"{format_vnd(r.amount):>15}{refunded}{flag}")
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
    with back_office(settings, as_json) as office:
        try:
            record = office.history.record(app_trans_id)
        except UnknownPayment as exc:
            fail(exc.message, as_json=as_json)
    view, events, refunds = record.payment, record.events, record.refunds
    if as_json:
        data = view.to_json()
        data["events"] = [e.to_json() for e in events]
        data["refunds"] = [r.to_json() for r in refunds]
        print_json(data)
        return
    click.echo(payment_line(view))
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
        click.echo(refund_line(r))


@journal_group.command("export")
@click.option("--format", "fmt", type=click.Choice(["csv", "json"]), default="csv",
              show_default=True)
@click.option("--what", type=click.Choice(["payments", "refunds"]), default="payments",
              show_default=True,
              help="Payments (filtered by their day and state) or refunds (by theirs).")
@click.option("--output", "-o", type=click.Path(dir_okay=False, path_type=Path), default=None,
              help="Write to this file instead of stdout.")
@with_export_filters
@with_provider
@click.pass_context
def journal_export(ctx: click.Context, fmt: str, what: str, output: Path | None,
                   since: str | None, until: str | None, states: tuple[str, ...],
                   provider: str | None) -> None:
    """Export payments (CSV: one line each; JSON: with events and refunds) or refunds (one line
    each, marked when automatic), oldest first."""
    settings = load_settings_or_exit(ctx)
    if what == "refunds":
        refunds_wanted = refund_rows(since, until, states, False)
    else:
        if "refunding" in states:
            fail(_("--state refunding is a refund's state: give --what refunds too."),
                 as_json=False, field="state")
        payments_wanted = payment_rows(since, until, states, False)
    if output is not None:
        _check_export_target(output, settings.terminal.journal)
    with back_office(settings, False) as office:
        history = office.history
        if what == "payments":
            rows: Iterator[Any] = history.iter_payments(
                since_ms=payments_wanted.since_ms, until_ms=payments_wanted.until_ms,
                states=payments_wanted.states, provider=provider)
        else:
            rows = history.iter_refunds(
                since_ms=refunds_wanted.since_ms, until_ms=refunds_wanted.until_ms,
                states=refunds_wanted.states, provider=provider)
        rows = _read_first(rows)

        def write(out: TextIO) -> int:
            if what == "refunds":
                return (history.export_refunds_csv if fmt == "csv"
                        else history.export_refunds_json)(rows, out)
            if fmt == "csv":
                return history.export_csv(rows, out)
            return history.export_json(rows, out)

        try:
            if output is None:
                write(sys.stdout)
                return
            try:
                with open_private(output, encoding="utf-8", newline="") as out_file:
                    count = write(out_file)
            except OSError as exc:
                fail(_("cannot write the export {file}: {error}. Nothing was changed in the "
                       "journal; choose another --output (a folder you can write, with free "
                       "space).").format(file=output, error=exc.strerror or exc),
                     as_json=False)
        except JournalError as exc:
            fail(exc.message, as_json=False)
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
            fail(_("--output {output} is the payment journal's own file {path}: the export "
                   "would destroy the journal. Nothing was written; choose another file, e.g. "
                   "--output payments.csv.").format(output=output, path=path), as_json=False,
                 field="output")
    if not resolved.parent.is_dir():
        fail(_("--output {output}: the folder {folder} does not exist. Nothing was written; "
               "create the folder first or choose another --output.").format(
                   output=output, folder=resolved.parent), as_json=False, field="output")
    if resolved.is_dir():
        fail(_("--output {output} is a folder: give a file name, e.g. --output "
               "{output}/payments.csv. Nothing was written.").format(output=output),
             as_json=False, field="output")


def register(group: click.Group) -> None:
    group.add_command(journal_group)
