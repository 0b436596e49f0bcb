"""Reports: X (running totals of the open day) and Z (closes the day) from the journal, laid
out as the printed slip (tui/slips.py). L lists the closed days: any Z report can be shown and
printed again (marked as a reprint). F8 draws the report shown again in the other language."""

from __future__ import annotations

from collections.abc import Iterable
from typing import ClassVar

from textual import work
from textual.binding import Binding, BindingType
from textual.containers import VerticalScroll
from textual.widget import Widget
from textual.widgets import Static

from pos_terminal.base.clock import now_ms
from pos_terminal.base.errors import cashier_message
from pos_terminal.base.i18n import N_, _
from pos_terminal.counter.types import Report
from pos_terminal.tui.screens.base import PosScreen
from pos_terminal.tui.screens.dialogs import ConfirmDialog
from pos_terminal.tui.slips import report_slip
from pos_terminal.tui.widgets.line import Line
from pos_terminal.tui.widgets.phrases import PhraseLine

SCREEN_WIDTH = 60  # the report on screen: the printed slip's layout, a little wider

class ReportsScreen(PosScreen[None]):
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "back", N_("Back")),
        Binding("x", "x_report", N_("X report")),
        Binding("z", "z_report", N_("Z report (close the day)")),
        Binding("l", "closed_days", N_("Closed days"), show=False),  # named above the report
        Binding("p", "print_report", N_("Print")),
        Binding("f4", "banks", N_("Banks")),
    ]

    shown: Report | None = None  # the report on screen (P prints it)
    z_printed: frozenset[int] = frozenset()  # Z reports printed from this screen

    from_list = False  # the report shown was chosen in the closed days' list
    closing = False  # a Z report is being made: no other key acts until it is done

    #: What the keys may not do while the day is being closed: start another report (a second Z
    #: would close an empty day), print the report on screen (the X, not the Z on its way),
    #: leave (the Z would be shown nowhere) or redraw the screen (F8).
    WAIT_WHILE_CLOSING = frozenset({"back", "x_report", "z_report", "closed_days",
                                    "print_report", "banks"})

    def body(self) -> Iterable[Widget]:
        yield PhraseLine(_("X: running totals · Z: close the day (numbered, cannot be "
                           "undone) · L: closed days"), id="reports-state")
        with VerticalScroll(id="report"):
            yield Line("", id="report-text")

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        return not (self.closing and action in self.WAIT_WHILE_CLOSING)

    def can_switch_language(self) -> bool:
        return not self.closing

    def must_not_be_left(self) -> bool:
        # Signed out or closed now, the Z would be shown nowhere: the cashier, seeing no
        # report, would close the day again (an empty day).
        return self.closing

    def say_leaving_waits(self) -> None:
        for line in self.query("#reports-state").results(Static):
            line.update(_("Closing the day: making the Z report… F12 and Ctrl+Q wait: press "
                          "them again once the Z report is shown."))

    def action_back(self) -> None:
        self.dismiss(None)

    def on_mount(self) -> None:
        if self.shown is None:
            self.action_x_report()
        else:  # drawn again (F8): the same report, never a new X in its place
            self._show(self.shown)

    def action_banks(self) -> None:
        from pos_terminal.tui.screens.banks import BanksScreen

        self.app.push_screen(BanksScreen())

    def action_closed_days(self) -> None:
        from pos_terminal.tui.screens.closed_days import ClosedDaysScreen

        self.app.push_screen(ClosedDaysScreen(), self._chosen_day)

    def _chosen_day(self, report: Report | None) -> None:
        """A closed day chosen in the list: shown here, P prints it again (a reprint)."""
        if report is not None:
            self.from_list = True
            self._new_report(report)

    def action_x_report(self) -> None:
        self.from_list = False
        self.make_report(close=False)

    def action_z_report(self) -> None:
        def question() -> str:
            return _("Close the day with a Z report? Settled payments are numbered and "
                     "frozen; unresolved ones are carried to the next day.")

        def empty_question() -> str:
            return _("Nothing was paid, refunded or declined since the last Z report: "
                     "close an empty day anyway?")

        try:
            x = self.pos.counter.reports.x()
            empty = not (x.sales_count or x.refunds_count or x.failed_count
                         or x.refunds_failed_count or x.unresolved_count)
        except Exception:  # the Z report itself will say what is wrong
            empty = False
        self.app.push_screen(ConfirmDialog(empty_question if empty else question),
                             self._confirmed)

    def is_reprint(self, report: Report) -> bool:
        """A Z report printed before from here, or one reached again from the closed days."""
        return report.kind == "z" and (self.from_list or report.number in self.z_printed)

    def action_print_report(self) -> None:
        report = self.shown
        if report is None:
            return
        self.query_one("#reports-state", Static).update(_("Printing the report…"))
        reprint = self.is_reprint(report)
        if report.kind == "z" and report.number is not None:
            self.z_printed = self.z_printed | {report.number}
        self.print_report(report, reprint)

    @work(thread=True, group="slip", exclusive=True, exit_on_error=False)
    def print_report(self, report: Report, reprint: bool) -> None:
        slip_id = f"z-{report.number}" if report.kind == "z" else "x-report"
        slip = report_slip(report, self.pos.settings.terminal.terminal_id, reprint=reprint,
                           printed_ms=now_ms())
        outcome = self.pos.counter.receipts.slip(slip_id, slip)
        self.app.call_from_thread(self._printed, outcome.message, outcome.printed)

    def _printed(self, text: str, printed: bool) -> None:
        for line in self.query("#reports-state").results(Static):
            line.update(text)
            line.set_class(not printed, "error")

    def _confirmed(self, yes: bool | None) -> None:
        if yes:
            self.from_list = False
            self._working(True)
            self.make_report(close=True)

    def _working(self, closing: bool) -> None:
        """While the Z report is made (seconds, on a busy journal): said at once, the report
        area busy, the keys that would do harm meanwhile held back (check_action)."""
        self.closing = closing
        for line in self.query("#reports-state").results(Static):
            line.remove_class("error")
            if closing:
                line.update(_("Closing the day: making the Z report…"))
        for area in self.query("#report"):
            area.loading = closing
        self.refresh_bindings()

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
        self.app.call_from_thread(self._new_report, report)

    def _new_report(self, report: Report) -> None:
        """A report just made: what was said about the one before (printed…) goes."""
        if self.closing:
            self._working(False)
        for line in self.query("#reports-state").results(Static):
            line.remove_class("error")
            line.update(_("X: running totals · Z: close the day (numbered, cannot be undone) · "
                          "L: closed days"))
        self._show(report)

    def _show(self, report: Report) -> None:
        self.shown = report
        label = self.query_one("#report-text", Static)
        label.remove_class("error")
        slip = report_slip(report, self.pos.settings.terminal.terminal_id,
                           reprint=self.from_list)
        label.update("\n".join(self.pos.counter.receipts.slip_text(slip, SCREEN_WIDTH)))

    def _show_error(self, text: str) -> None:
        if self.closing:
            self._working(False)
        label = self.query_one("#report-text", Static)
        label.update(text)
        label.add_class("error")

