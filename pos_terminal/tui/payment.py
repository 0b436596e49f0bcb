"""One payment from the moment its code is read, as the payment controller (tui/payments.py)
follows it: the sale, the code's last digits, the latest view, the waiting time, and the
screen that owns it (the one its news is delivered to)."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field

from textual.message_pump import MessagePump

from pos_terminal.counter import UNRESOLVED
from pos_terminal.counter.types import PaymentView
from pos_terminal.tui.sales import Sale


@dataclass
class PaymentRun:
    sale: Sale
    code_last4: str
    source: str
    cashier_id: str | None = None  # who was signed in when the code was read
    clock: Callable[[], float] = time.monotonic
    started: float = field(default_factory=time.monotonic)
    cancel: threading.Event = field(default_factory=threading.Event)
    view: PaymentView | None = None
    finished: bool = False
    ended: float | None = None  # when waiting stopped: elapsed time freezes there
    sale_id: int = 0  # Counter.start_sale: the counter's events about this payment carry it
    owner: MessagePump | None = field(default=None, compare=False, repr=False)

    @property
    def elapsed_s(self) -> float:
        return (self.ended if self.ended is not None else self.clock()) - self.started

    def finish(self) -> None:
        self.finished, self.ended = True, self.clock()

    def restart(self) -> None:
        self.finished, self.ended, self.started = False, None, self.clock()

    @property
    def unresolved(self) -> bool:
        return self.view is not None and self.view.state in UNRESOLVED
