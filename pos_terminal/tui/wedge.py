"""Keyboard-wedge scanners seen from the App: every printable key goes through hardware's
WedgeDetector (pure timing logic) before any widget sees it, so a burst ending in Enter becomes
a scan and never lands in a field, while a person's keys are replayed in order."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from textual import events

from hardware import WedgeDetector

NON_PRINTABLE = "\x00"


@dataclass
class KeyDecision:
    """What to do with the keys the wedge held, once one more key came."""

    release: list[events.Key] = field(default_factory=list)  # replay these to the UI, in order
    scan: str | None = None                                    # a complete scanner burst
    passthrough: bool = True                                   # also deliver the current key
    burst: list[events.Key] = field(default_factory=list)    # the scan's keys, Enter included


class KeyWedge:
    """Holds back keys while they might be a scanner burst. `feed` is called for every key with
    its time (seconds, monotonic); `flush_due` after the inter-key threshold has passed."""

    def __init__(self, max_interkey_ms: float, min_length: int,
                 detector_factory: Callable[[float, int], WedgeDetector] | None = None) -> None:
        make = detector_factory or (lambda ms, n: WedgeDetector(max_interkey_ms=ms, min_length=n))
        self.threshold_s = max_interkey_ms / 1000
        self._detector = make(max_interkey_ms, min_length)
        self._held: list[events.Key] = []
        self._last_t = 0.0

    @property
    def holding(self) -> bool:
        return bool(self._held)

    @property
    def last_time(self) -> float:
        return self._last_t

    def feed(self, event: events.Key, t: float) -> KeyDecision:
        char = event.character
        is_enter = event.key == "enter"
        if is_enter and not self._held:
            return KeyDecision()
        if not is_enter and (char is None or not event.is_printable):
            # A navigation or function key: whatever was held was a person typing. The detector
            # releases its buffer on any non-printable character; ours is not delivered twice.
            if not self._held:
                return KeyDecision()
            released = self._detector.feed(NON_PRINTABLE, t).chars
            return KeyDecision(release=self._take(len(released) - 1))
        self._held.append(event)
        self._last_t = t
        verdict = self._detector.feed("\n" if is_enter else char or "", t)
        if verdict.kind == "scan":
            burst, self._held = self._held, []
            return KeyDecision(scan=verdict.text, passthrough=False, burst=burst)
        if verdict.kind == "release":
            return KeyDecision(release=self._take(len(verdict.chars)), passthrough=False)
        return KeyDecision(passthrough=False)

    def flush_due(self, now: float) -> list[events.Key]:
        """Keys to replay when no key followed within the threshold."""
        if not self._held:
            return []
        released = self._detector.flush(max(now, self._last_t + 2 * self.threshold_s))
        return self._take(len(released))

    def _take(self, count: int) -> list[events.Key]:
        # The detector decides how many held characters were typed by a person; they are the
        # oldest ones. The rest stay held (they may be the start of a burst).
        taken, self._held = self._held[:count], self._held[count:]
        return taken
