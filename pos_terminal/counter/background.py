"""Resolving open payments while a counter with no screen waits for work (headless mode, the
Terminal API), as the UI does: payments given up on, late charges to return."""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable

from pos_terminal.counter.session import Counter

log = logging.getLogger(__name__)

#: How often a counter with no screen resolves open payments (and returns late charges).
RECONCILE_EVERY_S = 30.0


def reconcile_every(counter: Counter, done: threading.Event, *,
                    every_s: Callable[[], float] = lambda: RECONCILE_EVERY_S,
                    busy: Callable[[], bool] = lambda: False) -> None:
    """Until `done`: a reconciliation pass every `every_s()` seconds, skipped while `busy()`."""
    while not done.wait(every_s()):
        if busy():
            continue
        try:
            counter.reconcile(cancel=done)
        except Exception:
            log.exception("background reconciliation failed")


def start_reconciler(counter: Counter, done: threading.Event, name: str, *,
                     every_s: Callable[[], float] = lambda: RECONCILE_EVERY_S,
                     busy: Callable[[], bool] = lambda: False) -> threading.Thread:
    thread = threading.Thread(target=reconcile_every, args=(counter, done),
                              kwargs={"every_s": every_s, "busy": busy}, name=name, daemon=True)
    thread.start()
    return thread
