"""`pos-terminal sync` (ship this counter's journal to the fleet ledger) and the head office
commands `pos-terminal fleet migrate|add-counter|remove-counter|report|open|disagreements`.

Exit codes of these commands: 0 done (sync: everything shipped), 2 bad input or configuration
(no ledger configured, a malformed DSN, clear text without `[ledger] insecure`, unreadable
journal), 4 the ledger is unreachable (sync: what was not shipped stays in the journal's outbox;
payments go on; run it again), 5 the ledger refused (its schema is not this program's, the login
is not this counter's, a journal claims another counter's terminal id).

What a counter wrote is data: ledger/reports.py cleans every text of it of escape sequences
before it reaches a terminal or JSON, and neutralises it in CSV cells (text_safety.py).
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import date
from pathlib import Path
from typing import Any, NoReturn

import click

from pos_terminal.base.files import open_private
from pos_terminal.base.i18n import _
from pos_terminal.base.money import format_vnd
from pos_terminal.cli.common import (
    EXIT_OK,
    EXIT_REFUSED,
    EXIT_UNREACHABLE,
    EXIT_USAGE,
    load_settings_or_exit,
    print_json,
)
from pos_terminal.config import Settings


def _stop(message: str, code: int, as_json: bool = False, **extra: Any) -> NoReturn:
    click.echo(f"error: {message}", err=True)
    if as_json:
        print_json({"ok": False, "error": message, **extra})
    raise click.exceptions.Exit(code)


def _code_for(exc: Exception) -> int:
    from pos_terminal.ledger import LedgerRefused, LedgerUnavailable

    if isinstance(exc, LedgerUnavailable):
        return EXIT_UNREACHABLE
    return EXIT_REFUSED if isinstance(exc, LedgerRefused) else EXIT_USAGE


def _dsn_or_exit(settings: Settings, as_json: bool) -> str:
    from pos_terminal.ledger import ledger_dsn

    dsn = ledger_dsn(settings)
    if not dsn:
        _stop("no ledger configured: set [ledger] dsn in the configuration file or the "
              "POS_LEDGER_DSN environment variable (a PostgreSQL connection string)",
              EXIT_USAGE, as_json)
    return dsn


@click.command("sync")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")
@click.pass_context
def sync_cmd(ctx: click.Context, as_json: bool) -> None:
    """Ship what this counter's journal has not yet sent to the fleet ledger, then exit.

    Exit 0 when everything is shipped; 4 when the ledger is unreachable (nothing is lost: the
    rest waits in the journal; run it again, e.g. from cron); 5 when the ledger refused; 2 for
    a configuration or journal problem.
    """
    settings = load_settings_or_exit(ctx)
    from pos_terminal.counter.types import JournalError
    from pos_terminal.ledger import LedgerError, LedgerSync

    try:
        sync = LedgerSync(settings, dsn=_dsn_or_exit(settings, as_json))
    except LedgerError as exc:
        _stop(exc.message, EXIT_USAGE, as_json)
    try:
        try:
            report = sync.sync_once()
        except LedgerError as exc:
            behind: int | None
            try:
                behind = sync.behind()
            except Exception:
                behind = None
            waiting = (f" {behind} journal rows wait in the outbox; payments go on. Run "
                       "`pos-terminal sync` again when the ledger is back.") if behind else ""
            _stop(exc.message + "." + waiting, _code_for(exc), as_json, behind=behind)
        except JournalError as exc:
            _stop(exc.message, EXIT_USAGE, as_json)
    finally:
        sync.close()
    if as_json:
        print_json({"ok": True, "shipped": report.shipped, "behind": report.behind,
                    "journal_id": report.journal_id, "rotated": report.rotated,
                    "ledger": sync.where})
    else:
        extra = (" " + _("This journal is an older copy of itself: its new rows continue under "
                         "a new journal id (see `pos-terminal fleet disagreements`).")
                 ) if report.rotated else ""
        click.echo(_("shipped {shipped} journal rows to the ledger at {where}; {behind} "
                     "behind.").format(shipped=report.shipped, where=sync.where,
                                       behind=report.behind) + extra)
    raise click.exceptions.Exit(EXIT_OK)


@click.group("fleet")
def fleet_group() -> None:
    """Head office: the fleet ledger's schema, the day's totals, open payments, disagreements."""


@contextmanager
def _ledger(settings: Settings, as_json: bool) -> Iterator[Any]:
    from pos_terminal.ledger import Ledger, LedgerError

    try:
        ledger = Ledger.from_settings(settings, _dsn_or_exit(settings, as_json))
    except LedgerError as exc:
        _stop(exc.message + ".", _code_for(exc), as_json)
    try:
        yield ledger
    except LedgerError as exc:
        _stop(exc.message + ".", _code_for(exc), as_json)
    finally:
        ledger.close()


def _open(path: Path) -> Any:
    try:
        return open_private(path, encoding="utf-8", newline="")
    except OSError as exc:
        _stop(f"cannot write {path}: {exc.strerror}", EXIT_USAGE)


@fleet_group.command("migrate")
@click.pass_context
def fleet_migrate(ctx: click.Context) -> None:
    """Create or upgrade the ledger's schema, with the ledger owner's DSN (the only command
    that changes it; counters refuse a ledger whose schema is not theirs)."""
    settings = load_settings_or_exit(ctx)
    from pos_terminal.ledger.schema import LEDGER_SCHEMA_VERSION

    with _ledger(settings, False) as ledger:
        applied = ledger.migrate()
    if applied:
        done = _("applied version(s) {versions}").format(versions=", ".join(map(str, applied)))
    else:
        done = _("already current")
    click.echo(_("ledger at {where}: schema version {version} ({done}).").format(
        where=ledger.where, version=LEDGER_SCHEMA_VERSION, done=done))


@fleet_group.command("add-counter")
@click.argument("terminal_id")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")
@click.pass_context
def fleet_add_counter(ctx: click.Context, terminal_id: str, as_json: bool) -> None:
    """Give counter TERMINAL_ID its own ledger login (owner's DSN); prints its DSN once."""
    settings = load_settings_or_exit(ctx)
    from pos_terminal.ledger.counters import add_counter
    from pos_terminal.ledger.dsn import counter_dsn, parse_dsn

    with _ledger(settings, as_json) as ledger:
        new = ledger.run(lambda conn: add_counter(conn, terminal_id))
        dsn = counter_dsn(parse_dsn(ledger.dsn), new.role, new.password)
    if as_json:
        print_json({"terminal_id": new.terminal_id, "dsn": dsn})
        return
    click.echo(_("counter {terminal_id} has its own login {role}. Put this in its "
                 "configuration as [ledger] dsn (or POS_LEDGER_DSN), with [terminal] "
                 "terminal_id = \"{terminal_id}\"; it is shown only now:").format(
        terminal_id=new.terminal_id, role=new.role))
    click.echo(dsn)


@fleet_group.command("remove-counter")
@click.argument("terminal_id")
@click.pass_context
def fleet_remove_counter(ctx: click.Context, terminal_id: str) -> None:
    """Disable counter TERMINAL_ID's login (owner's DSN); its rows stay in the ledger."""
    settings = load_settings_or_exit(ctx)
    from pos_terminal.ledger.counters import remove_counter

    with _ledger(settings, False) as ledger:
        role = ledger.run(lambda conn: remove_counter(conn, terminal_id))
    click.echo(_("counter {terminal_id}: login {role} disabled; what it shipped stays in the "
                 "ledger and its reports.").format(terminal_id=terminal_id, role=role))


def _parse_day(text: str | None) -> date:
    from pos_terminal.ledger.reports import vn_today

    if text is None:
        return vn_today()
    try:
        return date.fromisoformat(text)
    except ValueError:
        _stop(_("{option} must be a date like 2026-11-23, not {text}").format(
            option="--day", text=repr(text)), EXIT_USAGE)


@fleet_group.command("report")
@click.option("--day", "day_text", default=None, metavar="YYYY-MM-DD",
              help="The day in Vietnam time (default: today).")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")
@click.option("--csv", "csv_path", type=click.Path(dir_okay=False, path_type=Path),
              default=None, metavar="FILE", help="Also write the totals as CSV to FILE.")
@click.pass_context
def fleet_report_cmd(ctx: click.Context, day_text: str | None, as_json: bool,
                     csv_path: Path | None) -> None:
    """X/Z-style totals of a day for the shop, each counter and each cashier."""
    settings = load_settings_or_exit(ctx)
    from pos_terminal.ledger.reports import fleet_report
    from pos_terminal.sentences.reports import fleet_lines

    day = _parse_day(day_text)
    with _ledger(settings, as_json) as ledger:
        report = ledger.run(lambda conn: fleet_report(conn, day, int(time.time() * 1000)))
    if csv_path is not None:
        with _open(csv_path) as out:
            report.write_csv(out)
    if as_json:
        print_json(report.to_json())
    else:
        click.echo("\n".join(fleet_lines(report)))


_LIST_OPTIONS = (
    click.option("--json", "as_json", is_flag=True, help="Print one JSON object."),
    click.option("--csv", "csv_path", type=click.Path(dir_okay=False, path_type=Path),
                 default=None, metavar="FILE", help="Also write the list as CSV to FILE."),
)


def _list_options(command: Any) -> Any:
    for option in reversed(_LIST_OPTIONS):
        command = option(command)
    return command


def _listed(ctx: click.Context, as_json: bool, csv_path: Path | None, name: str,
            query: Any, columns: Any) -> list[dict[str, Any]] | None:
    """The rows of a ledger query, also written to `csv_path` when given; with --json printed
    as one object {name: rows, count} and None returned (nothing more to print)."""
    settings = load_settings_or_exit(ctx)
    from pos_terminal.ledger.reports import write_rows_csv

    with _ledger(settings, as_json) as ledger:
        rows: list[dict[str, Any]] = ledger.run(query)
    if csv_path is not None:
        with _open(csv_path) as out:
            write_rows_csv(rows, columns, out)
    if as_json:
        print_json({name: rows, "count": len(rows)})
        return None
    return rows


@fleet_group.command("open")
@_list_options
@click.pass_context
def fleet_open_cmd(ctx: click.Context, as_json: bool, csv_path: Path | None) -> None:
    """Every payment or refund not yet final or flagged for review, across counters."""
    from pos_terminal.ledger.reports import OPEN_COLUMNS, open_items

    rows = _listed(ctx, as_json, csv_path, "open", open_items, OPEN_COLUMNS)
    if rows is None:
        return
    if not rows:
        click.echo(_("nothing open: every payment and refund in the ledger is final."))
    for r in rows:
        review = " " + _("NEEDS REVIEW") if r["needs_review"] else ""
        click.echo(f"{r['created_vn']}  {r['terminal_id']:8s} {r['type']:7s} {r['id']}  "
                   f"{r['state']}{review}  {format_vnd(r['amount'])}  {r['message']}")


@fleet_group.command("disagreements")
@_list_options
@click.pass_context
def fleet_disagreements_cmd(ctx: click.Context, as_json: bool, csv_path: Path | None) -> None:
    """What journals said that the ledger kept otherwise (a row changed after it was final),
    and journals restored from an older copy."""
    from pos_terminal.ledger.reports import DISAGREEMENT_COLUMNS, disagreements

    rows = _listed(ctx, as_json, csv_path, "disagreements", disagreements,
                   DISAGREEMENT_COLUMNS)
    if rows is None:
        return
    if not rows:
        click.echo(_("no disagreements: every journal agrees with the ledger."))
    for r in rows:
        click.echo(f"{r['detected_vn']}  {r['terminal_id']:8s} {r['kind']} {r['key']}: "
                   f"{r['field']} ledger={r['ledger_value']} journal={r['journal_value']} "
                   f"({r['note']})")


def register(group: click.Group) -> None:
    group.add_command(sync_cmd)
    group.add_command(fleet_group)


__all__ = ["register"]
