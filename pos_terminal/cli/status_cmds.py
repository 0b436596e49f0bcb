"""`status` (one payment, asked about once if open) and `reconcile` (every open payment and
refund, by status queries, never by paying again), over `counter.payments` and the counter."""

from __future__ import annotations

import click

from pos_terminal.base.i18n import _
from pos_terminal.cli.common import (
    EXIT_OK,
    EXIT_UNRESOLVED,
    load_settings_or_exit,
    print_json,
    stop_on_signals,
)
from pos_terminal.cli.money_common import (
    answer_payment,
    counter_for,
    exit_with,
    fail,
    payment_line,
    refund_line,
)
from pos_terminal.counter import answers
from pos_terminal.counter.types import JournalError, UnknownPayment


@click.command("status")
@click.argument("app_trans_id")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")
@click.pass_context
def status_cmd(ctx: click.Context, app_trans_id: str, as_json: bool) -> None:
    """Show a payment; an unresolved one is asked about once first. Exit as for pay."""
    settings = load_settings_or_exit(ctx)
    with stop_on_signals() as stop, counter_for(settings, as_json, kind="status",
                                                subject=lambda _c, _e: app_trans_id) as co:
        try:
            view = co.payments.status(app_trans_id)
        except UnknownPayment as exc:
            fail(exc.message, as_json=as_json)
        except JournalError as exc:
            fail(exc.message, as_json=as_json)
    answer_payment(view, as_json, stop)


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
    with stop_on_signals() as stop, counter_for(settings, as_json, kind="reconcile") as co:
        try:
            report = co.reconcile(wait_s=wait_s, cancel=stop.event)
        except JournalError as exc:
            fail(exc.message, as_json=as_json)
    open_left = report.still_open + (report.refunds_checked - report.refunds_resolved)
    if as_json:
        data = answers.reconcile_answer(report)
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
            click.echo(payment_line(view))
        for refund in report.refunds:
            click.echo(refund_line(refund))
    exit_with(EXIT_UNRESOLVED if open_left or report.flagged else EXIT_OK)


def register(group: click.Group) -> None:
    for command in (status_cmd, reconcile_cmd):
        group.add_command(command)
