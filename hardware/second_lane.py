"""The camera's second lane (issue 42): the extra decoder families and the rescue pass on the
machine's other core, on the freshest frame the primary pass read nothing in.

The camera's own decoding thread runs only the primary pass (zxing-cpp), so it keeps the
camera's pace. A frame it reads nothing in is put in the lane's one-frame slot, replacing any
frame still waiting there: the lane never builds a queue, and when it is ready it always takes
the newest frame. zxing-cpp, zbar (ctypes) and OpenCV release the GIL while they decode
(measured: two threads decoding at once take ~1.2x the time of one, not 2x), so a thread is
enough to use the other core; the Python between the native calls is short.

A decoder that stalls stalls the lane alone: the primary pass goes on reading at the camera's
pace, frames keep replacing each other in the slot, and stop() does not wait for it longer
than `join_s` (the thread is a daemon and ends when the decoder returns).
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable

import numpy as np

log = logging.getLogger("hardware")

#: what the lane does with a frame: (frame number, gray frame, 2-D symbols located in it)
Work = Callable[[int, np.ndarray, list[np.ndarray]], None]


class SecondLane:
    def __init__(self, work: Work, name: str = "second lane", join_s: float = 1.0) -> None:
        self._work = work
        self._name = name
        self.join_s = join_s
        self._cond = threading.Condition()
        self._slot: tuple[int, np.ndarray, list[np.ndarray]] | None = None
        self._stop = False
        self._busy = False
        self._thread: threading.Thread | None = None
        self.taken = 0      # frames the lane decoded
        self.replaced = 0   # frames replaced in the slot by a newer one before it took them

    def start(self) -> None:
        if self._thread is not None:
            raise RuntimeError(f"{self._name} is already started")
        self._stop = False
        self._thread = threading.Thread(target=self._run, name=self._name, daemon=True)
        self._thread.start()

    def offer(self, number: int, gray: np.ndarray, misses: list[np.ndarray]) -> None:
        """Put a frame in the slot (never blocks); a frame still waiting there is dropped."""
        with self._cond:
            if self._stop:
                return
            if self._slot is not None:
                self.replaced += 1
            self._slot = (number, gray, misses)
            self._cond.notify_all()

    @property
    def busy(self) -> bool:
        """Whether the lane is decoding a frame now."""
        with self._cond:
            return self._busy

    def idle(self, timeout: float | None = None) -> bool:
        """Wait until the slot is empty and no frame is being decoded; True if so."""
        with self._cond:
            return self._cond.wait_for(lambda: self._slot is None and not self._busy, timeout)

    def stop(self) -> bool:
        """Stop taking frames; True when the thread ended within `join_s` (False: a decoder
        is still running, the daemon thread ends when it returns)."""
        with self._cond:
            self._stop = True
            self._slot = None
            self._cond.notify_all()
        thread, self._thread = self._thread, None
        if thread is None or thread is threading.current_thread():
            return True
        thread.join(self.join_s)
        if thread.is_alive():
            log.warning("%s: a decoder is still running after stop; it is left to finish",
                        self._name)
            return False
        return True

    def _run(self) -> None:
        while True:
            with self._cond:
                self._cond.wait_for(lambda: self._stop or self._slot is not None)
                if self._stop:
                    return
                assert self._slot is not None
                number, gray, misses = self._slot
                self._slot = None
                self._busy = True
                self.taken += 1
            try:
                self._work(number, gray, misses)
            except Exception:  # a decoder's bug costs this frame, not the lane
                log.exception("%s: frame %d failed", self._name, number)
            finally:
                with self._cond:
                    self._busy = False
                    self._cond.notify_all()
