"""The configured scanner source of the terminal UI (a camera, an evdev or serial scanner; the
keyboard wedge needs none): opened in a worker so a missing device never stops the counter,
paused until a screen waits for a code (Pay resumes it), its codes posted to the App as
`SourceCode` (the App passes each to the screen on top), and its state in words for the Pay
screen's scanner line."""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

from babel.numbers import format_decimal
from textual.app import App
from textual.message import Message

from pos_terminal.base.i18n import _, current_language
from pos_terminal.counter import Counter, ScannedCode, Scanner, SourceFactory, missing_device
from pos_terminal.tui.format import scanner_words, source_name
from pos_terminal.tui.messages import ScannerReady


class SourceCode(Message):
    """A code the scanner source read (posted from its thread)."""

    def __init__(self, code: ScannedCode) -> None:
        super().__init__()
        self.code = code


class ScannerDesk:
    def __init__(self, app: App[Any], factory: SourceFactory | None,
                 counter: Callable[[], Counter], stopping: threading.Event) -> None:
        self._app = app
        self._factory = factory
        self._counter = counter
        self._stopping = stopping
        self._lock = threading.Lock()  # the worker publishing the source, the App stopping it
        self.source: Scanner | None = None

    def start(self) -> None:
        """Open the source in a worker thread, paused; screens waiting for a code hear of it
        (ScannerReady) and resume it."""
        if self._factory is not None:
            self._app.run_worker(self._open, thread=True, group="source", exit_on_error=False)

    def _open(self) -> None:  # a worker thread
        app, factory = self._app, self._factory
        assert factory is not None
        try:
            source = factory()
        except Exception as exc:  # a missing camera or device must not stop the counter
            app.call_from_thread(app.notify, _("Scanner not available: {error}. The keyboard "
                                               "wedge (USB scanner) still works.").format(
                                     error=exc), severity="error", timeout=10)
            return
        if source is None:
            return
        problem = missing_device(source.spec)
        if problem is not None:
            app.call_from_thread(
                app.notify, _("Scanner {spec} not available: {problem}. Tell your supervisor; "
                              "until it is fixed, a USB scanner that types like a keyboard "
                              "still works.").format(spec=source.spec, problem=problem),
                severity="error", timeout=30)
        scanner = Scanner(source, self._counter())
        scanner.start(self._read, paused=True)
        # Published only once started, so that stopping never meets a half-started source;
        # the App closed meanwhile: nobody else will stop it.
        with self._lock:
            closed = self._stopping.is_set()
            if not closed:
                self.source = scanner
        if closed:
            scanner.stop()
            return
        app.call_from_thread(self._started)

    def _started(self) -> None:
        for screen in self._app.screen_stack:  # a screen waiting for a code resumes it
            screen.post_message(ScannerReady())

    def _read(self, code: ScannedCode) -> None:  # the source's thread
        if not self._stopping.is_set():
            self._app.post_message(SourceCode(code))

    @property
    def label(self) -> str:
        """What the Pay screen says about the active scanner."""
        if self.source is None:
            return _("USB scanner ready (keyboard wedge)")
        status = self.source.status()
        state, detail = scanner_words(status.state, status.detail)
        parts = [f"{source_name(self.source.spec)}: {state}"]
        if status.hint:  # what to tell the customer comes first
            parts.insert(0, status.hint)
        if status.fps is not None:
            parts.append(_("{fps} frames/s").format(fps=f"{status.fps:.0f}"))
        if status.decode_ms is not None:
            parts.append(_("decoding {ms} ms").format(ms=format_decimal(
                status.decode_ms, format="0.0", locale=current_language())))  # vi: 4,1
        if detail:
            parts.append(detail)
        return " · ".join(parts)

    def stop(self) -> None:
        """Once the App's `stopping` is set (a source opened after this stops itself)."""
        with self._lock:
            source, self.source = self.source, None
        if source is not None:
            source.stop()
