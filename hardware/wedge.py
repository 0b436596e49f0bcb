"""Keyboard-wedge scanners: telling a scanner's key burst from a person typing.

A USB scanner in keyboard mode types the code as a burst of keys a few milliseconds apart and
ends it with Enter; a person types far slower. The UI feeds every character with its monotonic
time; the detector answers whether to hold it (maybe a scan), hand back a scan, or release held
characters to the UI as ordinary typing. Pure logic, no I/O.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

ENTER_KEYS = frozenset({"\n", "\r"})


@dataclass(frozen=True)
class WedgeVerdict:
    kind: Literal["buffered", "scan", "release"]
    text: str = ""     # the scanned code, for "scan"
    chars: str = ""    # characters typed by a person, for "release" (deliver them as keys)


class WedgeDetector:
    def __init__(self, max_interkey_ms: float = 35, min_length: int = 8) -> None:
        if max_interkey_ms <= 0 or min_length < 1:
            raise ValueError("wedge detector needs max_interkey_ms > 0 and min_length >= 1")
        self.max_interkey_s = max_interkey_ms / 1000
        self.min_length = min_length
        self._buffer: list[str] = []
        self._last: float | None = None

    def feed(self, char: str, t: float) -> WedgeVerdict:
        """One character (Enter as "\\n" or "\\r") at monotonic time `t` seconds."""
        gap_ok = self._last is not None and t - self._last <= self.max_interkey_s
        if char in ENTER_KEYS:
            held = "".join(self._buffer)
            self._buffer.clear()
            self._last = None
            if held and gap_ok and len(held) >= self.min_length:
                return WedgeVerdict("scan", text=held)
            return WedgeVerdict("release", chars=held + char)
        if len(char) != 1 or not char.isprintable():
            held = "".join(self._buffer)
            self._buffer.clear()
            self._last = None
            return WedgeVerdict("release", chars=held + char)
        if self._buffer and not gap_ok:
            held = "".join(self._buffer)
            self._buffer = [char]
            self._last = t
            return WedgeVerdict("release", chars=held)
        self._buffer.append(char)
        self._last = t
        return WedgeVerdict("buffered")

    def flush(self, t: float) -> list[str]:
        """Characters held longer than a scanner would pause: a person typed them.

        Call it from a timer (every ~20-50 ms); returns the characters to deliver, oldest first.
        """
        if self._buffer and self._last is not None and t - self._last > self.max_interkey_s:
            held = list(self._buffer)
            self._buffer.clear()
            self._last = None
            return held
        return []

    @property
    def pending(self) -> str:
        return "".join(self._buffer)
