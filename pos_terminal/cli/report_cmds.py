"""`report x|z`: the X report (running totals) and the Z report (closing the day), read
through `counter.reports` of a back office."""

from __future__ import annotations

from typing import Any

import click

from pos_terminal.base.i18n import _
from pos_terminal.cli.common import load_settings_or_exit, print_json
from pos_terminal.cli.money_common import back_office, fail
from pos_terminal.counter.types import JournalError
from pos_terminal.sentences.reports import group_lines, report_lines


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
    with back_office(settings, as_json) as office:
        report = office.reports.x()
        groups = None if by is None else office.reports.grouped(by)
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
    with back_office(settings, as_json) as office:
        try:
            report = office.reports.z() if number is None else office.reports.stored_z(number)
            groups = None if by is None else office.reports.grouped(by, report.number)
        except LookupError as exc:
            fail(str(exc), as_json=as_json)
        except JournalError as exc:
            fail(exc.message, as_json=as_json)
    _show_report(report, groups, as_json)


def register(group: click.Group) -> None:
    group.add_command(report_group)
