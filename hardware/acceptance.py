"""Which reads become events: the code filter, the two-frame rule for 1-D codes, the debounce."""

from __future__ import annotations

from collections.abc import Iterable

from hardware.events import LINEAR_SYMBOLOGIES, CodeFilter, Decoded


class ReadAcceptor:
    """Turns per-frame reads into accepted reads.

    - text the filter refuses (another barcode in view) is ignored;
    - a 1-D read counts only when the same text was read on an earlier, different frame less
      than `confirm_window_s` ago (a single misread frame never becomes an event);
    - the same text again while it keeps being seen (each sighting less than `debounce_s` after
      the previous one) is the same event: a phone held up for ten seconds is one scan.
    Not thread-safe: one acceptor per decoding thread.
    """

    def __init__(self, code_filter: CodeFilter | None = None, *, debounce_s: float = 3.0,
                 confirm_window_s: float = 1.5) -> None:
        self.code_filter = code_filter or CodeFilter()
        self.debounce_s = debounce_s
        self.confirm_window_s = confirm_window_s
        self._pending: dict[str, tuple[int, float]] = {}   # 1-D text -> (frame, time) first seen
        self._last_seen: dict[str, float] = {}             # accepted text -> last sighting

    def offer(self, reads: Iterable[Decoded], now: float, frame: int = 0,
              confirmed: bool = False) -> list[Decoded]:
        """Reads of one frame (or one scanner line when `confirmed`) -> reads to emit."""
        accepted: list[Decoded] = []
        for read in sorted(reads, key=lambda r: r.symbology in LINEAR_SYMBOLOGIES):
            if not self.code_filter.accepts(read.text):
                continue
            if not confirmed and read.symbology in LINEAR_SYMBOLOGIES:
                seen = self._pending.get(read.text)
                if seen is None or seen[0] == frame or now - seen[1] > self.confirm_window_s:
                    if seen is None or now - seen[1] > self.confirm_window_s:
                        self._pending[read.text] = (frame, now)
                    continue
                self._pending[read.text] = (frame, now)
            last = self._last_seen.get(read.text)
            self._last_seen[read.text] = now
            if last is not None and now - last < self.debounce_s:
                continue
            if any(a.text == read.text for a in accepted):
                continue
            accepted.append(read)
        self._forget(now)
        return accepted

    def reset_pending(self) -> None:
        """Drop half-confirmed 1-D reads (after a pause the next frames start afresh)."""
        self._pending.clear()

    def _forget(self, now: float) -> None:
        if len(self._pending) > 64:
            self._pending = {t: v for t, v in self._pending.items()
                             if now - v[1] <= self.confirm_window_s}
        if len(self._last_seen) > 256:
            self._last_seen = {t: v for t, v in self._last_seen.items()
                               if now - v < self.debounce_s}
