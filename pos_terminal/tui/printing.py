"""Receipts from the terminal UI: a key (R on Result, P / N in the payment detail) prints in a
worker through `counter.receipts.print`; `[printer] auto` is the counter's receipt printer
listener. Either way the counter publishes ReceiptPrinting / ReceiptPrinted, which the
`ReceiptDesk` passes as `ReceiptUpdate` to every screen that shows that receipt."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from pos_terminal.counter import Counter, PrintOutcome, ReceiptPrinted, ReceiptPrinting
from pos_terminal.tui.messages import ReceiptUpdate

if TYPE_CHECKING:
    from textual.app import App

__all__ = ["PrintOutcome", "ReceiptDesk"]


class ReceiptDesk:
    """The receipts of this terminal: which are printing, the last print of each (a Result
    drawn again, after F8 or on return, shows it), and whom to tell how a print went."""

    def __init__(self, app: App[None], counter: Callable[[], Counter],
                 cashier_id: Callable[[], str | None]) -> None:
        self._app = app
        self._counter = counter
        self._cashier_id = cashier_id
        self.printing: set[str] = set()
        self.last: dict[str, PrintOutcome] = {}

    def print(self, subject_id: str) -> None:
        """Print the receipt of a settled payment or refund in a worker thread, by the cashier
        signed in; the UI never waits for the printer. The outcome comes back as the counter's
        ReceiptPrinted event (`news`)."""
        self.printing.add(subject_id)
        counter, cashier_id = self._counter(), self._cashier_id()

        def work() -> None:
            counter.receipts.print(subject_id, cashier_id=cashier_id)

        self._app.run_worker(work, thread=True, group="receipt", exit_on_error=False)

    def news(self, event: ReceiptPrinting | ReceiptPrinted) -> None:
        if isinstance(event, ReceiptPrinting):
            self.printing.add(event.subject_id)
            self._tell(ReceiptUpdate(event.subject_id, event.app_trans_id, None))
            return
        outcome = event.outcome
        self.printing.discard(outcome.subject_id)
        self.last[outcome.subject_id] = outcome
        self._tell(ReceiptUpdate(outcome.subject_id, event.app_trans_id, outcome))

    def _tell(self, message: ReceiptUpdate) -> None:
        """To every screen that shows this receipt, on top or not; none: a notification."""
        shown = [screen for screen in self._app.screen_stack
                 if _shows(screen, message.subject_id, message.app_trans_id)]
        for screen in shown:
            screen.post_message(message)
        outcome = message.outcome
        if not shown and outcome is not None:  # printed from elsewhere (`[printer] auto`)
            self._app.notify(outcome.message,
                             severity="information" if outcome.printed else "error",
                             markup=False, timeout=10)


def _shows(screen: object, subject_id: str, app_trans_id: str) -> bool:
    """PosScreen.shows_receipt, asked without importing the screens (they reach this module
    through tui/host.py: a circle)."""
    shows = getattr(screen, "shows_receipt", None)
    return callable(shows) and bool(shows(subject_id, app_trans_id))
