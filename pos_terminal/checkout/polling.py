"""Poll schedule: short first intervals, backing off, repeating the last one until a deadline."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass


@dataclass
class Deadline:
    seconds: float
    started: float

    @classmethod
    def start(cls, seconds: float) -> Deadline:
        return cls(seconds, time.monotonic())

    def remaining(self) -> float:
        return self.seconds - (time.monotonic() - self.started)

    def elapsed(self) -> float:
        return time.monotonic() - self.started


def intervals(schedule: Sequence[float]) -> Iterator[float]:
    """The configured intervals, then the last one forever."""
    last = 1.0
    for value in schedule:
        last = value
        yield value
    while True:
        yield last


def wait_next(deadline: Deadline, schedule: Iterator[float],
              cancel: threading.Event | None) -> bool:
    """Wait for the next poll. False when the deadline has passed or the wait was cancelled."""
    remaining = deadline.remaining()
    if remaining <= 0:
        return False
    seconds = min(next(schedule), remaining)
    if cancel is None:
        time.sleep(seconds)
        return True
    return not cancel.wait(seconds)
