"""Closed days: every Z report written at this counter, the newest first. Enter answers the
Reports screen with the chosen one, which it shows; P there prints it again, marked as a
reprint."""

from __future__ import annotations

from collections.abc import Iterable
from typing import ClassVar

from textual import work
from textual.binding import Binding, BindingType
from textual.widget import Widget
from textual.widgets import DataTable, Static

from pos_terminal.base.clock import format_datetime
from pos_terminal.base.errors import cashier_message
from pos_terminal.base.i18n import N_, _, ngettext
from pos_terminal.base.money import format_vnd
from pos_terminal.counter.types import Report
from pos_terminal.tui.screens.base import PosScreen
from pos_terminal.tui.widgets.phrases import PhraseLine
from pos_terminal.tui.widgets.table import MeasuredTable


class ClosedDaysScreen(PosScreen[Report | None]):
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "app.pop_screen", N_("Back")),
        Binding("enter", "open", N_("Show")),
    ]

    reports: tuple[Report, ...] = ()

    def body(self) -> Iterable[Widget]:
        yield PhraseLine(_("Reading the closed days…"), id="closed-state")
        yield MeasuredTable(id="closed-table", cursor_type="row", zebra_stripes=True)

    def on_mount(self) -> None:
        self.query_one("#closed-table", DataTable).add_columns(
            _("Z"), _("Closed"), _("Sales"), _("Net"))
        if self.reports:  # drawn again (F8): the list read before
            self._fill(self.reports)
        else:
            self.load()

    @work(thread=True, group="closed-days", exclusive=True, exit_on_error=False)
    def load(self) -> None:
        try:
            reports = self.pos.counter.reports.closed_days()
        except Exception as exc:
            text = cashier_message(exc)
            self.app.call_from_thread(self._error, text)
            return
        self.app.call_from_thread(self._fill, tuple(reports))

    def _error(self, text: str) -> None:
        state = self.query_one("#closed-state", Static)
        state.update(_("The closed days cannot be read: {reason}").format(reason=text))
        state.add_class("error")

    def _fill(self, reports: tuple[Report, ...]) -> None:
        self.reports = reports
        table = self.query_one("#closed-table", DataTable)
        table.clear()
        for report in reports:
            table.add_row(f"#{report.number}", format_datetime(report.closed_ms),
                          str(report.sales_count), format_vnd(report.net_amount),
                          key=str(report.number))
        state = self.query_one("#closed-state", Static)
        state.remove_class("error")
        if reports:
            state.update(ngettext("{count} day closed · Enter: show it (P there prints it again)",
                                  "{count} days closed · Enter: show one (P there prints it "
                                  "again)", len(reports)).format(count=len(reports)))
        else:
            state.update(_("No day has been closed yet (Z on the Reports screen closes one)."))
        table.focus()

    def on_data_table_row_selected(self, event: DataTable.RowSelected) -> None:
        event.stop()  # Enter on the table: the row under the cursor
        self.action_open()

    def action_open(self) -> None:
        table = self.query_one("#closed-table", DataTable)
        if not self.reports or table.cursor_row is None:
            return
        row = min(max(table.cursor_row, 0), len(self.reports) - 1)
        self.dismiss(self.reports[row])
