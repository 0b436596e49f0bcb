"""The rescue pass: second chances for frames where the primary decoder read nothing.

It runs only where the frame shows code-like structure, and within a budget of work per frame
(pixels decoded, proportional to the frame's size), so that a frame with no code costs little
more than the primary pass. In order:
- a QR symbol zxing-cpp located but could not decode (blur, glare, uneven light): its crop is
  retried with a global-histogram threshold, then sharpened (unsharp mask), then both;
- barcode-like regions (below): deskewed crops, decoded by zxing-cpp then pyzbar.

Tilt past ~10 degrees defeats 1-D scan lines. Rotating the whole frame costs a full extra decode
on every empty frame, so the rescue looks for barcode-like regions first (edge density on a
half-size frame, ~1 ms at 720p; the bars' direction from the region's structure tensor; many
crossings along it), then rotates only each small crop so its bars stand upright and decodes
that. Only a band of BAND_ROWS rows across the middle of the crop is decoded: a 1-D code needs
a few good rows, and a large crop (a phone held close, or a false region on a textured scene)
would otherwise cost as much as the whole frame. A band is cheap enough to also try inverted
(zxing-cpp inverts only 2-D symbols by itself) and to hand to pyzbar, which reads some
Code 128 that zxing misses.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from typing import Protocol

import cv2
import numpy as np

from hardware.decoders.base import Decoder
from hardware.decoders.confirm import confirmed_reads, seconded
from hardware.events import Decoded

BAND_ROWS = 64
Box = tuple[float, float, float, float]


@dataclass(frozen=True)
class Region:
    """A barcode-like area of the full-size frame and the direction across its bars."""

    center: tuple[float, float]
    size: tuple[float, float]      # along the bars' normal, along the bars
    angle_deg: float               # direction of the bars' normal, image coordinates


def barcode_regions(gray: np.ndarray, max_regions: int = 2, coarse: int = 1,
                    half: np.ndarray | None = None) -> list[Region]:
    """Areas dense in parallel edges that a line across them crosses many times, largest first.

    Works on a half-size frame: gradient magnitude density finds textured areas; the region's
    summed structure tensor gives the bars' normal; a scan line along that normal must cross
    the region's mean level at least MIN_CROSSINGS times (a Code 128 of 16 digits has ~60
    edges; box outlines, lines and words on the counter have far fewer).
    """
    base = 2 if max(gray.shape[:2]) > 600 else 1
    factor = base * coarse
    if half is None or base == 1:
        small = cv2.resize(gray, None, fx=1 / factor, fy=1 / factor,
                           interpolation=cv2.INTER_AREA) if factor > 1 else gray
    else:  # `half`: the frame at half size already, computed once for every scale
        small = cv2.resize(half, None, fx=1 / coarse, fy=1 / coarse,
                           interpolation=cv2.INTER_AREA) if coarse > 1 else half
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
    found, merged = _regions_at(small, density, max(20.0, 0.55 * peak), factor)
    if merged and len(found) < max_regions:
        # an area dense in edges but not oriented: clutter (a grille, text), or a small code
        # merged with clutter beside it at this threshold; the code is usually the densest
        # part, so a higher threshold separates it (only on such frames: no cost elsewhere)
        more, _ = _regions_at(small, density, max(20.0, MERGED_LEVEL * peak), factor)
        found += [item for item in more if not any(_same(item[1], r) for _, r in found)]
    found.sort(key=lambda item: -item[0])
    return [r for _, r in found[:max_regions]]


def _regions_at(small: np.ndarray, density: np.ndarray, level: float,
                factor: int) -> tuple[list[tuple[float, Region]], bool]:
    """The oriented, many-crossing regions where `density` is above `level` (with their
    areas), and whether a large area there was rejected for having edges in every direction."""
    _, mask = cv2.threshold(density, level, 255, cv2.THRESH_BINARY)
    mask = cv2.morphologyEx(mask, cv2.MORPH_CLOSE, _CLOSE)  # rejoin bars split by wide spaces
    mask = cv2.morphologyEx(mask, cv2.MORPH_OPEN, _KERNEL)
    contours, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    found: list[tuple[float, Region]] = []
    merged = False
    for grid_contour in contours:
        # mask pixel (i, j) covers `edges` pixels (2i.., 2j..), which are `small` pixels + 1
        contour = grid_contour * 2 + 1
        area = cv2.contourArea(contour)
        if area < 300:
            continue
        x, y, bw, bh = cv2.boundingRect(contour)
        top, left = max(0, y - 1), max(0, x - 1)
        patch = small[top:y + bh + 1, left:x + bw + 1]
        fx = cv2.Sobel(patch, cv2.CV_32F, 1, 0, ksize=3)
        fy = cv2.Sobel(patch, cv2.CV_32F, 0, 1, ksize=3)
        # the tensor of the region itself, not of its upright bounding box: a code turned
        # 45 degrees fills only half its box, and words beside it would blur its direction
        inside = np.zeros(patch.shape, np.uint8)
        cv2.drawContours(inside, [contour - np.array([left, top], np.int32)], -1, 1, cv2.FILLED)
        fx *= inside
        fy *= inside
        sxx, syy, sxy = float((fx * fx).sum()), float((fy * fy).sum()), float((fx * fy).sum())
        if math.hypot(sxx - syy, 2 * sxy) < 0.5 * (sxx + syy):
            merged = merged or area >= MERGED_AREA
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
    return found, merged


MIN_CROSSINGS = 24
MERGED_LEVEL = 0.7   # the second threshold, for an unoriented area (issue 33)
MERGED_AREA = 2000   # `small` pixels: smaller unoriented areas are words, not a merge
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


def upright_crop(gray: np.ndarray, region: Region, extra_deg: float = 0.0,
                 rows: int | None = None) -> np.ndarray:
    """The region cut out with a quiet-zone margin and rotated so its bars stand vertical;
    only its middle `rows` rows when given (warping the rest would be wasted)."""
    length, height = region.size
    length = length * 1.25 + 40
    height = max(height * 1.1, 30.0)
    if rows is not None:
        height = min(height, float(rows))
    angle = region.angle_deg + extra_deg
    cx, cy = region.center
    matrix = cv2.getRotationMatrix2D((cx, cy), angle, 1.0)
    matrix[0, 2] += length / 2 - cx
    matrix[1, 2] += height / 2 - cy
    return cv2.warpAffine(gray, matrix, (int(length), int(height)), flags=cv2.INTER_LINEAR,
                          borderMode=cv2.BORDER_REPLICATE)


def across_band(gray: np.ndarray, region: Region, rows: int = BAND_ROWS) -> np.ndarray | None:
    """`rows` rows along the line through the region's centre across its bars, from one edge of
    the frame to the other, turned upright. The region can be only part of the code (a code
    with wide spaces gives one region per group of bars); this band holds all of it. None when
    the line is too short to be worth it."""
    h, w = gray.shape[:2]
    a = math.radians(region.angle_deg)
    u = (math.cos(a), math.sin(a))
    cx, cy = region.center
    lo, hi = -math.inf, math.inf
    for c, d, size in ((cx, u[0], w), (cy, u[1], h)):   # t where centre + t*u is inside
        if abs(d) < 1e-9:
            continue
        t0, t1 = (0 - c) / d, (size - 1 - c) / d
        lo, hi = max(lo, min(t0, t1)), min(hi, max(t0, t1))
    if not hi - lo > region.size[0] * 1.3:
        return None
    mid = (lo + hi) / 2
    centre = (cx + mid * u[0], cy + mid * u[1])
    return upright_crop(gray, Region(centre, ((hi - lo - 40) / 1.25, rows / 1.1),
                                     region.angle_deg))


def middle_band(crop: np.ndarray, rows: int = BAND_ROWS) -> np.ndarray:
    """The `rows` rows across the middle of an upright crop (all of it when it is lower)."""
    if crop.shape[0] <= rows:
        return crop
    top = (crop.shape[0] - rows) // 2
    return crop[top:top + rows]


def symbol_crop(gray: np.ndarray, corners: np.ndarray) -> tuple[np.ndarray, tuple[int, int]]:
    """The area around a located symbol with a quiet-zone margin, and its top-left corner."""
    x0, y0 = corners.min(axis=0)
    x1, y1 = corners.max(axis=0)
    pad = 0.35 * max(x1 - x0, y1 - y0) + 8
    h, w = gray.shape[:2]
    left, top = int(max(0, x0 - pad)), int(max(0, y0 - pad))
    right, bottom = int(min(w, x1 + pad)), int(min(h, y1 + pad))
    return gray[top:bottom, left:right], (left, top)




def rotate_frame(gray: np.ndarray, angle_deg: float) -> np.ndarray:
    h, w = gray.shape[:2]
    matrix = cv2.getRotationMatrix2D((w / 2, h / 2), angle_deg, 1.0)
    return cv2.warpAffine(gray, matrix, (w, h), flags=cv2.INTER_LINEAR,
                          borderMode=cv2.BORDER_REPLICATE)


class SymbolRetry(Protocol):
    """Decodes a crop around a located 2-D symbol with other thresholds (zxing-cpp)."""

    def retry_symbol(self, crop: np.ndarray, take: Callable[[int], bool]) -> list[Decoded]:
        """`take(pixels)` before each pass: False means the budget is spent, stop."""
        ...


class RescueDecoder:
    """Primary decoder first; on an empty result, the configured second chances.

    - misses: 2-D symbols the primary located but could not decode (zxing reports where),
      retried on a crop of that spot with other thresholds (`retry_symbol` of the primary);
    - regions: the middle band of deskewed crops of barcode-like areas, decoded by
      `crop_decoders` in turn, upright then inverted;
    - angles: the whole frame rotated by ONE angle per call, cycling (off by default);
    - budget: the work the rescue steps may do on a frame, in pixels decoded, as a multiple of
      the frame's own pixel count (at least of a 720p frame's); a step that would exceed what
      is left is skipped (None: no limit).
    """

    def __init__(self, primary: Decoder, *, regions: bool = True,
                 crop_decoders: Sequence[Decoder] = (), angles: Sequence[float] = (),
                 max_regions: int = 2, max_misses: int = 2,
                 budget: float | None = None, coarse: Sequence[int] = (2, 1, 4)) -> None:
        self.primary = primary
        self.regions = regions
        self.crop_decoders = tuple(crop_decoders) or (primary,)
        self.angles = tuple(angles)
        self._angles = itertools.cycle(angles) if angles else None
        self.max_regions = max_regions
        self.max_misses = max_misses
        self.budget = budget
        self.coarse = tuple(coarse)
        # 2-D symbols located in the last frame but not read (frame pixels: x, y, w, h): what
        # the camera loop's frame-quality hint measures (hardware.quality)
        self.last_candidates: list[Box] = []
        self.last_regions: list[Box] = []   # barcode-like regions of that frame, same
        parts = [primary.name]
        if hasattr(primary, "decode_with_misses"):
            parts.append("located")
        if regions:
            parts.append("roi(" + "+".join(d.name for d in self.crop_decoders) + ")")
        if angles:
            parts.append("rot" + "/".join(f"{a:+g}" for a in angles))
        if budget is not None:
            parts.append(f"budget{budget:g}")
        self.name = "+".join(parts)

    def options(self) -> dict[str, object]:
        """What this decoder was built with (compared by tests against the configured one)."""
        def of(decoder: Decoder) -> tuple[str, dict[str, object]]:
            options: Callable[[], dict[str, object]] | None = getattr(decoder, "options", None)
            return decoder.name, (options() if options is not None else {})

        return {"primary": of(self.primary),
                "crop_decoders": tuple(of(d) for d in self.crop_decoders),
                "regions": self.regions, "angles": self.angles,
                "max_regions": self.max_regions, "max_misses": self.max_misses,
                "budget": self.budget, "coarse": self.coarse}

    def decode(self, gray: np.ndarray) -> list[Decoded]:
        self.last_candidates = []
        self.last_regions = []
        misses: list[np.ndarray] = []
        found: list[Decoded]
        with_misses = getattr(self.primary, "decode_with_misses", None)
        if with_misses is not None:
            found, misses = with_misses(gray)
        else:
            found = self.primary.decode(gray)
        if found:
            return found
        return self.rescue(gray, misses)

    def rescue(self, gray: np.ndarray, misses: list[np.ndarray], *,
               cap: float | None = None) -> list[Decoded]:
        """The second chances alone, for a frame where the primary pass read nothing and
        located the 2-D symbols `misses` (corners) it could not decode (the cascade calls this
        after its other decoders). `cap`: a lower budget for this frame (the cascade's
        single-thread camera schedule), None: the decoder's own."""
        self.last_candidates = [_box(c) for c in misses]
        self.last_regions = []
        misses = list(misses)
        share = self.budget if cap is None else (
            cap if self.budget is None else min(cap, self.budget))
        budget = _Budget(None if share is None else share * max(gray.size, BUDGET_FLOOR_PX))
        retry = getattr(self.primary, "retry_symbol", None)
        if retry is not None:
            # largest first: the code the customer holds up is the biggest thing in view
            misses.sort(key=lambda c: -float(np.ptp(c[:, 0]) * np.ptp(c[:, 1])))
            for corners in misses[:self.max_misses]:
                crop, (left, top) = symbol_crop(gray, corners)
                if crop.size == 0:
                    continue
                found = retry(crop, budget.take)
                if found:
                    return [_moved(d, left, top) for d in found]
        half: np.ndarray | None = None
        tried: list[Region] = []
        for coarse in self.coarse if self.regions else ():
            # the finder at several scales: a code with wide bars and spaces, or filling much
            # of the frame, breaks into one piece per group of bars at the finest; the coarse
            # pass is the cheapest (1/4 of the pixels) and finds most, so it goes first
            if not budget.take(gray.size // (FINDER_SHARE * coarse * coarse)):
                if gray.size > BUDGET_FLOOR_PX:
                    continue  # a still picture: a coarser scale (a code filling it) may fit
                break  # the camera's frames: no more finder passes (the empty-frame cost)
            if half is None and max(gray.shape[:2]) > 600:
                half = cv2.resize(gray, None, fx=0.5, fy=0.5, interpolation=cv2.INTER_AREA)
            regions = barcode_regions(gray, self.max_regions, coarse, half)
            if coarse == 1:  # what the quality hint measures (hardware.quality)
                self.last_regions = [_region_box(r) for r in regions]
            for region in regions:
                if any(_same(region, seen) for seen in tried):
                    continue  # found again at another scale: its bands were read already
                tried.append(region)
                # the band across the region's middle, by each crop decoder; then, across the
                # whole frame, the line through it (the region may be one group of bars of a
                # wider code); a 1-D text only once two views agree (hardware.decoders.confirm)
                bands = [middle_band(upright_crop(gray, region, rows=BAND_ROWS)),
                         across_band(gray, region)]
                found = confirmed_reads(bands, self.crop_decoders, budget.take)
                if found:
                    return [_placed(d, region) for d in found]
        if self._angles is not None and budget.take(gray.size):
            return self.primary.decode(rotate_frame(gray, next(self._angles)))
        return []


    def second_read(self, gray: np.ndarray, read: Decoded) -> bool:
        """Whether the crop decoders read `read`'s text again on the bands through it (its box
        from the primary pass: the line its scan rows crossed, turned either way)."""
        if read.box is None:
            return False
        x, y, w, h = read.box
        length = math.hypot(w, h)
        tilt = math.degrees(math.atan2(h, w)) if w >= h else 90.0
        bands: list[np.ndarray | None] = []
        for angle in dict.fromkeys((tilt, -tilt)):
            region = Region((x + w / 2, y + h / 2), (length, 30.0), angle)
            bands += [middle_band(upright_crop(gray, region, rows=BAND_ROWS)),
                      across_band(gray, region)]
        return seconded(read, bands, self.crop_decoders, (self.primary.name, 1.0))


# Work is counted in pixels decoded, not in seconds: what the rescue does on a frame then
# depends on the frame alone (the same reads on a loaded machine as on an idle one) while its
# cost stays proportional to the primary pass's, which also grows with the frame's pixels.
BUDGET_FLOOR_PX = 1280 * 720  # a smaller frame may use what a 720p frame may
FINDER_SHARE = 4      # barcode_regions works on a half-size frame


class _Budget:
    def __init__(self, pixels: float | None) -> None:
        self.left = pixels

    def take(self, pixels: int) -> bool:
        """Spend `pixels` of work if that much is left; False (and nothing spent) if not."""
        if self.left is None:
            return True
        if pixels > self.left:
            return False
        self.left -= pixels
        return True


def _same(a: Region, b: Region) -> bool:
    """Whether two regions are one: a's centre inside b (half its size around its centre,
    in b's own axes) and their bars within 10 degrees of each other."""
    turn = abs((a.angle_deg - b.angle_deg + 90) % 180 - 90)
    rad = math.radians(b.angle_deg)
    dx, dy = a.center[0] - b.center[0], a.center[1] - b.center[1]
    along = abs(dx * math.cos(rad) + dy * math.sin(rad))
    across = abs(-dx * math.sin(rad) + dy * math.cos(rad))
    return turn < 10 and along <= b.size[0] / 2 and across <= b.size[1] / 2


def _moved(read: Decoded, left: int, top: int) -> Decoded:
    """A read from a crop, its box put back in frame coordinates."""
    if read.box is None:
        return read
    x, y, w, h = read.box
    return replace(read, box=(x + left, y + top, w, h))


def _box(corners: np.ndarray) -> Box:
    x0, y0 = corners.min(axis=0)
    x1, y1 = corners.max(axis=0)
    return float(x0), float(y0), float(x1 - x0), float(y1 - y0)


def _region_box(region: Region) -> Box:
    """A region's upright bounding box in the frame."""
    length, height = region.size
    a = math.radians(region.angle_deg)
    w = abs(length * math.cos(a)) + abs(height * math.sin(a))
    h = abs(length * math.sin(a)) + abs(height * math.cos(a))
    cx, cy = region.center
    return cx - w / 2, cy - h / 2, w, h


def _placed(read: Decoded, region: Region) -> Decoded:
    """A read from a deskewed crop: its box is the region's upright bounding box."""
    return replace(read, box=_region_box(region), module_px=None)
