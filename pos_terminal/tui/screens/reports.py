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
from pos_terminal.base.i18n import N_, _, ngettext
from pos_terminal.base.money import format_vnd
from pos_terminal.counter.types import Report
from pos_terminal.sentences.reports import wallet_lines
from pos_terminal.tui.format import vn_time
from pos_terminal.tui.screens.base import PosScreen
from pos_terminal.tui.screens.dialogs import ConfirmDialog
from pos_terminal.tui.widgets.line import Line


class ReportsScreen(PosScreen[None]):
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "app.pop_screen", N_("Back")),
        Binding("x", "x_report", N_("X report")),
        Binding("z", "z_report", N_("Z report (close the day)")),
        Binding("p", "print_report", N_("Print")),
        Binding("f4", "banks", N_("Banks")),
    ]

    shown: Report | None = None  # the report on screen (P prints it)

    def body(self) -> Iterable[Widget]:
        yield Line(_("X: running totals · Z: close the day (numbered, cannot be undone)"),
                   id="reports-state")
        with VerticalScroll(id="report"):
            yield Line("", id="report-text")

    def on_mount(self) -> None:
        self.action_x_report()

    def action_banks(self) -> None:
        from pos_terminal.tui.screens.banks import BanksScreen

        self.app.push_screen(BanksScreen())

    def action_x_report(self) -> None:
        self.make_report(close=False)

    def action_z_report(self) -> None:
        question = _("Close the day with a Z report? Settled payments are numbered and "
                     "frozen; unresolved ones are carried to the next day.")
        try:
            x = self.pos.counter.reports.x()
            empty = not (x.sales_count or x.refunds_count or x.failed_count
                         or x.refunds_failed_count or x.unresolved_count)
        except Exception:  # the Z report itself will say what is wrong
            empty = False
        if empty:
            question = _("Nothing was paid, refunded or declined since the last Z report: "
                         "close an empty day anyway?")
        self.app.push_screen(ConfirmDialog(question), self._confirmed)

    def action_print_report(self) -> None:
        if self.shown is not None:
            self.query_one("#reports-state", Static).update(_("Printing the report…"))
            self.print_report(self.shown)

    @work(thread=True, group="slip", exclusive=True, exit_on_error=False)
    def print_report(self, report: Report) -> None:
        slip_id = f"z-{report.number}" if report.kind == "z" else "x-report"
        outcome = self.pos.counter.receipts.slip(slip_id, report_lines(report))
        self.app.call_from_thread(self._printed, outcome.message, outcome.printed)

    def _printed(self, text: str, printed: bool) -> None:
        for line in self.query("#reports-state").results(Static):
            line.update(text)
            line.set_class(not printed, "error")

    def _confirmed(self, yes: bool | None) -> None:
        if yes:
            self.make_report(close=True)

    @work(thread=True, group="report", exclusive=True, exit_on_error=False)
    def make_report(self, close: bool) -> None:
        counter = self.pos.counter
        try:
            report = counter.reports.z() if close else counter.reports.x()
        except Exception as exc:
            text = cashier_message(exc)
            self.app.call_from_thread(self._show_error, _("Report not made: {reason}").format(
                reason=text))
            return
        self.app.call_from_thread(self._show, report)

    def _show(self, report: Report) -> None:
        self.shown = report
        label = self.query_one("#report-text", Static)
        label.remove_class("error")
        label.update("\n".join(report_lines(report)))

    def _show_error(self, text: str) -> None:
        label = self.query_one("#report-text", Static)
        label.update(text)
        label.add_class("error")


SALES, REFUNDS, NET, FAILED = N_("sales"), N_("refunds"), N_("net"), N_("failed")
LATE_PAID, STILL_OPEN, NEED_REVIEW = N_("LATE PAID"), N_("still open"), N_("need review")
RETURNED, LATE_REVIEW = N_("returned"), N_("late, review")


def report_lines(report: Report) -> list[str]:
    """The report as the cashier reads it: amounts in VND, times in Vietnam time, and words
    (not a lone dash) when the day has no payment yet."""
    if report.kind == "z":
        title = _("Z report #{number} (day closed)").format(number=report.number)
    else:
        title = _("X report (day still open)")
    until = vn_time(report.closed_ms or report.generated_ms)
    if report.opened_ms is None:
        period = _("no payments yet today · as of {time}").format(time=until)
    else:
        period = _("from {start} to {end}").format(start=vn_time(report.opened_ms), end=until)
    w = max(9, *(len(_(label)) for label in (SALES, REFUNDS, NET, FAILED)))
    lines = [
        title,
        f"  {period}",
        f"  {_(SALES):<{w}} {report.sales_count:5d}   {format_vnd(report.sales_amount):>16}",
        f"  {_(REFUNDS):<{w}} {report.refunds_count:5d}   "
        f"{format_vnd(-report.refunds_amount):>16}",
        f"  {_(NET):<{w + 8}} {format_vnd(report.net_amount):>16}",
        f"  {_(FAILED):<{w}} {report.failed_count:5d}",
    ]
    lines.extend(wallet_lines(report.by_provider))
    if report.late_count:
        lines.append(f"  {_(LATE_PAID):<9} {report.late_count:4d}   "
                     f"{format_vnd(report.late_amount):>16} "
                     + _("charged after the terminal said failed (in sales): check none was "
                         "paid twice"))
    if report.auto_returned_count:
        lines.append(f"  {_(RETURNED):<9} {report.auto_returned_count:4d}   "
                     f"{format_vnd(report.auto_returned_amount):>16} "
                     + _("late charges returned automatically (in refunds)"))
    if report.late_review_count:
        lines.append(f"  {_(LATE_REVIEW):<9} {report.late_review_count:4d}   "
                     + _("charged late and left for a person: refund them or keep the sale"))
    if report.refunds_failed_count:
        lines.append("  " + _("refunds failed {count}").format(
            count=report.refunds_failed_count))
    if report.unresolved_count or report.refunds_pending_count:
        pending = report.refunds_pending_count
        lines.append(f"  {_(STILL_OPEN):<10} {report.unresolved_count:4d}   "
                     f"{format_vnd(report.unresolved_amount):>16} "
                     + (ngettext("(+{count} refund in progress)", "(+{count} refunds in progress)",
                                 pending).format(count=pending) + " " if pending else "")
                     + _("checked in the background and carried to the next day"))
    if report.needs_review_count:
        lines.append(f"  {_(NEED_REVIEW):<11} {report.needs_review_count:3d}   "
                     + _("too old for a status query: check the merchant portal, then "
                         "override in History"))
    return lines
