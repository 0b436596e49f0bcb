"""Reports: X (running totals of the open day) and Z (closes the day) from the journal."""

from __future__ import annotations

from collections.abc import Iterable
from typing import ClassVar

from textual import work
from textual.binding import Binding, BindingType
from textual.containers import VerticalScroll
from textual.widget import Widget
from textual.widgets import Static

from pos_terminal.base.errors import cashier_message
from pos_terminal.base.i18n import _
from pos_terminal.counter.types import Report
from pos_terminal.tui.format import format_vnd, vn_time
from pos_terminal.tui.screens.base import PosScreen
from pos_terminal.tui.screens.dialogs import ConfirmDialog
from pos_terminal.tui.widgets.line import Line


class ReportsScreen(PosScreen):
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "app.pop_screen", "Back"),
        Binding("x", "x_report", "X report"),
        Binding("z", "z_report", "Z report (close the day)"),
    ]

    def body(self) -> Iterable[Widget]:
        yield Line("X: running totals · Z: close the day (numbered, cannot be undone)",
                     id="reports-state")
        with VerticalScroll(id="report"):
            yield Line("", id="report-text")

    def on_mount(self) -> None:
        self.action_x_report()

    def action_x_report(self) -> None:
        self.make_report(close=False)

    def action_z_report(self) -> None:
        self.app.push_screen(ConfirmDialog(
            "Close the day with a Z report? Settled payments are numbered and frozen; "
            "unresolved ones are carried to the next day."), self._confirmed)

    def _confirmed(self, yes: bool | None) -> None:
        if yes:
            self.make_report(close=True)

    @work(thread=True, group="report", exclusive=True, exit_on_error=False)
    def make_report(self, close: bool) -> None:
        counter = self.pos.counter
        try:
            report = counter.close_day() if close else counter.x_report()
        except Exception as exc:
            text = cashier_message(exc)
            self.app.call_from_thread(self._show_error, f"Report not made: {text}")
            return
        self.app.call_from_thread(self._show, report)

    def _show(self, report: Report) -> None:
        label = self.query_one("#report-text", Static)
        label.remove_class("error")
        label.update("\n".join(report_lines(report)))

    def _show_error(self, text: str) -> None:
        label = self.query_one("#report-text", Static)
        label.update(text)
        label.add_class("error")


def report_lines(report: Report) -> list[str]:
    """The report as the cashier reads it: amounts in VND, times in Vietnam time, and words
    (not a lone dash) when the day has no payment yet."""
    if report.kind == "z":
        title = f"Z report #{report.number} (day closed)"
    else:
        title = "X report (day still open)"
    until = vn_time(report.closed_ms or report.generated_ms)
    if report.opened_ms is None:
        period = f"no payments yet today · as of {until}"
    else:
        period = f"from {vn_time(report.opened_ms)} to {until}"
    lines = [
        title,
        f"  {period}",
        f"  sales     {report.sales_count:5d}   {format_vnd(report.sales_amount):>16}",
        f"  refunds   {report.refunds_count:5d}   {format_vnd(-report.refunds_amount):>16}",
        f"  net               {format_vnd(report.net_amount):>16}",
        f"  failed    {report.failed_count:5d}",
    ]
    if report.late_count:
        lines.append(f"  LATE PAID {report.late_count:4d}   {format_vnd(report.late_amount):>16}"
                     " charged after the terminal said failed (in sales): check none was paid "
                     "twice")
    if report.auto_returned_count:
        lines.append(_("  returned  {count:5d}   {amount:>16} late charges returned "
                       "automatically (in refunds)").format(
            count=report.auto_returned_count, amount=format_vnd(report.auto_returned_amount)))
    if report.late_review_count:
        lines.append(_("  late, review {count:3d}   charged late and left for a person: refund "
                       "them or keep the sale").format(count=report.late_review_count))
    if report.refunds_failed_count:
        lines.append(f"  refunds failed {report.refunds_failed_count}")
    if report.unresolved_count or report.refunds_pending_count:
        lines.append(f"  still open {report.unresolved_count:4d}   "
                     f"{format_vnd(report.unresolved_amount):>16}"
                     f" (+{report.refunds_pending_count} refunds in progress): they are checked "
                     "in the background and carried to the next day")
    if report.needs_review_count:
        lines.append(f"  need review {report.needs_review_count:3d}   too old for a status "
                     "query: check the merchant portal, then override in History")
    return lines
