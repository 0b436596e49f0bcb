"""Result: an unmistakable full-screen success or failure. It stays until the cashier
acknowledges it: Enter, Esc or Space returns to Sale; a digit returns to Sale and starts the
next amount with it (the key is never lost); other keys are ignored."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field, replace

from textual import events
from textual.containers import Vertical
from textual.widget import Widget

from pos_terminal.base.i18n import _
from pos_terminal.counter import PrintOutcome
from pos_terminal.counter import outcome as verdict
from pos_terminal.counter.types import PaymentState, PaymentView
from pos_terminal.tui.format import format_vnd, vn_time
from pos_terminal.tui.messages import CodeScanned, ReceiptUpdate
from pos_terminal.tui.screens.base import PosScreen
from pos_terminal.tui.widgets.line import Line


@dataclass(frozen=True)
class Outcome:
    """What the Result screen shows; built from a PaymentView or from an error sentence."""

    success: bool
    headline: str
    amount: int
    lines: tuple[str, ...]
    receipt_id: str | None = None  # a settled payment: its receipt can be printed
    view: PaymentView | None = field(default=None, compare=False)  # to redraw in a language

    @classmethod
    def from_view(cls, view: PaymentView) -> Outcome:
        """By the one outcome rule (pos_terminal.checkout.verdict)."""
        return replace(cls._judge(view), view=view)

    @classmethod
    def _judge(cls, view: PaymentView) -> Outcome:
        judged = verdict.of_payment(view)
        if judged is verdict.Verdict.NEEDS_REVIEW:
            return cls(False, verdict.headline(view), view.amount, (
                view.message,
                _("Order: {app_trans_id}").format(app_trans_id=view.app_trans_id),
            ))
        if judged is verdict.Verdict.PAID and view.charged_late:
            return cls(True, verdict.headline(view), view.amount, (
                view.message,
                _("Transaction: {zp_trans_id}").format(zp_trans_id=view.zp_trans_id or "-"),
                _("Order: {app_trans_id}").format(app_trans_id=view.app_trans_id),
            ), receipt_id=view.app_trans_id)
        if view.state is PaymentState.SUCCEEDED:
            return cls(True, _("PAID"), view.amount, (
                _("Time: {time}").format(time=vn_time(view.updated_ms)),
                _("Transaction: {zp_trans_id}").format(zp_trans_id=view.zp_trans_id or "-"),
                _("Order: {app_trans_id}").format(app_trans_id=view.app_trans_id),
            ), receipt_id=view.app_trans_id)
        if view.abandoned and not view.is_final:
            return cls(False, _("GAVE UP WAITING: OUTCOME UNKNOWN"), view.amount, (
                view.message,
                _("Order: {app_trans_id}").format(app_trans_id=view.app_trans_id),
            ))
        if view.state in (PaymentState.PROCESSING, PaymentState.UNKNOWN,
                          PaymentState.SUBMITTING):
            return cls(False, _("NOT CONFIRMED YET"), view.amount, (
                view.message or _("The wallet service has not answered yet."),
                _("It is being checked in the background: see History before charging again."),
                _("Order: {app_trans_id}").format(app_trans_id=view.app_trans_id),
            ))
        return cls(False, _("NOT PAID"), view.amount, (
            view.message or _("The payment was declined."),
            _("Order: {app_trans_id}").format(app_trans_id=view.app_trans_id),
        ))

    @classmethod
    def from_error(cls, amount: int, message: str) -> Outcome:
        return cls(False, _("NOT PAID"), amount, (message,))


DISMISS_KEYS = frozenset({"enter", "escape", "space"})
DIGITS = "0123456789"


class ResultScreen(PosScreen):
    AUTO_FOCUS = None

    def __init__(self, outcome: Outcome) -> None:
        super().__init__(classes="success" if outcome.success else "failure")
        self.outcome = outcome

    def body(self) -> Iterable[Widget]:
        with Vertical(id="result"):
            yield Line(self.outcome.headline, id="result-headline")
            yield Line(format_vnd(self.outcome.amount), id="result-amount")
            for line in self.outcome.lines:
                yield Line(line, classes="result-line")
            if self.outcome.receipt_id is not None:
                yield Line("", id="result-receipt")
                yield Line(_("R: print the receipt · Enter: next sale · or type the next amount"),
                           id="result-hint")
            else:
                yield Line(_("Enter: next sale · or type the next amount"), id="result-hint")

    def on_mount(self) -> None:
        self.pos.sale_finished = True
        self.pos.refresh_pending()
        receipt_id = self.outcome.receipt_id
        if receipt_id in self.pos.receipts_printing:
            self._show_receipt(_("Printing the receipt…"), error=False)
        elif receipt_id is not None and receipt_id in self.pos.prints:
            self.receipt_done(self.pos.prints[receipt_id])

    def keep_state(self) -> None:
        if self.outcome.view is not None:
            self.outcome = Outcome.from_view(self.outcome.view)

    def on_key(self, event: events.Key) -> None:
        if event.key in ("f8", "f12"):
            return  # the language switch redraws this result; sign-out leaves it (PosApp)
        event.stop()
        receipt_id = self.outcome.receipt_id
        if event.key in ("r", "R") and receipt_id is not None:
            if receipt_id not in self.pos.receipts_printing:
                self._show_receipt(_("Printing the receipt…"), error=False)
                self.pos.print_receipt(receipt_id)
        elif event.key in DISMISS_KEYS:
            self.back_to_sale()
        elif event.character is not None and event.character in DIGITS:
            self.pos.next_sale_digits = event.character  # Sale starts its amount with it
            self.back_to_sale()

    def on_code_scanned(self, message: CodeScanned) -> None:
        message.stop()  # a late double read of the phone that was just charged

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

    def back_to_sale(self) -> None:
        if self.is_current:
            self.app.pop_screen()
