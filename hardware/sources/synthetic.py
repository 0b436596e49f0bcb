"""synthetic: a camera watching a phone that shows whatever code it is handed (demo, tests)."""

from __future__ import annotations

import threading

import numpy as np

from hardware.acceptance import ReadAcceptor
from hardware.camera_loop import CameraSource
from hardware.decoders.base import Decoder
from hardware.render import phone_frame


class SyntheticGrabber:
    lossless = False

    def __init__(self, width: int = 1280, height: int = 720, fps: float = 15.0) -> None:
        self.describe = "synthetic camera"
        self.pace_fps: float | None = fps
        self._size = (width, height)
        self._lock = threading.Lock()
        self._text: str | None = None
        self._cache: dict[str | None, np.ndarray] = {}

    def show(self, text: str | None) -> None:
        with self._lock:
            self._text = text

    def open(self) -> None:
        return None

    def read(self) -> np.ndarray:
        with self._lock:
            text = self._text
        frame = self._cache.get(text)
        if frame is None:
            width, height = self._size
            frame = phone_frame(text, width=width, height=height, seed=7)
            self._cache = {text: frame}  # codes change every minute: keep only the current one
        return frame

    def close(self) -> None:
        return None


class SyntheticSource(CameraSource):
    """The full camera loop (capture thread, decoder, two-frame rule) over rendered frames."""

    def __init__(self, decoder: Decoder | None = None, acceptor: ReadAcceptor | None = None,
                 spec: str = "synthetic", fps: float = 15.0) -> None:
        from hardware.decoders import make_decoder

        self._grabber = SyntheticGrabber(fps=fps)
        super().__init__(spec, self._grabber, decoder or make_decoder("zxing"),
                         acceptor or ReadAcceptor())

    def show(self, text: str | None) -> None:
        """Hold a phone showing `text` (QR + Code 128) up to the camera; None takes it away."""
        self._grabber.show(text)
