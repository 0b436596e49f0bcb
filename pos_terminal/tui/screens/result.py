"""Result: an unmistakable full-screen success or failure. It stays until the cashier
acknowledges it: Enter, Esc or Space returns to Sale; a digit returns to Sale and starts the
next amount with it (its answer, NextSale, carries the digit; the keys after it go to Sale once
it has closed, tui/keys.py); other keys are ignored."""

from __future__ import annotations

from collections.abc import Iterable

from textual import events
from textual.containers import Vertical
from textual.widget import Widget

from pos_terminal.base.i18n import _
from pos_terminal.base.money import format_vnd
from pos_terminal.counter import PrintOutcome
from pos_terminal.tui.messages import CodeScanned, ReceiptUpdate
from pos_terminal.tui.result_summary import ResultSummary
from pos_terminal.tui.sales import NextSale
from pos_terminal.tui.screens.base import PosScreen
from pos_terminal.tui.widgets.line import Line
from pos_terminal.tui.widgets.phrases import PhraseLine

DISMISS_KEYS = frozenset({"enter", "escape", "space"})
DIGITS = "0123456789"


class ResultScreen(PosScreen[NextSale]):
    takes_codes = True  # a scanner's burst here is a read, never typing (tui/app.py)
    AUTO_FOCUS = None

    def __init__(self, outcome: ResultSummary) -> None:
        super().__init__(classes="success" if outcome.success else "failure")
        self.outcome = outcome

    def body(self) -> Iterable[Widget]:
        with Vertical(id="result"):
            yield Line(self.outcome.headline, id="result-headline")
            yield Line(format_vnd(self.outcome.amount), id="result-amount")
            for line in self.outcome.lines:
                yield PhraseLine(line, classes="result-line")
            if self.outcome.receipt_id is not None:
                yield PhraseLine("", id="result-receipt")
                yield PhraseLine(_("R: print the receipt · Enter: next sale · or type the next "
                                   "amount"), id="result-hint")
            elif self.outcome.retry:
                # T charges the same sale again as a new order: a declined order is over
                yield PhraseLine(_("T: try again as a new order · Enter: next sale · or type "
                                   "the next amount"), id="result-hint")
            else:
                yield PhraseLine(_("Enter: next sale · or type the next amount"),
                                 id="result-hint")

    def on_mount(self) -> None:
        self.pos.refresh_pending()
        receipt_id = self.outcome.receipt_id
        receipts = self.pos.receipts
        if receipt_id in receipts.printing:
            self._show_receipt(_("Printing the receipt…"), error=False)
        elif receipt_id is not None and receipt_id in receipts.last:
            self.receipt_done(receipts.last[receipt_id])

    def keep_state(self) -> None:
        if self.outcome.view is not None:
            self.outcome = ResultSummary.from_view(self.outcome.view)

    def on_key(self, event: events.Key) -> None:
        if event.key in ("f8", "f12"):
            return  # the language switch redraws this result; sign-out leaves it (PosApp)
        event.stop()
        receipt_id = self.outcome.receipt_id
        if event.key in ("r", "R") and receipt_id is not None:
            if receipt_id not in self.pos.receipts.printing:
                self._show_receipt(_("Printing the receipt…"), error=False)
                self.pos.receipts.print(receipt_id)
        elif event.key in ("t", "T") and self.outcome.retry:
            self.back_to_sale(NextSale(retry=True))  # Sale charges the same sale, a new order
        elif event.key in DISMISS_KEYS:
            self.back_to_sale(NextSale())
        elif event.character is not None and event.character in DIGITS:
            self.back_to_sale(NextSale(digits=event.character))  # Sale's amount starts with it

    def on_code_scanned(self, message: CodeScanned) -> None:
        message.stop()  # a late double read of the phone that was just charged

    def shows_receipt(self, subject_id: str, app_trans_id: str) -> bool:
        return subject_id == self.outcome.receipt_id

    def on_receipt_update(self, message: ReceiptUpdate) -> None:
        if message.subject_id != self.outcome.receipt_id:
            return
        message.stop()
        if message.outcome is None:
            self._show_receipt(_("Printing the receipt…"), error=False)
        else:
            self.receipt_done(message.outcome)

    def _show_receipt(self, text: str, *, error: bool) -> bool:
        for line in self.query("#result-receipt").results(Line):  # none while closing
            line.update(text)
            line.set_class(error, "receipt-error")
            return True
        return False

    def receipt_done(self, outcome: PrintOutcome) -> bool:
        """Says "printed" only when the printer took the bytes; otherwise why not."""
        return outcome.subject_id == self.outcome.receipt_id and self._show_receipt(
            outcome.message, error=not outcome.printed)

    def back_to_sale(self, next_sale: NextSale) -> None:
        if self.is_current:
            self.pos.keys.handover()  # the keys after this one wait until Sale has the answer
            self.dismiss(next_sale)


def show_result(screen: PosScreen[NextSale | None], outcome: ResultSummary) -> None:
    """The payment's Result, pushed on top of `screen` (Pay, Show QR) once it is on top;
    `screen` then answers the one that opened it with the Result's answer (NextSale). No
    screen below comes up in between, so no key can reach the sale under it meanwhile."""

    def answered(next_sale: NextSale | None) -> None:
        screen.dismiss(next_sale)

    screen.when_on_top(lambda: screen.app.push_screen(ResultScreen(outcome), answered))
