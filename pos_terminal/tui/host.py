"""What the screens use of the App that hosts them (PosApp): typed here, so that no screen
imports the App, which imports the screens."""

from __future__ import annotations

from typing import TYPE_CHECKING, Protocol

if TYPE_CHECKING:
    from pos_terminal.config import Settings
    from pos_terminal.counter import Counter, PrintOutcome, ScannedCode, Scanner, SignedIn
    from pos_terminal.tui.demo import DemoController
    from pos_terminal.tui.payment import PaymentRun
    from pos_terminal.tui.sales import Sale


class CounterHost(Protocol):
    sale_finished: bool  # set by Result: Sale starts afresh when it comes back
    next_sale_digits: str  # a digit typed on Result: the next sale's amount starts with it
    receipts_printing: set[str]
    prints: dict[str, PrintOutcome]

    @property
    def settings(self) -> Settings: ...

    @property
    def counter(self) -> Counter: ...

    @property
    def demo(self) -> DemoController | None: ...

    @property
    def source(self) -> Scanner | None: ...

    @property
    def cashier_id(self) -> str | None: ...

    @property
    def scanner_label(self) -> str: ...

    def signed_in_as(self, signed: SignedIn) -> None: ...

    def print_receipt(self, subject_id: str) -> None: ...

    def refresh_pending(self) -> object: ...

    def start_payment(self, sale: Sale, code: ScannedCode) -> None: ...

    def follow_payment(self, run: PaymentRun) -> None: ...

    def give_up(self, run: PaymentRun) -> None: ...
