"""What every source shares: status reporting, pause, the acceptor, and waiting for the end."""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable

import numpy as np

from hardware.acceptance import ReadAcceptor
from hardware.events import Decoded, ScanEvent, SourceStatus

log = logging.getLogger("hardware")

EventCallback = Callable[[ScanEvent], None]
StatusCallback = Callable[[SourceStatus], None]


class SourceUnavailable(Exception):
    """The device or file is not there (now); the source retries until it is."""


class EndOfStream(Exception):
    """A finite source (a video file) has nothing more to give."""


class BaseSource:
    """Status bookkeeping and event delivery; subclasses run their own thread(s)."""

    reconnect_s = 0.5

    def __init__(self, spec: str, acceptor: ReadAcceptor) -> None:
        self.spec = spec
        self._acceptor = acceptor
        self._acceptor_lock = threading.Lock()
        self._on_event: EventCallback | None = None
        self._on_status: StatusCallback | None = None
        self._status = SourceStatus("ready", "not started")
        self._status_lock = threading.Lock()
        self._stop = threading.Event()
        self._paused = threading.Event()
        self._finished = threading.Event()
        self._threads: list[threading.Thread] = []

    # -- the ScanSource protocol ------------------------------------------------------------
    def start(self, on_event: EventCallback, on_status: StatusCallback | None = None) -> None:
        if self._threads:
            raise RuntimeError(f"source {self.spec} is already started")
        self._on_event = on_event
        self._on_status = on_status
        self._stop.clear()
        self._finished.clear()
        self._start_threads()

    def stop(self) -> None:
        self._stop.set()
        for thread in self._threads:
            if thread is not threading.current_thread():
                thread.join(timeout=5)
        self._threads = []
        self._close()
        if self.status().state != "stopped":  # keep "end of video ..." when that is why
            self._set_status("stopped", "stopped")
        self._finished.set()

    def pause(self) -> None:
        self._paused.set()

    def resume(self) -> None:
        with self._acceptor_lock:
            self._acceptor.reset_pending()
        self._paused.clear()

    def status(self) -> SourceStatus:
        with self._status_lock:
            return self._status

    def latest_frame(self) -> np.ndarray | None:
        return None

    # -- helpers ------------------------------------------------------------------------------
    @property
    def paused(self) -> bool:
        return self._paused.is_set()

    def wait(self, timeout: float | None = None) -> bool:
        """Block until the source has stopped (end of a video, or stop()); True if it has."""
        return self._finished.wait(timeout)

    def _start_threads(self) -> None:
        raise NotImplementedError

    def _close(self) -> None:
        """Release the device (called by stop() after the threads ended)."""

    def _spawn(self, target: Callable[[], None], name: str) -> None:
        thread = threading.Thread(target=self._guard(target), name=f"{name} {self.spec}",
                                  daemon=True)
        self._threads.append(thread)
        thread.start()

    def _guard(self, target: Callable[[], None]) -> Callable[[], None]:
        def run() -> None:
            try:
                target()
            except Exception as exc:  # a bug must not kill the UI silently: say it, then stop
                log.exception("scan source %s failed", self.spec)
                self._set_status("stopped", f"scanner stopped after an internal error: {exc}")
                self._finished.set()
        return run

    def _set_status(self, state: str, detail: str, *, fps: float | None = None,
                    decode_ms: float | None = None) -> None:
        with self._status_lock:
            previous = self._status
            # numbers survive a change of detail and the final "stopped" (last measured);
            # a lost device has no frame rate
            keep = state not in ("disconnected", "reconnecting")
            if fps is None and keep:
                fps = previous.fps
            if decode_ms is None and keep:
                decode_ms = previous.decode_ms
            hint = previous.hint if state == previous.state == "running" else None
            status = SourceStatus(state, detail, fps, decode_ms, hint)
            changed = (status.state, status.detail) != (previous.state, previous.detail)
            self._status = status
        if changed and self._on_status is not None:
            self._on_status(status)

    def _update_metrics(self, *, fps: float | None = None, decode_ms: float | None = None) -> None:
        """Refresh numbers without a status callback (the UI polls status() for them)."""
        with self._status_lock:
            s = self._status
            self._status = SourceStatus(s.state, s.detail, fps if fps is not None else s.fps,
                                        decode_ms if decode_ms is not None else s.decode_ms,
                                        s.hint)

    def _set_hint(self, hint: str | None) -> None:
        """Show (or clear) the frame-quality hint; the status callback hears of a change."""
        with self._status_lock:
            previous = self._status
            if previous.hint == hint:
                return
            status = SourceStatus(previous.state, previous.detail, previous.fps,
                                  previous.decode_ms, hint)
            self._status = status
        if self._on_status is not None:
            self._on_status(status)

    def _offer(self, reads: list[Decoded], *, frame: int = 0, confirmed: bool = False,
               decode_ms: float | None = None) -> None:
        if self._paused.is_set():
            return
        now = time.time()
        with self._acceptor_lock:
            accepted = self._acceptor.offer(reads, time.monotonic(), frame, confirmed)
        for read in accepted:
            if self._on_event is not None:
                self._on_event(ScanEvent(read.text, read.symbology, self.spec, now, decode_ms))
