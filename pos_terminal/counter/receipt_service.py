"""`counter.receipts`: the receipt of a settled payment or refund, printed at the counter (a key
in a front end, or `[printer] auto`) or as lines, and slips of totals. Printing is blocking and
never raises (counter/receipts.py says why a print failed). Its port is the journal file
itself: a print is journaled beside its payment (journal/receipt_prints.py)."""

from __future__ import annotations

import contextlib
from collections.abc import Callable
from typing import TYPE_CHECKING

from pos_terminal.config import Settings
from pos_terminal.counter.bus import EventBus
from pos_terminal.counter.events import ReceiptPrinted, ReceiptPrinting
from pos_terminal.counter.receipts import (
    PrintOutcome,
    print_for_counter,
    print_slip,
    slip_text,
)
from pos_terminal.journal import Journal

if TYPE_CHECKING:
    from pos_terminal.receipts import Receipt
    from pos_terminal.receipts.slips import Slip


class ReceiptService:
    """The receipts and slips of one counter."""

    def __init__(self, journal: Journal, settings: Settings, bus: EventBus,
                 at_counter: Callable[[], str | None]) -> None:
        self._journal = journal
        self._settings = settings
        self._bus = bus
        self._at_counter = at_counter

    def print(self, subject_id: str, *, cashier_id: str | None = None,
              app_trans_id: str | None = None) -> PrintOutcome:
        """Blocking, never raises: print the receipt of a settled payment or refund on
        `[printer] target` and journal the print (by `cashier_id`, else the cashier signed in
        here). Published as ReceiptPrinting, then ReceiptPrinted."""
        payment = app_trans_id or self._payment_of(subject_id)
        self._bus.publish(ReceiptPrinting(subject_id, payment))
        outcome = print_for_counter(self._journal, self._settings, subject_id,
                                    cashier_id=cashier_id or self._at_counter())
        self._bus.publish(ReceiptPrinted(outcome, payment))
        return outcome

    def slip(self, slip_id: str, slip: Slip) -> PrintOutcome:
        """Blocking, never raises: a slip of totals (shift settlement, X or Z report)."""
        return print_slip(self._settings, slip_id, slip)

    def slip_text(self, slip: Slip, width: int | None = None) -> tuple[str, ...]:
        """The slip as printed (the shop's header; `[printer] width` unless `width`)."""
        return slip_text(self._settings, slip, width)

    def lines(self, subject_id: str, language: str | None = None) -> Receipt:
        """The receipt of a settled payment or refund as lines (for the POS's own printer),
        in `language` (default the shop's). Raises UnknownReceipt (a LookupError) or NoReceipt
        (it moved no money)."""
        from pos_terminal.receipts import LABELS
        from pos_terminal.receipts.service import build_receipt

        return build_receipt(self._journal, self._settings, subject_id,
                             labels=LABELS[language or self._settings.terminal.language])

    def _payment_of(self, subject_id: str) -> str:
        """The payment a receipt belongs to (a refund's payment); the id itself when the
        journal cannot tell (the print then says why)."""
        with contextlib.suppress(Exception):
            if self._journal.find(subject_id) is None:
                return self._journal.get_refund(subject_id).app_trans_id
        return subject_id
