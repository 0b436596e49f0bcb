"""The real App against the in-process emulator (the `settings` fixture of tests/conftest.py),
with a real Checkout and journal. Keys carry explicit timestamps (as the terminal driver stamps
them) so a "person typing" and a "scanner burst" are exact whatever the load on the machine."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass

import pytest
import requests

from pos_terminal.checkout import Checkout
from pos_terminal.config import Settings
from pos_terminal.counter import Counter, open_checkout
from pos_terminal.counter.listeners import attach
from pos_terminal.tui.app import PosApp

HUMAN_GAP_S = 0.180      # a fast typist: well above the 35 ms wedge threshold
SCANNER_GAP_S = 0.004    # a USB scanner types a character every few milliseconds


@dataclass
class KeyClock:
    """The timeline keys are stamped with (Key.time, as a terminal driver stamps them)."""

    now: float = 0.0

    def __post_init__(self) -> None:
        self.now = time.monotonic()

    def next(self, gap: float) -> float:
        self.now = max(self.now + gap, time.monotonic())
        return self.now

    def burst(self, count: int, gap: float) -> list[float]:
        """`count` stamps exactly `gap` apart, from the next one on: a burst's rhythm is the
        device's, not the test's. (Stamped key by key with `next`, a test process that loses
        the CPU for longer than the wedge's threshold mid-burst would stretch a scanner's burst
        into a person's typing.)"""
        first = self.next(gap)
        stamps = [first + i * gap for i in range(count)]
        self.now = stamps[-1]
        return stamps


@pytest.fixture
def key_clock() -> KeyClock:
    return KeyClock()


@pytest.fixture
def checkout(settings: Settings) -> Iterator[Checkout]:
    with open_checkout(settings) as engine:
        yield engine


@pytest.fixture
def make_app(settings: Settings, checkout: Checkout) -> Iterator[Callable[..., PosApp]]:
    """The App on a Counter over the test's checkout, with the listeners every counter gets
    (open_counter's wiring: e.g. the receipt printer with `[printer] auto`)."""
    counters: list[Counter] = []

    def build(**kwargs: object) -> PosApp:
        kwargs.setdefault("background", False)
        chosen = kwargs.pop("settings", settings)
        counter = Counter(chosen, checkout)
        attach(counter)
        counters.append(counter)
        return PosApp(chosen, counter, **kwargs)

    yield build
    for counter in counters:
        counter.close()  # the checkout is the fixture's


def ledger(emulator: object) -> dict:
    base = emulator.base_url
    return requests.get(f"{base}/_emulator/ledger", timeout=5).json()
