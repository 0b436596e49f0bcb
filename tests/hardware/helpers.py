"""Shared test helpers for hardware tests: event sinks, frame grabbers over real frames."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Sequence
from pathlib import Path

import cv2
import numpy as np

from hardware.events import ScanEvent, SourceStatus
from hardware.sources.base import EndOfStream

CODE_A = "281234567890123456"   # 18 digits, like the emulator's wallet codes
CODE_B = "350987654321098765"


class Sink:
    """Collects events and statuses from a source's threads; waits for conditions."""

    def __init__(self) -> None:
        self.events: list[ScanEvent] = []
        self.statuses: list[SourceStatus] = []
        self._cond = threading.Condition()

    def on_event(self, event: ScanEvent) -> None:
        with self._cond:
            self.events.append(event)
            self._cond.notify_all()

    def on_status(self, status: SourceStatus) -> None:
        with self._cond:
            self.statuses.append(status)
            self._cond.notify_all()

    def wait_for(self, predicate: Callable[[], bool], timeout: float = 15.0) -> bool:
        deadline = time.monotonic() + timeout
        with self._cond:
            while not predicate():
                left = deadline - time.monotonic()
                if left <= 0:
                    return False
                self._cond.wait(min(left, 0.1))
            return True

    def wait_events(self, n: int, timeout: float = 15.0) -> bool:
        return self.wait_for(lambda: len(self.events) >= n, timeout)

    def wait_state(self, state: str, timeout: float = 15.0, after: int = 0) -> bool:
        return self.wait_for(lambda: any(s.state == state for s in self.statuses[after:]),
                             timeout)

    def texts(self) -> list[tuple[str, str]]:
        return [(e.text, e.symbology) for e in self.events]


class ListGrabber:
    """A finite, lossless sequence of real frames: every frame is decoded, in order."""

    pace_fps: float | None = None
    lossless = True

    def __init__(self, frames: Sequence[np.ndarray]) -> None:
        self.describe = "test frames"
        self._frames = list(frames)
        self._i = 0

    def open(self) -> None:
        return None

    def read(self) -> np.ndarray:
        if self._i >= len(self._frames):
            raise EndOfStream("end of test frames")
        frame = self._frames[self._i]
        self._i += 1
        return frame

    def close(self) -> None:
        return None


class StillCamera:
    """A camera (not lossless: it never waits for the decoder) filming one real frame."""

    lossless = False

    def __init__(self, frame: np.ndarray, describe: str = "test camera",
                 pace_fps: float | None = 30.0) -> None:
        self.frame = frame
        self.describe = describe
        self.pace_fps = pace_fps

    def open(self) -> None:
        return None

    def read(self) -> np.ndarray:
        return self.frame

    def close(self) -> None:
        return None


def write_video(path: Path, frames: Sequence[np.ndarray], fps: float = 20.0) -> Path:
    height, width = frames[0].shape[:2]
    tmp = path.with_name(path.stem + ".part.avi")
    writer = cv2.VideoWriter(str(tmp), cv2.VideoWriter_fourcc(*"MJPG"), fps, (width, height))
    assert writer.isOpened(), "OpenCV cannot write MJPG video here"
    for frame in frames:
        writer.write(frame if frame.ndim == 3 else cv2.cvtColor(frame, cv2.COLOR_GRAY2BGR))
    writer.release()
    tmp.replace(path)  # appear at once, like a device coming back
    return path
