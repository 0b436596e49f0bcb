"""Opening a counter for a front end: the Checkout, the journal's first read, the listeners."""

from __future__ import annotations

from collections.abc import Iterable

from pos_terminal.config import Settings
from pos_terminal.counter.listeners import LISTENERS, attach
from pos_terminal.counter.session import Counter


def open_counter(settings: Settings, *, listeners: Iterable[str] = LISTENERS) -> Counter:
    """A Counter with every listener of `listeners` attached. Raises JournalError (the journal
    cannot be opened) and RsaKeyError (the configured key) with their sentences."""
    counter = Counter(settings)
    try:
        attach(counter, listeners)
    except BaseException:
        counter.close()
        raise
    return counter
