"""A live camera preview drawn with half blocks. It only reads the source's latest frame (no
copy of the decoding loop's work), on its own timer, so decoding is never slowed by drawing."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

from textual.strip import Strip
from textual.widget import Widget

from pos_terminal.tui.widgets.halfblock import image_strips

PREVIEW_FPS = 12


class CameraPreview(Widget):
    DEFAULT_CSS = """
    CameraPreview { width: 1fr; height: 1fr; }
    """

    def __init__(self, frames: Callable[[], Any], *, id: str | None = None) -> None:
        super().__init__(id=id)
        self._frames = frames
        self._strips: list[Strip] = []
        self.frames_drawn = 0
        self.draw_seconds = 0.0  # spent turning frames into cells (for the benchmark)

    def on_mount(self) -> None:
        self.set_interval(1 / PREVIEW_FPS, self._tick)

    def _tick(self) -> None:
        if not self.display:
            return
        frame = self._frames()
        if frame is None:
            return
        started = time.perf_counter()
        self._strips = image_strips(frame, self.size.width, self.size.height)
        self.draw_seconds += time.perf_counter() - started
        self.frames_drawn += 1
        self.refresh()

    def render_line(self, y: int) -> Strip:
        if y < len(self._strips):
            return self._strips[y]
        return Strip.blank(self.size.width)
