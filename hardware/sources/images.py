"""images:DIR: the pictures in a folder, then every picture added to it later.

Each picture is handed to the decoder as two frames, like a still held up to a camera for a
moment; that is also what the two-frame rule for 1-D codes asks for. A folder that goes away is
reported disconnected and watched until it is back; pictures already read are not read again.
"""

from __future__ import annotations

import threading
import time
from collections import deque
from pathlib import Path

import cv2
import numpy as np

from hardware.sources.base import EndOfStream, SourceUnavailable

IMAGE_SUFFIXES = frozenset({".png", ".jpg", ".jpeg", ".bmp", ".tif", ".tiff", ".webp", ".pgm",
                            ".ppm"})


class ImagesGrabber:
    pace_fps: float | None = None
    lossless = True
    hold_frames = 2
    poll_s = 0.3

    def __init__(self, directory: str | Path) -> None:
        self.directory = Path(directory)
        self.describe = f"images in {self.directory}"
        self._seen: set[str] = set()
        self._queue: deque[np.ndarray] = deque()
        self.current: Path | None = None
        self.stop_event = threading.Event()  # the camera loop hands over its own

    def open(self) -> None:
        if not self.directory.is_dir():
            raise SourceUnavailable(f"image folder {self.directory} is not there")

    def read(self) -> np.ndarray:
        while not self._queue:
            try:
                # the folder may go between any two calls: a vanished folder is never a crash
                fresh = sorted(p for p in self.directory.iterdir()
                               if p.suffix.lower() in IMAGE_SUFFIXES and p.name not in self._seen)
            except OSError as exc:
                raise SourceUnavailable(f"image folder {self.directory} disappeared") from exc
            for path in fresh:
                image = cv2.imread(str(path), cv2.IMREAD_COLOR)
                if image is None:
                    if _settled(path):
                        self._seen.add(path.name)  # not an image: skip it for good
                    continue  # maybe still being written: look again on the next poll
                self._seen.add(path.name)
                self.current = path
                self._queue.extend([image] * self.hold_frames)
                break
            else:
                if self.stop_event.wait(self.poll_s):
                    raise EndOfStream("stopped")
        return self._queue.popleft()

    def close(self) -> None:
        self._queue.clear()


def _settled(path: Path, quiet_s: float = 2.0) -> bool:
    """True when the file has not changed for `quiet_s` seconds (or is gone)."""
    try:
        return time.time() - path.stat().st_mtime > quiet_s
    except OSError:
        return True
