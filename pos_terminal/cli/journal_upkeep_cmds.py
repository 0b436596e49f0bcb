"""`journal info` (what the file holds, how long the disk lasts) and `journal compact` (give
free pages back to the disk): the journal's upkeep over years (journal/upkeep.py)."""

from __future__ import annotations

import click

from pos_terminal.base.clock import format_stamp
from pos_terminal.base.i18n import _
from pos_terminal.cli.common import load_settings_or_exit, print_json
from pos_terminal.cli.money_common import back_office


def human_bytes(n: float) -> str:
    """``412.3 MB``: 1000-based, as disks are sold."""
    for unit in ("B", "KB", "MB", "GB"):
        if abs(n) < 1000 or unit == "GB":
            return f"{n:.0f} {unit}" if unit == "B" else f"{n:.1f} {unit}"
        n /= 1000
    raise AssertionError("unreachable")


@click.command("info")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")
@click.pass_context
def journal_info(ctx: click.Context, as_json: bool) -> None:
    """The journal's size, rows, oldest payment and free space; warns when the disk will be
    full within 90 days at the current pace."""
    settings = load_settings_or_exit(ctx)
    with back_office(settings, as_json) as office:
        info = office.journal.info()
    if as_json:
        print_json(info.to_json())
        return
    rows = info.rows
    click.echo(_("journal {path}").format(path=info.path))
    click.echo("  " + _("size {size} (free inside the file: {free}; auto-vacuum {mode})").format(
        size=human_bytes(info.size_bytes), free=human_bytes(info.free_bytes),
        mode=info.auto_vacuum))
    click.echo("  " + _("payments {count}: oldest {oldest}, newest {newest}").format(
        count=f"{rows['payments']:,}", oldest=format_stamp(info.oldest_ms) or "-",
        newest=format_stamp(info.newest_ms) or "-"))
    click.echo("  " + _("events {events}, refunds {refunds}, outbox {outbox} (not yet "
                        "pruned), leases {leases}, Z reports {z}").format(
        events=f"{rows['events']:,}", refunds=f"{rows['refunds']:,}",
        outbox=f"{rows['outbox']:,}", leases=f"{rows['leases']:,}", z=f"{rows['z_reports']:,}"))
    if info.bytes_per_payment is not None:
        click.echo("  " + _("{size} per payment; growing {rate} a day (the pace of the last "
                            "{days:g} days)").format(
            size=human_bytes(info.bytes_per_payment), rate=human_bytes(info.growth_per_day),
            days=round(info.rate_days, 1)))
    days = info.days_left
    click.echo("  " + (_("disk: {free} free, full in about {days} days at this pace").format(
        free=human_bytes(info.disk_free_bytes), days=f"{days:,.0f}") if days is not None
        else _("disk: {free} free").format(free=human_bytes(info.disk_free_bytes))))
    if info.disk_warning:
        click.echo(_("WARNING: the disk of the journal will be full in about {days} days. Free "
                     "space on it or move the journal to a bigger disk before then: when the "
                     "disk is full, payments stop.").format(days=f"{days:,.0f}"), err=True)


@click.command("compact")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")
@click.pass_context
def journal_compact(ctx: click.Context, as_json: bool) -> None:
    """Give the journal's free pages (of pruned rows) back to the disk. Quick on a journal made
    by this version; an older one is rewritten once, while payments wait."""
    settings = load_settings_or_exit(ctx)
    with back_office(settings, as_json) as office:
        before, after = office.journal.compact()
    if as_json:
        print_json({"size_before": before, "size_after": after})
        return
    click.echo(_("journal compacted: {before} before, {after} now").format(
        before=human_bytes(before), after=human_bytes(after)))


def register(group: click.Group) -> None:
    journal = group.commands["journal"]
    assert isinstance(journal, click.Group)
    journal.add_command(journal_info)
    journal.add_command(journal_compact)
