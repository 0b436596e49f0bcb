"""Scan sources seen from the counter: any source (camera, pictures, evdev, serial, a wedge
burst the UI recognised) hands its reads to Counter.accept_code; its status becomes
ScannerStatus events."""

from __future__ import annotations

import queue
import threading
import time
from collections.abc import Callable
from typing import TYPE_CHECKING

from pos_terminal.base.reasons import Reason
from pos_terminal.config import Settings
from pos_terminal.counter.events import ScannerStatus
from pos_terminal.counter.payments import ScannedCode
from pos_terminal.counter.session import Counter

if TYPE_CHECKING:
    from hardware import ScanEvent, ScanSource, SourceStatus

SourceFactory = Callable[[], "ScanSource | None"]
OnCode = Callable[[ScannedCode], None]


def source_factory(settings: Settings, spec: str) -> SourceFactory:
    """`wedge` is the keyboard itself (the UI recognises bursts); anything else is opened
    through hardware.open_source with the configured decoder and code filter."""

    def make() -> ScanSource | None:
        if spec == "wedge":
            return None
        from hardware import CodeFilter, open_source

        scanner = settings.scanner
        return open_source(
            spec, decoder=scanner.decoder,
            code_filter=CodeFilter(settings.scan_alphabet, scanner.code_min_length,
                                   scanner.code_max_length),
            debounce_s=scanner.debounce_s, rescue=scanner.rescue)

    return make


def missing_device(spec: str) -> Reason | None:
    """What is missing for `spec` to work (its device node, file or folder), as the reason
    ``scanner.missing{node, device}`` (sentences/scanning.py words it for the screen or the
    shell); None when it is there or needs no device (hardware's check). `pay --scanner` and
    headless stop on it (exit 2); the UI tells the cashier instead."""
    if spec == "wedge":
        return None
    from hardware import missing_device as hardware_missing_device

    missing = hardware_missing_device(spec)
    if missing is None:
        return None
    return Reason.of("scanner.missing", node=missing.node, device=missing.device)


class Scanner:
    """One scan source driven for a Counter: reads become CodeRead events (and `on_code`),
    status changes ScannerStatus events; `wait_for_code` for a front end that asks for one.
    Without a counter (a code read before the journal is opened) it only reads."""

    def __init__(self, source: ScanSource, counter: Counter | None = None) -> None:
        self.counter = counter
        self.source = source
        self._codes: queue.Queue[ScannedCode] = queue.Queue()
        self._on_code: OnCode | None = None
        self._last_state: str | None = None

    @property
    def spec(self) -> str:
        return self.source.spec

    def start(self, on_code: OnCode | None = None, *, paused: bool = False) -> None:
        self._on_code = on_code
        self.source.start(self._read, self._status)
        if paused:
            self.source.pause()

    def _read(self, event: ScanEvent) -> None:
        code: ScannedCode | None = ScannedCode(event.text, event.source)
        if self.counter is not None:
            code = self.counter.accept_code(event.text, event.source)
        if code is None:
            return
        self._codes.put(code)
        if self._on_code is not None:
            self._on_code(code)

    def _status(self, status: SourceStatus) -> None:
        previous, self._last_state = self._last_state, status.state
        lost = status.state in ("disconnected", "reconnecting") and previous != status.state
        if self.counter is None:
            return
        self.counter.bus.publish(ScannerStatus(
            self.spec, status.state, status.detail, status.hint, status.fps, status.decode_ms,
            lost))

    def status(self) -> SourceStatus:
        return self.source.status()

    def latest_frame(self) -> object:
        return self.source.latest_frame()

    def pause(self) -> None:
        self.source.pause()

    def resume(self) -> None:
        self.source.resume()

    def stop(self) -> None:
        self.source.stop()

    def wait_for_code(self, timeout_s: float, stop: threading.Event | None = None, *,
                      keep_earlier: bool = False) -> ScannedCode | None:
        """The next code read from now on (a code read while nobody was paying is stale), or
        None after `timeout_s` or once `stop` is set. The source reads only while waiting.
        `keep_earlier`: a code read since start() counts (a command that starts the scanner
        to wait for one code at once: a picture already in an images: folder is read first)."""
        while not keep_earlier and not self._codes.empty():
            self._codes.get_nowait()
        self.source.resume()
        end = time.monotonic() + timeout_s
        try:
            while stop is None or not stop.is_set():
                try:
                    return self._codes.get(timeout=max(0.0, min(0.2, end - time.monotonic())))
                except queue.Empty:
                    if time.monotonic() >= end:
                        break
            return None
        finally:
            self.source.pause()
