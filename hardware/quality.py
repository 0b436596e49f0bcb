"""Why a frame gave no read, in words a cashier can say to the customer.

Measured only on frames where nothing was read (a read frame needs no advice), from what the
decoder already has: the mean brightness, contrast and Laplacian variance (sharpness) of a
quarter-size frame, and the size, relative to the frame, of the QR symbols zxing-cpp located
(finder patterns found) but could not read and of the rescue pass's barcode-like regions.
Regions only ever say "too small": on textured scenes with no code (the corpus's
false-positive photos) they can be large, and the customer must not be told to step back
from nothing. One frame is noise: the camera loop reports a hint once HINT_FRAMES frames in a
row agree, and clears it on a read or when frames stop giving it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import cv2
import numpy as np

TOO_DARK = "Too dark: turn up the phone's screen brightness"
TOO_BLURRED = "Blurred: hold the phone still, a little further away"
TOO_SMALL = "Code too small: bring the phone closer"
TOO_CLOSE = "Hold the phone further away"

DARK_MEAN = 40.0          # mean level 0-255 of the frame below which it is too dark
BLUR_VARIANCE = 40.0      # Laplacian variance (quarter-size frame) below which it is blurred
CONTRAST_STD = 30.0       # ... if the frame has this much contrast (a featureless wall or an
                          # empty counter in dim light is smooth too, and needs no advice)
SMALL_SHARE = 0.12        # a candidate whose longer side is below this share of the frame's
                          # shorter side is too small to read
CLOSE_SHARE = 0.9         # ... above this share of it (or touching three edges): too close
HINT_FRAMES = 3

Box = tuple[float, float, float, float]


@dataclass(frozen=True)
class FrameMeasures:
    mean: float
    contrast: float                     # standard deviation of the quarter-size frame
    sharpness: float                    # Laplacian variance of the quarter-size frame
    symbols: tuple[Box, ...]            # QR symbols located, not read: x, y, w, h
    regions: tuple[Box, ...]            # barcode-like regions (rescue pass), same
    frame: tuple[int, int]              # width, height


def measure(gray: np.ndarray, symbols: Sequence[Box] = (),
            regions: Sequence[Box] = ()) -> FrameMeasures:
    h, w = gray.shape[:2]
    small = cv2.resize(gray, (max(1, w // 4), max(1, h // 4)), interpolation=cv2.INTER_AREA)
    mean, std = cv2.meanStdDev(small)
    sharpness = float(cv2.Laplacian(small, cv2.CV_32F).var())
    return FrameMeasures(float(mean[0, 0]), float(std[0, 0]), sharpness,
                         tuple(c for c in symbols if c[2] >= 4 and c[3] >= 4),
                         tuple(regions), (w, h))


def hint(m: FrameMeasures) -> str | None:
    """The advice for a frame with no read, or None when there is nothing to say (an empty
    counter, or a code of a readable size that simply was not read this time)."""
    if m.mean < DARK_MEAN:
        return TOO_DARK
    w, h = m.frame
    short = min(w, h)
    blurred = m.sharpness < BLUR_VARIANCE and m.contrast >= CONTRAST_STD
    if m.symbols:
        x, y, cw, ch = max(m.symbols, key=lambda c: c[2] * c[3])
        edges = sum((x <= 2, y <= 2, x + cw >= w - 2, y + ch >= h - 2))
        if max(cw, ch) >= CLOSE_SHARE * short or edges >= 3:
            return TOO_CLOSE
        if max(cw, ch) < SMALL_SHARE * short:
            return TOO_SMALL
        return TOO_BLURRED if blurred else None
    if m.regions and max(max(c[2], c[3]) for c in m.regions) < SMALL_SHARE * short:
        return TOO_SMALL
    if blurred:
        # nothing located, nothing sharp, yet large light and dark areas: a phone held so
        # close to the lens that the code is one big blur
        return TOO_CLOSE
    return None


class HintTracker:
    """A hint only once HINT_FRAMES frames in a row gave it; cleared by a read."""

    def __init__(self, frames: int = HINT_FRAMES) -> None:
        self.frames = frames
        self._last: str | None = None
        self._run = 0
        self.current: str | None = None

    def update(self, read: bool, frame_hint: str | None) -> str | None:
        if read:
            self._last, self._run, self.current = None, 0, None
            return None
        if frame_hint == self._last:
            self._run += 1
        else:
            self._last, self._run = frame_hint, 1
        if frame_hint is None:
            self.current = None
        elif self._run >= self.frames:
            self.current = frame_hint
        return self.current
