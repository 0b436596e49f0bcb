"""Frame grabbers over OpenCV: a capture device (camera:N) and a video file (video:PATH)."""

from __future__ import annotations

import sys
from pathlib import Path

import cv2
import numpy as np

from hardware.sources.base import EndOfStream, SourceUnavailable


def _quiet_opencv() -> None:
    """OpenCV logs a warning on every failed open; our status line says it once, clearly."""
    logging_api = getattr(getattr(cv2, "utils", None), "logging", None)
    if logging_api is not None:
        logging_api.setLogLevel(logging_api.LOG_LEVEL_ERROR)


class CameraGrabber:
    """cv2.VideoCapture(N). A camera that stops delivering frames is treated as unplugged."""

    pace_fps: float | None = None   # the device paces itself
    lossless = False

    def __init__(self, index: int, width: int | None = 1280, height: int | None = 720) -> None:
        self.index = index
        self.describe = f"camera {index}"
        self._size = (width, height)
        self._cap: cv2.VideoCapture | None = None
        self._failures = 0

    def open(self) -> None:
        node = Path(f"/dev/video{self.index}")
        if sys.platform.startswith("linux") and not node.exists():
            raise SourceUnavailable(f"camera {self.index} ({node}) is not connected")
        _quiet_opencv()
        cap = cv2.VideoCapture(self.index)
        if not cap.isOpened():
            cap.release()
            raise SourceUnavailable(f"camera {self.index} cannot be opened (busy in another "
                                    "program, or no permission: is the user in group video?)")
        width, height = self._size
        if width and height:
            cap.set(cv2.CAP_PROP_FRAME_WIDTH, width)
            cap.set(cv2.CAP_PROP_FRAME_HEIGHT, height)
        cap.set(cv2.CAP_PROP_BUFFERSIZE, 1)  # we want the newest frame, not a backlog
        self._cap = cap
        self._failures = 0

    def read(self) -> np.ndarray:
        if self._cap is None:
            raise SourceUnavailable(f"camera {self.index} is not open")
        ok, frame = self._cap.read()
        if not ok or frame is None:
            self._failures += 1
            if self._failures >= 5:
                raise SourceUnavailable(f"camera {self.index} stopped sending frames (unplugged?)")
            return self.read()
        self._failures = 0
        return np.asarray(frame)

    def close(self) -> None:
        if self._cap is not None:
            self._cap.release()
            self._cap = None


class VideoGrabber:
    """A video file played at its own frame rate, like a camera watching it; ends at its end."""

    lossless = False

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        self.describe = f"video {self.path.name}"
        self.pace_fps: float | None = 25.0
        self._cap: cv2.VideoCapture | None = None

    def open(self) -> None:
        if not self.path.is_file():
            raise SourceUnavailable(f"video file {self.path} is not there")
        _quiet_opencv()
        cap = cv2.VideoCapture(str(self.path))
        if not cap.isOpened():
            cap.release()
            raise SourceUnavailable(f"video file {self.path} cannot be opened (not a video?)")
        fps = cap.get(cv2.CAP_PROP_FPS)
        self.pace_fps = fps if 1 <= fps <= 240 else 25.0
        self._cap = cap

    def read(self) -> np.ndarray:
        if self._cap is None:
            raise SourceUnavailable(f"video file {self.path} is not open")
        ok, frame = self._cap.read()
        if not ok or frame is None:
            if not self.path.exists():
                raise SourceUnavailable(f"video file {self.path} disappeared")
            raise EndOfStream(f"end of video {self.path.name}")
        return np.asarray(frame)

    def close(self) -> None:
        if self._cap is not None:
            self._cap.release()
            self._cap = None
