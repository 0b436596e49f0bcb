"""A listener module as a new one would be written: `register(counter)` subscribes to
PaymentSettled. The test wires it with one line."""

from __future__ import annotations

import queue

from pos_terminal.counter import Counter, PaymentSettled

SETTLED: queue.Queue[PaymentSettled] = queue.Queue()


def register(counter: Counter) -> None:
    counter.bus.subscribe(PaymentSettled, SETTLED.put, name="settled recorder")
