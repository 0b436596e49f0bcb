"""wedge: a USB scanner in keyboard mode, fed by the UI (which owns the keyboard)."""

from __future__ import annotations

import time

from hardware.acceptance import ReadAcceptor
from hardware.sources.base import BaseSource
from hardware.wedge import WedgeDetector, WedgeVerdict


class WedgeSource(BaseSource):
    """The UI hands it every key (`feed_key`) or a whole scanned line (`feed_text`).

    Accepted codes come back through on_event like any other source; `feed_key` returns the
    detector's verdict so the UI can deliver released characters as ordinary typing.
    """

    def __init__(self, acceptor: ReadAcceptor, detector: WedgeDetector | None = None,
                 spec: str = "wedge") -> None:
        super().__init__(spec, acceptor)
        self.detector = detector or WedgeDetector()

    def _start_threads(self) -> None:
        self._set_status("running", "listening for scanner key bursts")
        self._threads = []

    def feed_text(self, text: str) -> None:
        """A complete scan (the characters before Enter)."""
        if self._on_event is None or self._stop.is_set():
            return
        from hardware.events import Decoded

        self._offer([Decoded(text.strip(), "unknown")], confirmed=True)

    def feed_key(self, char: str, t: float | None = None) -> WedgeVerdict:
        verdict = self.detector.feed(char, time.monotonic() if t is None else t)
        if verdict.kind == "scan":
            self.feed_text(verdict.text)
        return verdict

    def flush(self, t: float | None = None) -> list[str]:
        return self.detector.flush(time.monotonic() if t is None else t)
