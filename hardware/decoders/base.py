"""The decoder interface: a grayscale frame in, the symbols found in it out."""

from __future__ import annotations

from typing import Protocol

import numpy as np

from hardware.events import Decoded


class Decoder(Protocol):
    name: str

    def decode(self, gray: np.ndarray) -> list[Decoded]:
        """Decode a 2-D uint8 grayscale image; an empty list when nothing was read."""
        ...


def to_gray(image: np.ndarray) -> np.ndarray:
    """A contiguous uint8 grayscale view of a BGR, BGRA or grayscale frame."""
    import cv2

    if image.ndim == 2:
        gray = image
    elif image.shape[2] == 4:
        gray = cv2.cvtColor(image, cv2.COLOR_BGRA2GRAY)
    else:
        gray = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)
    if gray.dtype != np.uint8:
        gray = np.clip(gray, 0, 255).astype(np.uint8)
    return np.ascontiguousarray(gray)
