"""One payment from the moment its code is read: the Checkout call runs in an App-level worker
thread, so it outlives the screen changes (Pay -> Progress -> Result) it drives."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field

from pos_terminal.checkout import Checkout, PaymentState, PaymentView
from pos_terminal.tui.screens.sale import Sale
from pos_terminal.wallet.messages import Item

UNRESOLVED = frozenset({PaymentState.SUBMITTING, PaymentState.PROCESSING, PaymentState.UNKNOWN})


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


def charge(checkout: Checkout, run: PaymentRun, code: str,
           on_progress: Callable[[PaymentView], None]) -> PaymentView:
    """Blocking: the single charge and its polling (Checkout.pay), for a worker thread."""
    items = tuple(Item(itemid=str(n + 1), itemname=i.name, itemprice=i.price,
                       itemquantity=i.quantity) for n, i in enumerate(run.sale.items))
    return checkout.pay(run.sale.amount, code, description=run.sale.description, items=items,
                        on_progress=on_progress, cancel=run.cancel,
                        cashier_id=run.cashier_id)
