"""A receipt as ESC/POS bytes (built with python-escpos's Dummy printer).

The bytes begin with the initialise command (ESC @) and end with a cut (GS V). Vietnamese text
prints in code page CP1258 when the printer has it (`[printer] codepage = "CP1258"`); otherwise
the whole receipt is drawn with a TrueType font with Vietnamese glyphs and printed as a raster
image (GS v 0). A receipt that is all ASCII prints as plain text either way.
"""

from __future__ import annotations

import unicodedata
from pathlib import Path

from pos_terminal.receipts.content import Receipt
from pos_terminal.receipts.raster import ReceiptFontMissing, render_raster

__all__ = ["ReceiptFontMissing", "encode_cp1258", "render_raster", "to_escpos"]
from pos_terminal.text_safety import clean

ESC_INIT = b"\x1b@"
ESC_CODEPAGE = b"\x1bt"
VIETNAMESE_CODEPAGES = ("CP1258",)
#: The five Vietnamese tone marks as combining characters (CP1258 has each as one byte).
_TONE_MARKS = frozenset("\u0300\u0301\u0303\u0309\u0323")


def encode_cp1258(text: str) -> bytes:
    """Windows-1258 bytes: letters CP1258 lacks precomposed (ệ, ố, ...) are written as the base
    letter it has plus combining tone marks, as Vietnamese text in that code page is."""
    out = bytearray()
    for char in unicodedata.normalize("NFC", text):
        try:
            out += char.encode("cp1258")
            continue
        except UnicodeEncodeError:
            pass
        parts = unicodedata.normalize("NFD", char)
        base = "".join(c for c in parts if c not in _TONE_MARKS)
        tones = "".join(c for c in parts if c in _TONE_MARKS)
        try:
            out += unicodedata.normalize("NFC", base).encode("cp1258") + tones.encode("cp1258")
        except UnicodeEncodeError:
            out += b"?"
    return bytes(out)


def to_escpos(receipt: Receipt, *, codepage: str = "", font_path: Path,
              width: int = 42) -> bytes:
    from escpos.printer import Dummy

    printer = Dummy()
    printer._raw(ESC_INIT)
    # The only command bytes are the ones written here: never one that came with the data.
    lines = tuple(clean(line) for line in receipt.lines)
    text = "\n".join(lines) + "\n"
    if text.isascii():
        printer._raw(ESC_CODEPAGE + b"\x00" + text.encode("ascii"))
    elif codepage in VIETNAMESE_CODEPAGES:
        number = int(printer.profile.get_code_pages()[codepage])
        printer._raw(ESC_CODEPAGE + bytes([number]) + encode_cp1258(text))
    else:
        image = render_raster(lines, font_path=font_path, width=width)
        printer.profile.profile_data.setdefault("media", {}).setdefault("width", {})[
            "pixels"] = image.width
        printer.image(image, impl="bitImageRaster")
    printer.cut()
    return bytes(printer.output)
