"""The Textual messages the App posts to the screen on top; a screen that cares handles them
(and stops them), anything else bubbles back up to the App. No screen type is checked."""

from __future__ import annotations

from typing import TYPE_CHECKING

from textual.message import Message

from pos_terminal.counter import PrintOutcome, ScannedCode

if TYPE_CHECKING:
    from pos_terminal.tui.payment import PaymentRun
    from pos_terminal.tui.result_summary import ResultSummary


class CodeScanned(Message):
    """A payment code from any scan source. Unhandled, the App says no payment is waiting."""

    def __init__(self, code: ScannedCode) -> None:
        super().__init__()
        self.code = code


class ScannerReady(Message):
    """The scan source has started (paused): a screen waiting for a code resumes it."""


class PaymentUpdated(Message):
    """The payment in flight has a new view, or its waiting ended undecided."""

    def __init__(self, run: PaymentRun) -> None:
        super().__init__()
        self.run = run


class PaymentTakesLong(Message):
    """No answer within a moment: the screen that started the payment shows Progress."""

    def __init__(self, run: PaymentRun) -> None:
        super().__init__()
        self.run = run


class PaymentConcluded(Message):
    """The payment's outcome: the screens following it go to Result."""

    def __init__(self, run: PaymentRun, outcome: ResultSummary) -> None:
        super().__init__()
        self.run = run
        self.outcome = outcome


class ReceiptUpdate(Message):
    """A receipt is printing (`outcome` None) or its print ended. A screen it was printed from
    shows it (and stops it); unhandled, the App notifies the outcome."""

    def __init__(self, subject_id: str, app_trans_id: str,
                 outcome: PrintOutcome | None) -> None:
        super().__init__()
        self.subject_id = subject_id
        self.app_trans_id = app_trans_id
        self.outcome = outcome
