"""Drawing pixels in a terminal: one character cell shows two pixels stacked (the upper half
block's foreground is the top pixel, its background the bottom one)."""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache

import numpy as np
from rich.color import Color
from rich.segment import Segment
from rich.style import Style
from textual.strip import Strip

UPPER_HALF = "▀"
_BLACK = Color.from_rgb(0, 0, 0)
_WHITE = Color.from_rgb(255, 255, 255)
_MONO = {
    (False, False): Style(color=_WHITE, bgcolor=_WHITE),
    (True, False): Style(color=_BLACK, bgcolor=_WHITE),
    (False, True): Style(color=_WHITE, bgcolor=_BLACK),
    (True, True): Style(color=_BLACK, bgcolor=_BLACK),
}


def matrix_strips(matrix: Sequence[Sequence[int]]) -> list[Strip]:
    """A dark/light module matrix (truthy = dark) as lines of half blocks, black on white."""
    rows = [[bool(v) for v in row] for row in matrix]
    if len(rows) % 2:
        rows.append([False] * (len(rows[0]) if rows else 0))
    strips: list[Strip] = []
    for top, bottom in zip(rows[0::2], rows[1::2], strict=True):
        segments = [Segment(UPPER_HALF, _MONO[(t, b)]) for t, b in zip(top, bottom, strict=True)]
        strips.append(Strip(Segment.simplify(segments), len(top)))
    return strips


@lru_cache(maxsize=8192)
def _colour_style(top: int, bottom: int) -> Style:
    # Colours are quantised to 4 bits a channel (packed as 12-bit ints) so the cache stays small.
    def rgb(packed: int) -> Color:
        return Color.from_rgb(((packed >> 8) & 15) * 17, ((packed >> 4) & 15) * 17,
                              (packed & 15) * 17)

    return Style(color=rgb(top), bgcolor=rgb(bottom))


def image_strips(image: np.ndarray, width: int, height: int, bgr: bool = True) -> list[Strip]:
    """An image (H x W x 3 uint8, BGR as cameras give it, or H x W grey) scaled to fit
    `width` x `height` cells keeping its aspect ratio (a cell is two pixels tall)."""
    if width <= 0 or height <= 0 or image.size == 0:
        return []
    src_h, src_w = image.shape[:2]
    # A terminal cell is about twice as tall as wide: one cell = 1 px wide, 2 px tall.
    scale = min(width / src_w, (2 * height) / src_h)
    out_w = max(1, int(src_w * scale))
    out_h = max(2, int(src_h * scale) // 2 * 2)
    ys = (np.arange(out_h) * (src_h / out_h)).astype(np.intp)
    xs = (np.arange(out_w) * (src_w / out_w)).astype(np.intp)
    small = image[ys[:, None], xs[None, :]]
    if small.ndim == 2:
        small = np.repeat(small[:, :, None], 3, axis=2)
    elif bgr:
        small = small[:, :, ::-1]
    q = (small.astype(np.uint16) >> 4)
    packed = (q[:, :, 0] << 8) | (q[:, :, 1] << 4) | q[:, :, 2]
    strips: list[Strip] = []
    for row in range(0, out_h, 2):
        top, bottom = packed[row].tolist(), packed[row + 1].tolist()
        segments = [Segment(UPPER_HALF, _colour_style(t, b))
                    for t, b in zip(top, bottom, strict=True)]
        strips.append(Strip(Segment.simplify(segments), out_w))
    return strips
