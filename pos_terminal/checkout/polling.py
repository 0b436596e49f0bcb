"""Poll schedule: short first intervals, backing off, repeating the last one until a deadline."""

from __future__ import annotations

import math
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
        """A deadline `seconds` from now (not a number, or negative: already passed)."""
        if not isinstance(seconds, int | float) or math.isnan(seconds) or seconds < 0:
            seconds = 0.0
        return cls(float(seconds), time.monotonic())

    def remaining(self) -> float:
        return self.seconds - (time.monotonic() - self.started)

    def elapsed(self) -> float:
        return time.monotonic() - self.started


#: Used in place of an interval that is not a positive finite number (nan, inf, <= 0).
FALLBACK_INTERVAL_S = 1.0


def _usable(value: object) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float):
        return FALLBACK_INTERVAL_S
    if not math.isfinite(value) or value <= 0:
        return FALLBACK_INTERVAL_S
    return float(value)


def intervals(schedule: Sequence[float]) -> Iterator[float]:
    """The configured intervals, then the last one forever (unusable values: 1 s)."""
    last = FALLBACK_INTERVAL_S
    for raw in schedule:
        value = _usable(raw)
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
