"""Sale: the amount (shown as VND while typed), an optional description and item list; Enter
charges. Amount limits are checked here, before any scan."""

from __future__ import annotations

from collections.abc import Iterable
from typing import ClassVar

from textual import on, work
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.widget import Widget
from textual.widgets import DataTable, Input, Label, Static

from pos_terminal.base.i18n import N_, _, ngettext
from pos_terminal.base.money import format_vnd
from pos_terminal.base.paths import shown_path
from pos_terminal.tui.messages import CodeScanned
from pos_terminal.tui.sales import NextSale, Sale, SaleItem
from pos_terminal.tui.screens.base import PosScreen
from pos_terminal.tui.widgets.amount import AmountField
from pos_terminal.tui.widgets.line import Line, cell
from pos_terminal.tui.widgets.phrases import PhraseLine
from pos_terminal.tui.widgets.table import MeasuredTable


class SaleScreen(PosScreen[None]):
    takes_codes = True  # a scanner's burst here is a read, never typing (tui/app.py)
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("enter", "charge", N_("Charge")),
        Binding("f2", "history", N_("History")),
        Binding("f3", "reports", N_("Reports")),
        Binding("f4", "banks", N_("Banks"), show=False),  # no room at 80 columns: see Reports
        Binding("f5", "show_qr", N_("QR")),
        Binding("f6", "items", N_("Items")),
        Binding("f7", "clear", N_("Clear")),
        Binding("f9", "demo_wallet", N_("Demo wallet"), show=False),
        Binding("ctrl+x", "remove_item", N_("Remove item"), show=False),
    ]

    def __init__(self) -> None:
        super().__init__()
        self.items: list[SaleItem] = []
        self._input_error = False  # the message is an error about what is typed

    def body(self) -> Iterable[Widget]:
        with Vertical(id="sale"):
            yield Label(_("Amount (type digits; Backspace corrects, Delete clears)"),
                        classes="hint")
            yield AmountField(self.pos.settings.checkout, id="amount")
            yield Input(placeholder=_("Description (optional)"), id="description",
                        max_length=100)
            with Horizontal(id="item-form", classes="hidden"):
                yield Input(placeholder=_("Item"), id="item-name", max_length=50)
                yield Input(placeholder=_("Price"), id="item-price", restrict=r"[0-9]*",
                            max_length=12)
                yield Input(placeholder=_("Qty"), id="item-qty", restrict=r"[0-9]*",
                            max_length=4, value="1")
            yield MeasuredTable(id="items", classes="hidden", cursor_type="row", zebra_stripes=True)
            yield PhraseLine("", id="sale-message")
            yield PhraseLine("", id="demo-wallet")
            yield Line("", id="sale-today")

    def on_mount(self) -> None:
        table = self.query_one("#items", DataTable)
        table.add_columns(_("Item"), _("Price"), _("Qty"), _("Total"))
        self.query_one("#amount", AmountField).focus()
        self._show_demo_wallet()
        self.show_takings()

    def keep_state(self) -> tuple[int, str, str]:
        message = self.query_one("#sale-message", Static)
        return (self.query_one("#amount", AmountField).amount,
                self.query_one("#description", Input).value, str(message.content))

    def restore_state(self, state: tuple[int, str, str]) -> None:
        amount, description, _message = state
        self.query_one("#description", Input).value = description
        self._refresh_items()
        if not self.items:
            self.query_one("#amount", AmountField).amount = amount
        else:
            self.query_one("#item-form").remove_class("hidden")
            self.query_one("#items").remove_class("hidden")

    # ---- the sale -----------------------------------------------------------------------
    def current_sale(self) -> Sale:
        return Sale(self.query_one("#amount", AmountField).amount,
                    self.query_one("#description", Input).value.strip(), tuple(self.items))

    def say(self, text: str, error: bool = False, *, about_input: bool = False) -> None:
        """`about_input`: an error about what is typed (a limit, an item field), which goes as
        soon as the cashier changes it; others (a refused key, a code read too early) stay."""
        message = self.query_one("#sale-message", Static)
        message.update(text)
        message.set_class(error, "error")
        self._input_error = error and about_input

    def action_charge(self) -> None:
        sale = self.current_sale()
        field = self.query_one("#amount", AmountField)
        problem = field.problem()
        if problem is not None:
            self.say(str(problem), error=True, about_input=True)
            field.focus()
            return
        self.say("")
        self.charge_sale(sale)

    def charge_sale(self, sale: Sale) -> None:
        """Pay for `sale`: Pay, then (its answer) Result."""
        from pos_terminal.tui.screens.pay import PayScreen

        self.app.push_screen(PayScreen(sale), self._next_sale)

    def _next_sale(self, next_sale: NextSale | None) -> None:
        """Pay's (or Show QR's) answer, the Result's: None when the cashier cancelled before a
        code was read (the sale stays as typed). Runs before any key typed after the one that
        closed the Result (tui/keys.py), so those keys land in the next sale's amount; after
        the redraw when the language changed meanwhile (F8 on the Result)."""
        self.once_drawn(lambda: self._take_next_sale(next_sale))

    def _take_next_sale(self, next_sale: NextSale | None) -> None:
        try:
            if next_sale is None:
                return
            if next_sale.retry:
                self.charge_sale(self.current_sale())
                return
            self.action_clear()
            if next_sale.digits:
                self.query_one("#amount", AmountField).amount = int(next_sale.digits)
            self.show_takings()
        finally:
            self.pos.keys.handed_over()  # the keys typed after the Result's own go on

    @work(thread=True, group="takings", exclusive=True, exit_on_error=False)
    def show_takings(self) -> None:
        """The open day's takings (what the X report counts: since the last Z report), under
        the sale."""
        try:
            report = self.pos.counter.reports.x()
        except Exception:  # a busy or unreadable journal: the line stays as it was
            return
        # what the X report counts: since the last Z, not the calendar day (issue 32, item 6)
        text = ngettext("Since the last Z: {count} payment · {amount}",
                        "Since the last Z: {count} payments · {amount}",
                        report.sales_count).format(count=report.sales_count,
                                                   amount=format_vnd(report.net_amount))
        self.app.call_from_thread(self._takings, text)

    def _takings(self, text: str) -> None:
        for line in self.query("#sale-today").results(Line):  # none while closing
            line.update(text)

    def on_screen_resume(self) -> None:
        self._show_demo_wallet()
        self.show_takings()  # a Z closed (or a refund made) meanwhile changes them

    def action_clear(self) -> None:
        self.items = []
        self._refresh_items()
        amount = self.query_one("#amount", AmountField)
        amount.amount = 0
        self.query_one("#description", Input).value = ""
        self.say("")
        amount.focus()

    def on_code_scanned(self, message: CodeScanned) -> None:
        message.stop()
        self.say(_("Code {code} read before a payment was started: press Enter to charge the "
                   "amount, then scan again.").format(code=message.code.masked), error=True)

    @on(AmountField.Refused)
    def _refused_key(self, event: AmountField.Refused) -> None:
        self.say(event.text, error=True)

    @on(AmountField.Changed)
    @on(Input.Changed)
    def _input_changed(self) -> None:
        """What the cashier typed changed: an error about the old input no longer applies."""
        if self._input_error:
            self.say("")

    @on(Input.Submitted, "#description")
    def _description_done(self) -> None:
        self.action_charge()

    # ---- items --------------------------------------------------------------------------
    def action_items(self) -> None:
        form = self.query_one("#item-form")
        form.remove_class("hidden")
        self.query_one("#items").remove_class("hidden")
        self.query_one("#item-name", Input).focus()
        self.say(_("Item: name, Tab, price, Tab, quantity, Enter adds it. Ctrl+X removes the "
                   "selected item."))

    @on(Input.Submitted, "#item-name, #item-price, #item-qty")
    def _add_item(self) -> None:
        name = self.query_one("#item-name", Input).value.strip()
        price_text = self.query_one("#item-price", Input).value
        qty_text = self.query_one("#item-qty", Input).value or "1"
        if not name:
            self.say(_("Give the item a name, then Enter."), error=True, about_input=True)
            self.query_one("#item-name", Input).focus()
            return
        if not price_text or int(price_text) <= 0:
            self.say(_("Type the item's price in đồng (digits), then Enter."), error=True,
                     about_input=True)
            self.query_one("#item-price", Input).focus()
            return
        if int(qty_text) <= 0:
            self.say(_("The quantity must be at least 1."), error=True, about_input=True)
            self.query_one("#item-qty", Input).focus()
            return
        self.items.append(SaleItem(name, int(price_text), int(qty_text)))
        self._refresh_items()
        for field_id, value in (("#item-name", ""), ("#item-price", ""), ("#item-qty", "1")):
            self.query_one(field_id, Input).value = value
        self.query_one("#item-name", Input).focus()
        self.say(_("Added {name}. Next item, or Enter on the description to charge.").format(
            name=name))

    def action_remove_item(self) -> None:
        table = self.query_one("#items", DataTable)
        if self.items and 0 <= table.cursor_row < len(self.items):
            removed = self.items.pop(table.cursor_row)
            self._refresh_items()
            self.say(_("Removed {name}.").format(name=removed.name))

    def _refresh_items(self) -> None:
        table = self.query_one("#items", DataTable)
        table.clear()
        for item in self.items:
            table.add_row(cell(item.name), format_vnd(item.price), str(item.quantity),
                          format_vnd(item.total))
        amount = self.query_one("#amount", AmountField)
        amount.locked = bool(self.items)
        if self.items:
            amount.amount = sum(item.total for item in self.items)
        else:
            self.query_one("#item-form").add_class("hidden")
            table.add_class("hidden")

    # ---- navigation ---------------------------------------------------------------------
    def action_history(self) -> None:
        from pos_terminal.tui.screens.history import HistoryScreen

        self.app.push_screen(HistoryScreen())

    def action_reports(self) -> None:
        from pos_terminal.tui.screens.reports import ReportsScreen

        self.app.push_screen(ReportsScreen())

    def action_banks(self) -> None:
        from pos_terminal.tui.screens.banks import BanksScreen

        self.app.push_screen(BanksScreen())

    def action_show_qr(self) -> None:
        from pos_terminal.tui.screens.show_qr import ShowQrScreen

        sale = self.current_sale()  # the order starts from this sale's amount and description
        self.app.push_screen(ShowQrScreen(sale.amount, sale.description), self._next_sale)

    def action_demo_wallet(self) -> None:
        demo = self.pos.demo
        if demo is not None:
            demo.cycle()
            self._show_demo_wallet()

    def _show_demo_wallet(self) -> None:
        demo = self.pos.demo
        label = self.query_one("#demo-wallet", Static)
        if demo is None:
            label.display = False
            return
        # F9 picks the demo's next customer (each with a wallet and what it does)
        text = _("Demo: the customer is {customer}  (F9: the next customer)").format(
            customer=demo.describe())
        if demo.folder is not None:
            text += "\n" + _("Demo files (CSV exports, printed slips as pictures): "
                             "{folder}").format(folder=shown_path(demo.folder))
        label.update(text)
