"""The confirmation rule for 1-D reads the rescue pass makes (issue 42): a misread is worse
than no read.

A Code 128 band the primary pass could not read is a hard band (tilted, small, blurred): a
decoder's guess at it is checked by a mod-103 checksum only, and one scan line through a
blurred bar can turn a digit pair into another that the checksum still accepts. zbar returned
both `8491842942526626975` and `8491842942073126975` from the same 64-row band of a clean code
at 1.44 px per module, and `scan-image` printed the wrong one. So a 1-D text from a band is
returned only when it is proven (`_proven`): two decoders read it (zxing-cpp and zbar: their
edge finding and symbol matching differ); or zxing-cpp read it in two views, or in one at the
band's own scale over wide modules; or one decoder read it in two views over wide modules
(SOLO_MODULE_PX). zbar at two scales is not independent where the bars are thin: blur makes
it swap the same pair of symbols at every scale (it read `404158529402607784612531` for
`...435607784612566` at 1x and 2x, on both bands, in the phone bench). The views are the bands
at their own scale and resampled (STRETCH), which is what reads modules of 1.2-2 px. One view
saying two texts confirms neither, and a text another view contradicts must be said by more
views than its rival.

QR reads are not held back: their Reed-Solomon code is the symbology's own strong check. A
primary-pass 1-D read is held back only over thin modules (`thin`), until the bands through
it second it (`seconded`): zxing-cpp's two agreeing scan lines misread a Code 128 at 1.36 px
per module in the phone bench. docs/scanning.md#the-confirmation-rule has the measurements.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass

import cv2
import numpy as np
import zxingcpp

from hardware.decoders.base import Decoder
from hardware.events import LINEAR_SYMBOLOGIES, Decoded

# a band's width is resampled by this factor as a second scale: the modules of a phone's
# screen filmed from the counter are 1.2-2 px wide, where a 1-D decoder's edge finding fails;
# resampled (cubic) to 2.4-4 px they are read, and the other scale is also an independent view
STRETCH = 2.0
# after a first candidate, at most this many more views are decoded to confirm it, outside the
# rescue's budget (only frames that show a code pay for it)
CONFIRM_VIEWS = 6
# one decoder reading a code in two views proves it only where its modules are this wide (px
# in the frame): Code 128 misreads come from blurred bars of 1.2-2 px (the phone bench)
SOLO_MODULE_PX = 2.5


@dataclass(frozen=True)
class View:
    """One way of looking at a band: which band, at which scale, by which decoder."""

    band: int
    scale: float
    decoder: Decoder


def views(bands: Sequence[np.ndarray | None], decoders: Sequence[Decoder]) -> Iterator[View]:
    """Every band at its own scale by every decoder, then resampled: the cheap views first."""
    for i, band in enumerate(bands):
        if band is None:
            continue
        for scale in (1.0, STRETCH):
            for decoder in decoders:
                yield View(i, scale, decoder)


def confirmed_reads(bands: Sequence[np.ndarray | None], decoders: Sequence[Decoder],
                    take: Callable[[int], bool]) -> list[Decoded]:
    """The reads of `bands` that are proven: any 2-D read at once; a 1-D text once two views
    of the code read it. `take(pixels)` is asked before each view until a first candidate is
    seen (the rescue's budget); then at most CONFIRM_VIEWS more views are tried."""
    votes: dict[Decoded, set[tuple[str, float]]] = {}  # read -> (decoder, scale) that said it
    widest: dict[Decoded, float] = {}   # read -> its widest module seen, px at frame scale
    scaled: dict[tuple[int, float], np.ndarray] = {}
    spare: int | None = None   # views left to confirm a candidate (None: none seen yet)
    for view in views(bands, decoders):
        band = bands[view.band]
        assert band is not None
        image = scaled.get((view.band, view.scale))
        if image is None:
            image = band if view.scale == 1.0 else cv2.resize(
                band, None, fx=view.scale, fy=1.0, interpolation=cv2.INTER_CUBIC)
            scaled[(view.band, view.scale)] = image
        if spare is None:
            if not take(2 * image.size):
                continue  # a smaller view may still fit
        elif spare == 0:
            break
        else:
            spare -= 1
        found = _read(view.decoder, image)
        for read in found:
            if read.symbology in LINEAR_SYMBOLOGIES:
                key = _unscaled(read)
                module = _module_px(read, image.shape[1] if view.band == 0 else 0)
                widest[key] = max(widest.get(key, 0.0), module / view.scale)
        found = [_unscaled(d) for d in found]
        proven = [d for d in found if d.symbology not in LINEAR_SYMBOLOGIES]
        if proven:
            return proven
        for read in found:
            votes.setdefault(read, set()).add((view.decoder.name, view.scale))
        agreed = [read for read, seen in votes.items()
                  if _proven(seen, len(decoders), widest.get(read, 0.0)) and all(
                      len(other) < len(seen) for rival, other in votes.items()
                      if _rivals(rival.text, read.text))]
        if agreed:
            return agreed
        if found and spare is None:
            spare = CONFIRM_VIEWS
    return []


def _proven(seen: set[tuple[str, float]], decoders: int, module_px: float) -> bool:
    """Whether the views that said a text prove it:
    - two decoders said it;
    - zxing-cpp said it in two views (each read is already two of its scan lines agreeing,
      its `min_line_count`), or in one view at the band's own scale where the modules are at
      least SOLO_MODULE_PX wide (what the primary pass's 1-D reads rest on);
    - one decoder said it in two views where the modules are at least SOLO_MODULE_PX wide.
    zbar at two scales is not enough where the bars are thin: blur makes it swap the same two
    symbols at every scale (the phone bench's `...435607784612566` read as
    `...402607784612531` at 1x and 2x, on both bands, on a dozen counters at 1.65 px per
    module). Wide-module single-decoder reads are what the tilted real photos need (zbar alone
    reads `code128-2/01.webp` turned 20 degrees, zxing-cpp alone `code128-2/06.webp` and
    `37.webp` turned 45)."""
    names = {name for name, _ in seen}
    if len(names) >= 2:
        return True
    wide = module_px >= SOLO_MODULE_PX
    if names == {"zxing"}:
        return len(seen) >= 2 or (wide and ("zxing", 1.0) in seen)
    return len(seen) >= 2 and (wide or decoders == 1)


def _rivals(a: str, b: str) -> bool:
    """Two different texts for one code; not when they differ only in the high bit (zbar
    ignores Code 128's FNC4 and reads `óóóó12` as `ssss12`)."""
    return a != b and _seven_bit(a) != _seven_bit(b)


def _seven_bit(text: str) -> str:
    return "".join(chr(ord(ch) & 0x7F) for ch in text)


def _module_px(read: Decoded, band_width: int = 0) -> float:
    """The width of one module of a 1-D read, from its box and the modules its text takes;
    without a box (zbar gives none on some bands), from the middle band's width (the region
    with its margins: `upright_crop`); 0 when neither is known."""
    # the box's longer side: an upright band's code is wider than its rows; the primary pass's
    # box of a code turned 90 degrees is its line, tall and 1-3 px wide
    width = max(read.box[2], read.box[3]) if read.box is not None else 0.0
    if width <= 0 and band_width:
        width = (band_width - 40) / 1.25
    return width / max(1, _modules(read.text))


def _modules(text: str) -> int:
    try:
        symbol = zxingcpp.create_barcode(text, zxingcpp.BarcodeFormat.Code128)
    except (ValueError, RuntimeError):
        return 1 << 30
    return int(np.asarray(symbol.to_image(scale=1, add_quiet_zones=False)).shape[1])


def seconded(read: Decoded, bands: Sequence[np.ndarray | None], decoders: Sequence[Decoder],
             same: tuple[str, float] = ("zxing", 1.0)) -> bool:
    """Whether another view of a 1-D code (the bands around a read, each decoder, each scale)
    reads the same text, and no view reads another one as often: the second read a thin
    primary-pass read needs. Views by `same` (the primary's own decoder at its own scale) do
    not second it: they would repeat its mistake (zxing-cpp misread one band at 1x as the
    primary pass had, where zbar and zxing-cpp at 2x read the right text five times)."""
    said: dict[str, int] = {}
    for view in views(bands, decoders):
        band = bands[view.band]
        assert band is not None
        image = band if view.scale == 1.0 else cv2.resize(
            band, None, fx=view.scale, fy=1.0, interpolation=cv2.INTER_CUBIC)
        for other in _read(view.decoder, image):
            if other.symbology in LINEAR_SYMBOLOGIES and not (
                    other.text == read.text and (view.decoder.name, view.scale) == same):
                said[other.text] = said.get(other.text, 0) + 1
        if said.get(read.text, 0) and all(n < said[read.text] for text, n in said.items()
                                          if _rivals(text, read.text)):
            return True
    return False


def thin(read: Decoded) -> bool:
    """A 1-D read whose modules are under SOLO_MODULE_PX (unknown width counts as thin)."""
    return read.symbology in LINEAR_SYMBOLOGIES and _module_px(read) < SOLO_MODULE_PX


def _read(decoder: Decoder, image: np.ndarray) -> list[Decoded]:
    # zxing-cpp's try_invert does not cover 1-D symbols: light bars on a dark screen (dark
    # mode) are read from the inverted band
    return decoder.decode(image) or decoder.decode(cv2.bitwise_not(image))


def _unscaled(read: Decoded) -> Decoded:
    return Decoded(read.text, read.symbology)
