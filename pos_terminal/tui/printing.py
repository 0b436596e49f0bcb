"""Receipts from the terminal UI: a key (R on Result, P / N in the payment detail) prints in a
worker through `Counter.print_receipt`; `[printer] auto` is the counter's receipt printer
listener. Either way the counter publishes ReceiptPrinting / ReceiptPrinted, which the App
passes to the screen on top as `ReceiptUpdate` (PosApp.on_pos_app_counter_news)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from pos_terminal.counter import Counter, PrintOutcome

if TYPE_CHECKING:
    from textual.app import App

__all__ = ["PrintOutcome", "start_print"]


def start_print(app: App[None], counter: Counter, subject_id: str, *,
                cashier_id: str | None) -> None:
    """Print in a worker thread; the UI never waits for the printer. The outcome comes back as
    the counter's ReceiptPrinted event."""

    def work() -> None:
        counter.receipts.print(subject_id, cashier_id=cashier_id)

    app.run_worker(work, thread=True, group="receipt", exit_on_error=False)
