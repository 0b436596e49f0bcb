"""The wallets page's Code 128 barcode, encoded by zxing-cpp (zint) and checked by reading it back.

python-barcode 0.16 silently drops a leading "99" in code set C: its start-code optimisation takes
the symbol value 99 (the digits "99") for a "switch to code C" and merges it into the start code,
so "990810..." is drawn as "0810...". A camera then reads a different payment code. zxing-cpp's
encoder (the one ``hardware.render`` uses too) gets it right; every rendered symbol is also decoded
again before it is shown, so a wrong barcode is left off the page rather than shown.
"""

from __future__ import annotations

import numpy as np
import zxingcpp

MODULE_W = 2  # SVG user units per module; the SVG scales to its container
HEIGHT = 64
QUIET_MODULES = 10


def code128_modules(text: str) -> list[bool]:
    """The bar pattern of ``text`` (True = bar), one entry per module, without quiet zones."""
    symbol = zxingcpp.create_barcode(text, zxingcpp.BarcodeFormat.Code128)
    row = np.asarray(symbol.to_image(scale=1, add_quiet_zones=False))[0]
    return [bool(value < 128) for value in row]


def reads_back(modules: list[bool], text: str) -> bool:
    """Whether a decoder reads exactly ``text`` from the pattern (quiet zones added)."""
    padded = [False] * QUIET_MODULES + modules + [False] * QUIET_MODULES
    row = np.repeat(np.where(np.array(padded), 0, 255).astype(np.uint8), 2)
    image = np.ascontiguousarray(np.tile(row, (24, 1)))
    found = zxingcpp.read_barcodes(image)
    return [result.text for result in found] == [text]


def runs(modules: list[bool]) -> list[tuple[int, int]]:
    """(start, width) of each bar, in modules."""
    bars: list[tuple[int, int]] = []
    start = None
    for index, dark in enumerate([*modules, False]):
        if dark and start is None:
            start = index
        elif not dark and start is not None:
            bars.append((start, index - start))
            start = None
    return bars


def code128_svg(text: str) -> str | None:
    """An inline SVG of ``text`` as Code 128, or None when the symbol does not read back."""
    modules = code128_modules(text)
    if not reads_back(modules, text):
        return None
    width = (len(modules) + 2 * QUIET_MODULES) * MODULE_W
    rects = "".join(
        f'<rect x="{(QUIET_MODULES + start) * MODULE_W}" y="0" width="{size * MODULE_W}" '
        f'height="{HEIGHT}"/>' for start, size in runs(modules))
    return (f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width} {HEIGHT}" '
            f'width="{width}" height="{HEIGHT}" role="img" aria-label="Code 128 barcode">'
            f'<rect width="{width}" height="{HEIGHT}" fill="#fff"/><g fill="#000">{rects}</g>'
            "</svg>")
