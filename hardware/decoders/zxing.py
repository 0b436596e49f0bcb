"""zxing-cpp, restricted to the symbologies a wallet shows (QR and Code 128 by default)."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

import numpy as np
import zxingcpp

from hardware.events import Decoded


def _standard_qr() -> tuple[zxingcpp.BarcodeFormat, ...]:
    """A standard QR code (Model 2, and the older Model 1) only. In zxing-cpp 3 `QRCode` is a
    family that also reads Micro QR and rMQR: a wallet app shows a standard QR, so those are not
    accepted (segno, for one, renders a short code as Micro QR unless told micro=False).
    Model 1 is listed too: zxing-cpp's QR detector finds some small pure symbols only when it
    is asked for both models (zxing-cpp test sample issue940.png). zxing-cpp 2 has neither and
    its `QRCode` is the standard QR already."""
    fmt = zxingcpp.BarcodeFormat
    if hasattr(fmt, "QRCodeModel2"):
        return (fmt.QRCodeModel1, fmt.QRCodeModel2)
    return (fmt.QRCode,)


_FORMATS: dict[str, tuple[zxingcpp.BarcodeFormat, ...] | zxingcpp.BarcodeFormat] = {
    "qr": _standard_qr(),
    "code128": zxingcpp.BarcodeFormat.Code128,
    "code39": zxingcpp.BarcodeFormat.Code39,
    "code93": zxingcpp.BarcodeFormat.Code93,
    "ean13": zxingcpp.BarcodeFormat.EAN13,
    "ean8": zxingcpp.BarcodeFormat.EAN8,
    "upca": zxingcpp.BarcodeFormat.UPCA,
    "itf": zxingcpp.BarcodeFormat.ITF,
    "datamatrix": zxingcpp.BarcodeFormat.DataMatrix,
    "pdf417": zxingcpp.BarcodeFormat.PDF417,
    "aztec": zxingcpp.BarcodeFormat.Aztec,
}
_NAMES = {fmt: name for name, fmt in _FORMATS.items() if not isinstance(fmt, tuple)}
_NAMES[zxingcpp.BarcodeFormat.QRCode] = "qr"  # what a standard QR's result reports
for _qr in _standard_qr():
    _NAMES[_qr] = "qr"
_MATRIX = frozenset({"qr", "datamatrix", "aztec", "pdf417"})


def symbology_name(fmt: object) -> str:
    known: str | None = _NAMES.get(fmt)  # type: ignore[call-overload]
    if known is not None:
        return known
    return str(getattr(fmt, "name", fmt)).lower()


class ZxingDecoder:
    """zxing-cpp on the whole frame, with the library's own search options on by default.

    Measured on real photos (bench/bench_realphotos.py, docs/scanning.md):
    - try_downscale finds the large, soft modules of a phone held close to a fixed-focus
      webcam and of a screen filmed close up; without it 0 of 17 monitor photos and 10 of 40
      close-up photos were read (17 and 40 with it);
    - try_rotate reads Code 128 turned 90 degrees (a phone held sideways);
    - text_mode Plain: the text as encoded (GS1 separators, control characters), not the
      human-readable rendering ("<SOH>", "(01)...") that would differ from what was encoded;
    - restricting the formats to what we accept costs a third of zxing-cpp's all-formats default
      and cannot read a symbology we would refuse anyway.
    """

    def __init__(self, symbologies: Iterable[str] = ("qr", "code128"), *,
                 try_invert: bool = True, try_downscale: bool = True,
                 try_rotate: bool = True) -> None:
        names = tuple(symbologies)
        unknown = [n for n in names if n not in _FORMATS]
        if unknown:
            raise ValueError(f"zxing: unknown symbology {unknown[0]!r}; known: {sorted(_FORMATS)}")
        formats: list[zxingcpp.BarcodeFormat] = []
        for n in names:
            fmt = _FORMATS[n]
            formats.extend(fmt if isinstance(fmt, tuple) else (fmt,))
        # a tuple of formats: `|` on BarcodeFormat is deprecated in zxing-cpp 3
        self._formats: Any = tuple(formats)
        self.symbologies = names
        self.try_invert = try_invert
        self.try_downscale = try_downscale
        self.try_rotate = try_rotate
        self.name = "zxing"

    def options(self) -> dict[str, object]:
        """What this decoder was built with (compared by tests against the configured one)."""
        return {"symbologies": self.symbologies, "try_invert": self.try_invert,
                "try_downscale": self.try_downscale, "try_rotate": self.try_rotate}

    def decode(self, gray: np.ndarray) -> list[Decoded]:
        return self.decode_with_misses(gray)[0]

    def decode_with_misses(self, gray: np.ndarray) -> tuple[list[Decoded], list[np.ndarray]]:
        """Reads, plus the corners (4x2 array) of 2-D symbols located but not decoded."""
        results = zxingcpp.read_barcodes(
            gray, formats=self._formats, try_rotate=self.try_rotate,
            try_downscale=self.try_downscale, try_invert=self.try_invert,
            text_mode=_PLAIN, return_errors=True,
        )
        reads = [_decoded(r) for r in results if r.valid and r.text]
        # only 2-D symbols: their finder patterns make a located-but-unread QR worth an
        # enlarged retry; a failed 1-D row scan is handled by the region rescue instead
        misses = [_corners(r.position) for r in results
                  if not r.valid and symbology_name(r.format) in _MATRIX]
        return reads, misses


    def retry_symbol(self, crop: np.ndarray,
                     take: Callable[[int], bool] = lambda pixels: True) -> list[Decoded]:
        """A crop around a 2-D symbol located but not decoded, tried with other thresholds:
        a global histogram (uneven light), then sharpened (soft focus), then both, then (a
        small symbol only) enlarged 1.5 and 2 times. Each is a single pass at one scale, a
        fraction of a whole-frame decode; `take(pixels)` is asked before each pass and a
        False ends the retry (the rescue's budget). Reads are in the crop's coordinates."""
        import cv2

        qr: Any = tuple(f for f in self._formats if symbology_name(f) == "qr")
        if not qr:
            return []
        tries: list[tuple[Callable[[], np.ndarray], Any, float]] = [
            (lambda: crop, _GLOBAL, 1.0), (lambda: sharpen(crop), _LOCAL, 1.0),
            (lambda: sharpen(crop), _GLOBAL, 1.0)]
        if max(crop.shape[:2]) <= SMALL_SYMBOL_PX:
            tries += [(lambda f=f: cv2.resize(crop, None, fx=f, fy=f,  # type: ignore[misc]
                                              interpolation=cv2.INTER_CUBIC), _LOCAL, f)
                      for f in ENLARGE]
        for make, binarizer, scale in tries:
            if not take(int(crop.size * scale * scale)):
                return []
            results = zxingcpp.read_barcodes(make(), formats=qr, try_rotate=False,
                                             try_downscale=False, try_invert=self.try_invert,
                                             text_mode=_PLAIN, binarizer=binarizer)
            reads = [_decoded(r, scale) for r in results if r.valid and r.text]
            if reads:
                return reads
        return []


# a located symbol whose crop is at most this wide is also retried enlarged (small modules)
SMALL_SYMBOL_PX = 320
ENLARGE = (1.5, 2.0)


def sharpen(gray: np.ndarray, sigma: float = 2.0) -> np.ndarray:
    """Unsharp mask: restores the module edges a soft lens or motion smeared."""
    import cv2

    return cv2.addWeighted(gray, 2.0, cv2.GaussianBlur(gray, (0, 0), sigma), -1.0, 0)


_PLAIN = zxingcpp.TextMode.Plain
_GLOBAL = zxingcpp.Binarizer.GlobalHistogram
_LOCAL = zxingcpp.Binarizer.LocalAverage


def _decoded(result: Any, scale: float = 1.0) -> Decoded:
    corners = _corners(result.position) / scale
    module = None
    version = result.extra.get("Version") if isinstance(result.extra, dict) else None
    name = symbology_name(result.format)
    if name == "qr" and version and str(version).isdigit():
        sides = np.linalg.norm(corners - np.roll(corners, -1, axis=0), axis=1)
        module = float(sides.mean()) / (17 + 4 * int(version))
    box = (float(corners[:, 0].min()), float(corners[:, 1].min()),
           float(np.ptp(corners[:, 0])), float(np.ptp(corners[:, 1])))
    return Decoded(result.text, name, box=box, module_px=module)


def _corners(position: Any) -> np.ndarray:
    points = (position.top_left, position.top_right, position.bottom_right, position.bottom_left)
    return np.array([[p.x, p.y] for p in points], dtype=np.float32)
