"""decode_image: decode a still picture (file or array) with the selected decoder."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np

from hardware.decoders import make_decoder
from hardware.decoders.base import to_gray
from hardware.events import Decoded


class ImageUnreadable(ValueError):
    """The file is missing or is not an image OpenCV can read."""


def decode_image(path_or_array: str | Path | np.ndarray, decoder: str = "zxing",
                 *, rescue: bool = True) -> list[Decoded]:
    """Every distinct symbol in the picture, in the order found. No code filter is applied:
    callers decide what a plausible code is. A still picture is worth every decoder family
    (the cascade's every=1): there is no next frame to try them on."""
    if isinstance(path_or_array, np.ndarray):
        image = path_or_array
    else:
        path = Path(path_or_array)
        if not path.is_file():
            raise ImageUnreadable(f"{path}: no such file")
        loaded = cv2.imread(str(path), cv2.IMREAD_COLOR)
        if loaded is None:
            raise ImageUnreadable(f"{path}: not an image OpenCV can read (PNG, JPEG, BMP, ...)")
        image = np.asarray(loaded)
    found = make_decoder(decoder, rescue=rescue, every=1).decode(to_gray(image))
    unique: list[Decoded] = []
    for item in found:
        if item not in unique:
            unique.append(item)
    return unique
