"""What the screens use of the App that hosts them (PosApp): typed here, so that no screen
imports the App, which imports the screens."""

from __future__ import annotations

from typing import TYPE_CHECKING, Protocol

if TYPE_CHECKING:
    from pos_terminal.config import Settings
    from pos_terminal.counter import Counter, Scanner, SignedIn
    from pos_terminal.tui.demo import DemoController
    from pos_terminal.tui.keys import KeyRouter
    from pos_terminal.tui.payments import PaymentController
    from pos_terminal.tui.printing import ReceiptDesk


class CounterHost(Protocol):
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

    @property
    def receipts(self) -> ReceiptDesk: ...

    def refresh_pending(self) -> object: ...

    @property
    def payments(self) -> PaymentController: ...

    @property
    def keys(self) -> KeyRouter: ...
