"""Banks: the service's bank list grouped by payment channel. Fits 80 columns: the channel is
its number in the table, named once in the line above it."""

from __future__ import annotations

from collections.abc import Iterable
from typing import ClassVar

from textual import work
from textual.binding import Binding, BindingType
from textual.widget import Widget
from textual.widgets import DataTable, Static

from pos_terminal.base.errors import cashier_message
from pos_terminal.base.i18n import N_, _
from pos_terminal.base.money import format_vnd
from pos_terminal.counter.types import BankList, pmc_name
from pos_terminal.tui.screens.base import PosScreen
from pos_terminal.tui.widgets.line import cell
from pos_terminal.tui.widgets.phrases import PhraseLine
from pos_terminal.tui.widgets.table import MeasuredTable

#: the payment channels in the cashier's words (the wallet's own names are English)
CHANNELS = {36: N_("Visa/Master/JCB"), 37: N_("Bank account"), 38: N_("Wallet"),
            39: N_("ATM card"), 41: N_("Visa/Master debit")}


def channel_name(pmcid: int) -> str:
    return _(CHANNELS[pmcid]) if pmcid in CHANNELS else pmc_name(pmcid)


class BanksScreen(PosScreen[None]):
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "app.pop_screen", N_("Back")),
        Binding("r", "reload", N_("Reload")),
    ]

    def body(self) -> Iterable[Widget]:
        yield PhraseLine(_("Asking the service for its bank list…"), id="banks-state")
        yield MeasuredTable(id="banks-table", cursor_type="row", zebra_stripes=True)

    def on_mount(self) -> None:
        self.query_one("#banks-table", DataTable).add_columns(
            _("Ch"), _("Code"), _("Bank"), _("Min"), _("Max"))
        self.action_reload()

    def action_reload(self) -> None:
        self.load()

    @work(thread=True, group="banks", exclusive=True, exit_on_error=False)
    def load(self) -> None:
        try:
            banks = self.pos.counter.payments.list_banks()
        except Exception as exc:
            text = cashier_message(exc)
            self.app.call_from_thread(self._error, text)
            return
        self.app.call_from_thread(self._fill, banks)

    def _error(self, text: str) -> None:
        state = self.query_one("#banks-state", Static)
        state.update(_("Bank list not available: {reason} Press R to try again.").format(
            reason=text))
        state.add_class("error")

    def _fill(self, banks: BankList) -> None:
        table = self.query_one("#banks-table", DataTable)
        table.clear()
        total = 0
        for pmcid, group in banks.banks_by_pmcid.items():
            for n, bank in enumerate(group):
                table.add_row(str(pmcid) if n == 0 else "", cell(bank.bankcode),
                              cell(bank.name), format_vnd(bank.minamount),
                              format_vnd(bank.maxamount))
                total += 1
        state = self.query_one("#banks-state", Static)
        state.remove_class("error")
        channels = " · ".join(f"{pmcid} {channel_name(pmcid)}" for pmcid in banks.banks_by_pmcid)
        state.update(_("{count} banks in {channels} channels (Ch): {names}").format(
            count=total, channels=len(banks.banks_by_pmcid), names=channels))
