"""The rescue pass: second chances for frames where the primary decoder read nothing.

Tilt past ~10 degrees defeats 1-D scan lines. Rotating the whole frame costs a full extra decode
on every empty frame, so the rescue looks for barcode-like regions first (edge density on a
half-size frame, ~1 ms at 720p; the bars' direction from the region's structure tensor; many
crossings along it), then rotates only each small crop so its bars stand upright and decodes
that. A crop is a few hundred pixels wide: cheap enough to also try inverted (zxing-cpp inverts
only 2-D symbols by itself) and to hand to pyzbar, which reads some Code 128 below 2 px per
module that zxing misses. Symbols zxing located but could not decode (perspective, small
modules) are retried on an enlarged crop of that spot.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Sequence
from dataclasses import dataclass

import cv2
import numpy as np

from hardware.decoders.base import Decoder
from hardware.events import Decoded


@dataclass(frozen=True)
class Region:
    """A barcode-like area of the full-size frame and the direction across its bars."""

    center: tuple[float, float]
    size: tuple[float, float]      # along the bars' normal, along the bars
    angle_deg: float               # direction of the bars' normal, image coordinates


def barcode_regions(gray: np.ndarray, max_regions: int = 2) -> list[Region]:
    """Areas dense in parallel edges that a line across them crosses many times, largest first.

    Works on a half-size frame: gradient magnitude density finds textured areas; the region's
    summed structure tensor gives the bars' normal; a scan line along that normal must cross
    the region's mean level at least MIN_CROSSINGS times (a Code 128 of 16 digits has ~60
    edges; box outlines, lines and words on the counter have far fewer).
    """
    factor = 2 if max(gray.shape[:2]) > 600 else 1
    small = cv2.resize(gray, None, fx=1 / factor, fy=1 / factor,
                       interpolation=cv2.INTER_AREA) if factor > 1 else gray
    # central differences, saturating uint8: about half the cost of two Sobel passes
    dx = cv2.absdiff(small[1:-1, 2:], small[1:-1, :-2])
    dy = cv2.absdiff(small[2:, 1:-1], small[:-2, 1:-1])
    edges = cv2.add(dx, dy)
    # density of edges: averaged to half of `small` again (the mask needs no finer grain),
    # then a box of ~15 `small` pixels; morphology on that quarter-size grid is cheap
    density = cv2.blur(cv2.resize(edges, (edges.shape[1] // 2, edges.shape[0] // 2),
                                  interpolation=cv2.INTER_AREA), (7, 7))
    # the bars are usually the densest texture in view: threshold relative to the peak
    _, peak, _, _ = cv2.minMaxLoc(density)
    _, mask = cv2.threshold(density, max(20.0, 0.55 * peak), 255, cv2.THRESH_BINARY)
    mask = cv2.morphologyEx(mask, cv2.MORPH_CLOSE, _CLOSE)  # rejoin bars split by wide spaces
    mask = cv2.morphologyEx(mask, cv2.MORPH_OPEN, _KERNEL)
    contours, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    found: list[tuple[float, Region]] = []
    for grid_contour in contours:
        # mask pixel (i, j) covers `edges` pixels (2i.., 2j..), which are `small` pixels + 1
        contour = grid_contour * 2 + 1
        area = cv2.contourArea(contour)
        if area < 300:
            continue
        x, y, bw, bh = cv2.boundingRect(contour)
        patch = small[max(0, y - 1):y + bh + 1, max(0, x - 1):x + bw + 1]
        fx = cv2.Sobel(patch, cv2.CV_32F, 1, 0, ksize=3)
        fy = cv2.Sobel(patch, cv2.CV_32F, 0, 1, ksize=3)
        sxx, syy, sxy = float((fx * fx).sum()), float((fy * fy).sum()), float((fx * fy).sum())
        if math.hypot(sxx - syy, 2 * sxy) < 0.5 * (sxx + syy):
            continue  # edges in every direction: text, clutter, a QR code
        normal = 0.5 * math.atan2(2 * sxy, sxx - syy)
        u = np.array([math.cos(normal), math.sin(normal)])
        v = np.array([-math.sin(normal), math.cos(normal)])
        pts = contour.reshape(-1, 2).astype(np.float32)
        pu, pv = pts @ u, pts @ v
        cu, cv_ = (pu.max() + pu.min()) / 2, (pv.max() + pv.min()) / 2
        center = cu * u + cv_ * v
        length, height = float(np.ptp(pu)), float(np.ptp(pv))
        if _crossings(small, center, u, length) < MIN_CROSSINGS:
            continue
        found.append((area, Region((float(center[0]) * factor, float(center[1]) * factor),
                                   (length * factor, height * factor),
                                   math.degrees(normal))))
    found.sort(key=lambda item: -item[0])
    return [r for _, r in found[:max_regions]]


MIN_CROSSINGS = 24
_KERNEL = np.ones((3, 3), np.uint8)
_CLOSE = np.ones((8, 8), np.uint8)


def _crossings(img: np.ndarray, center: np.ndarray, u: np.ndarray, length: float) -> int:
    """How often the profile along `u` through `center` crosses its own mean."""
    steps = np.arange(-length / 2, length / 2, 0.5, dtype=np.float32)
    xs = np.clip(center[0] + steps * u[0], 0, img.shape[1] - 1).astype(np.intp)
    ys = np.clip(center[1] + steps * u[1], 0, img.shape[0] - 1).astype(np.intp)
    profile = img[ys, xs].astype(np.int16)
    if profile.size < 8:
        return 0
    sign = profile > int(profile.mean())
    return int(np.count_nonzero(sign[1:] != sign[:-1]))


def upright_crop(gray: np.ndarray, region: Region, extra_deg: float = 0.0) -> np.ndarray:
    """The region cut out with a quiet-zone margin and rotated so its bars stand vertical."""
    length, height = region.size
    length = length * 1.25 + 40
    height = max(height * 1.1, 30.0)
    angle = region.angle_deg + extra_deg
    cx, cy = region.center
    matrix = cv2.getRotationMatrix2D((cx, cy), angle, 1.0)
    matrix[0, 2] += length / 2 - cx
    matrix[1, 2] += height / 2 - cy
    return cv2.warpAffine(gray, matrix, (int(length), int(height)), flags=cv2.INTER_LINEAR,
                          borderMode=cv2.BORDER_REPLICATE)


def enlarged_crop(gray: np.ndarray, corners: np.ndarray, scale: float = 1.5) -> np.ndarray:
    """The area around a located symbol (with a quiet-zone margin), scaled up."""
    x0, y0 = corners.min(axis=0)
    x1, y1 = corners.max(axis=0)
    pad = 0.35 * max(x1 - x0, y1 - y0) + 8
    h, w = gray.shape[:2]
    left, top = int(max(0, x0 - pad)), int(max(0, y0 - pad))
    right, bottom = int(min(w, x1 + pad)), int(min(h, y1 + pad))
    crop = gray[top:bottom, left:right]
    if crop.size == 0:
        return gray
    return cv2.resize(crop, None, fx=scale, fy=scale, interpolation=cv2.INTER_CUBIC)


def rotate_frame(gray: np.ndarray, angle_deg: float) -> np.ndarray:
    h, w = gray.shape[:2]
    matrix = cv2.getRotationMatrix2D((w / 2, h / 2), angle_deg, 1.0)
    return cv2.warpAffine(gray, matrix, (w, h), flags=cv2.INTER_LINEAR,
                          borderMode=cv2.BORDER_REPLICATE)


class RescueDecoder:
    """Primary decoder first; on an empty result, the configured second chances.

    - misses: symbols the primary located but could not decode (zxing reports where), retried
      on an enlarged crop of that spot;
    - regions: deskewed crops of barcode-like areas, decoded by `crop_decoders` in turn;
    - angles: the whole frame rotated by ONE angle per call, cycling, so a tilted code held in
      front of the camera is read within a few frames while each frame pays one extra decode.
    """

    def __init__(self, primary: Decoder, *, regions: bool = True,
                 crop_decoders: Sequence[Decoder] = (), angles: Sequence[float] = (),
                 max_regions: int = 2) -> None:
        self._primary = primary
        self._regions = regions
        self._crop_decoders = tuple(crop_decoders) or (primary,)
        self._angles = itertools.cycle(angles) if angles else None
        self._max_regions = max_regions
        parts = [primary.name]
        if hasattr(primary, "decode_with_misses"):
            parts.append("located")
        if regions:
            parts.append("roi(" + "+".join(d.name for d in self._crop_decoders) + ")")
        if angles:
            parts.append("rot" + "/".join(f"{a:+g}" for a in angles))
        self.name = "+".join(parts)

    def decode(self, gray: np.ndarray) -> list[Decoded]:
        misses: list[np.ndarray] = []
        found: list[Decoded]
        with_misses = getattr(self._primary, "decode_with_misses", None)
        if with_misses is not None:
            found, misses = with_misses(gray)
        else:
            found = self._primary.decode(gray)
        if found:
            return found
        for corners in misses[:2]:
            # located but not decoded (perspective, small modules): retry that spot enlarged
            for scale in (1.5, 2.0):
                found = self._primary.decode(enlarged_crop(gray, corners, scale))
                if found:
                    return found
        if self._regions:
            for region in barcode_regions(gray, self._max_regions):
                crop = upright_crop(gray, region)
                for decoder in self._crop_decoders:
                    # zxing-cpp's try_invert does not cover 1-D symbols: light bars on a dark
                    # screen (dark mode) are read from the inverted crop
                    found = decoder.decode(crop) or decoder.decode(cv2.bitwise_not(crop))
                    if found:
                        return found
        if self._angles is not None:
            return self._primary.decode(rotate_frame(gray, next(self._angles)))
        return []
