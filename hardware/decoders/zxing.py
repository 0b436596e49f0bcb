"""zxing-cpp, restricted to the symbologies a wallet shows (QR and Code 128 by default)."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import numpy as np
import zxingcpp

from hardware.events import Decoded


def _standard_qr() -> zxingcpp.BarcodeFormat:
    """A standard (Model 2) QR code only. In zxing-cpp 3 `QRCode` is a family that also reads
    Micro QR and rMQR: a wallet app shows a standard QR, so the others are not accepted (segno,
    for one, renders a short code as Micro QR unless told micro=False). zxing-cpp 2 has no
    QRCodeModel2 and its `QRCode` is the standard QR already."""
    fmt: zxingcpp.BarcodeFormat = getattr(zxingcpp.BarcodeFormat, "QRCodeModel2",
                                          zxingcpp.BarcodeFormat.QRCode)
    return fmt


_FORMATS: dict[str, zxingcpp.BarcodeFormat] = {
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
_NAMES = {fmt: name for name, fmt in _FORMATS.items()}
_NAMES[zxingcpp.BarcodeFormat.QRCode] = "qr"  # what a standard QR's result reports
_MATRIX = frozenset({"qr", "datamatrix", "aztec", "pdf417"})


def symbology_name(fmt: object) -> str:
    known: str | None = _NAMES.get(fmt)  # type: ignore[call-overload]
    if known is not None:
        return known
    return str(getattr(fmt, "name", fmt)).lower()


class ZxingDecoder:
    """zxing-cpp on the whole frame (QR at any angle, inverted QR, 1-D within ~10 deg of level).

    Measured on the benchmark corpus (bench/bench_decode.py), 720p, one core:
    - try_rotate (1-D also at 90/180/270 deg) costs ~2 ms a frame, 40% of the decode. It is off:
      the rescue pass (hardware.decoders.rescue) reads 1-D codes at any angle, sideways
      included, for ~1 ms and only on frames where nothing was read;
    - try_downscale read nothing more and cost ~1 ms: off.
    """

    def __init__(self, symbologies: Iterable[str] = ("qr", "code128"), *,
                 try_invert: bool = True, try_downscale: bool = False,
                 try_rotate: bool = False) -> None:
        names = tuple(symbologies)
        unknown = [n for n in names if n not in _FORMATS]
        if unknown:
            raise ValueError(f"zxing: unknown symbology {unknown[0]!r}; known: {sorted(_FORMATS)}")
        # a tuple of formats: `|` on BarcodeFormat is deprecated in zxing-cpp 3
        self._formats: Any = tuple(_FORMATS[n] for n in names)
        self._try_invert = try_invert
        self._try_downscale = try_downscale
        self._try_rotate = try_rotate
        self.name = "zxing"

    def decode(self, gray: np.ndarray) -> list[Decoded]:
        return self.decode_with_misses(gray)[0]

    def decode_with_misses(self, gray: np.ndarray) -> tuple[list[Decoded], list[np.ndarray]]:
        """Reads, plus the corners (4x2 array) of 2-D symbols located but not decoded."""
        results = zxingcpp.read_barcodes(
            gray, formats=self._formats, try_rotate=self._try_rotate,
            try_downscale=self._try_downscale, try_invert=self._try_invert, return_errors=True,
        )
        reads = [Decoded(r.text, symbology_name(r.format)) for r in results
                 if r.valid and r.text]
        # only 2-D symbols: their finder patterns make a located-but-unread QR worth an
        # enlarged retry; a failed 1-D row scan is handled by the region rescue instead
        misses = [_corners(r.position) for r in results
                  if not r.valid and symbology_name(r.format) in _MATRIX]
        return reads, misses


def _corners(position: Any) -> np.ndarray:
    points = (position.top_left, position.top_right, position.bottom_right, position.bottom_left)
    return np.array([[p.x, p.y] for p in points], dtype=np.float32)
