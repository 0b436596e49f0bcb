"""A receipt or slip drawn as a picture (raster printing, `[printer] pictures`): one cell per
character, as the paper's columns are laid out, every letter composed (NFC) and drawn whole.

A monospace font may lack the Vietnamese letters with two marks (DejaVu Sans Mono has "â" but
not "ầ"). A text layout then draws such a letter as its base and combining marks, and with no
anchors to stack them the second mark lands on the next character ("Quầy" reads "Quâỳ"). Here
each letter the font lacks is drawn from one that has it (DejaVu Sans, in fonts-dejavu-core),
narrowed to its cell when wider."""

from __future__ import annotations

import unicodedata
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING

from pos_terminal.base.errors import PosError
from pos_terminal.base.reasons import Reason

if TYPE_CHECKING:
    from PIL.Image import Image
    from PIL.ImageDraw import ImageDraw
    from PIL.ImageFont import FreeTypeFont

#: Dots across the paper: 58 mm paper (32 characters) 384, 80 mm (42 or 48) 576.
PAPER_DOTS = {32: 384, 42: 576, 48: 576}
#: Has every Vietnamese letter precomposed (Debian fonts-dejavu-core, as the default font).
FULL_VIETNAMESE_FONT = Path("/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf")
_NOT_A_CHARACTER = "\U0010fffd"  # drawn as the font's "missing glyph" box


class ReceiptFontMissing(PosError):
    def __init__(self, path: Path) -> None:
        super().__init__(Reason.of("receipt.font_missing", path=str(path)))


class CellFonts:
    """The font of a slip at one size, and the fonts that stand in for the letters it lacks."""

    def __init__(self, font_path: Path, size: int) -> None:
        from PIL import ImageFont

        paths = [font_path] + [p for p in (FULL_VIETNAMESE_FONT,)
                               if p != font_path and p.is_file()]
        # BASIC layout: one character, one glyph of that font (no decomposing, no fallback)
        self.fonts = [ImageFont.truetype(str(p), size, layout_engine=ImageFont.Layout.BASIC)
                      for p in paths]
        self._missing = [_mask(font, _NOT_A_CHARACTER) for font in self.fonts]
        self._chosen: dict[str, FreeTypeFont] = {}
        self.cell = self.fonts[0].getlength("M")  # a monospaced font's advance

    def has(self, font_index: int, char: str) -> bool:
        return _mask(self.fonts[font_index], char) != self._missing[font_index]

    def font_for(self, char: str) -> FreeTypeFont:
        """The first font that has `char` (the slip's own when none has it)."""
        if char not in self._chosen:
            index = next((i for i in range(len(self.fonts)) if self.has(i, char)), 0)
            self._chosen[char] = self.fonts[index]
        return self._chosen[char]


def _mask(font: FreeTypeFont, char: str) -> tuple[tuple[int, int], bytes]:
    mask = font.getmask(char)
    return mask.size, bytes(mask)


def render_raster(lines: tuple[str, ...], *, font_path: Path, width: int) -> Image:
    """The lines drawn black on white, `width` characters across the paper's dots."""
    from PIL import Image as PilImage
    from PIL import ImageDraw as Draw
    from PIL import ImageFont

    if not font_path.is_file():
        raise ReceiptFontMissing(font_path)
    dots = PAPER_DOTS.get(width, 576)
    size = 40
    while size > 8 and ImageFont.truetype(str(font_path), size).getlength("M") * width > dots:
        size -= 1
    fonts = CellFonts(font_path, size)
    line_height = int(size * 1.25)
    image = PilImage.new("1", (dots, line_height * len(lines) + 8), 1)
    draw = Draw.Draw(image)
    for number, line in enumerate(lines):
        top = 4 + number * line_height
        for column, run, font in _runs(unicodedata.normalize("NFC", line), fonts):
            if len(run) > 1 or (font is fonts.fonts[0] and not unicodedata.combining(run)):
                draw.text((column * fonts.cell, top), run, font=font, fill=0)  # cell by cell
            else:
                _draw_char(image, draw, fonts, run, round(column * fonts.cell), top,
                           line_height)
    return image


def _runs(line: str, fonts: CellFonts) -> Iterator[tuple[int, str, FreeTypeFont]]:
    """(first column, text, font): runs of letters the slip's own font has, and alone each
    letter it lacks and each mark left uncomposed (on the cell of the letter before it)."""
    own = fonts.fonts[0]
    column, start, run = 0, 0, ""
    for char in line:
        mark = unicodedata.combining(char) != 0
        if run and (mark or fonts.font_for(char) is not own):
            yield start, run, own
            run = ""
        if mark:
            yield max(column - 1, 0), char, fonts.font_for(char)
            continue
        if fonts.font_for(char) is own:
            start, run = (column, char) if not run else (start, run + char)
        else:
            yield column, char, fonts.font_for(char)
        column += 1
    if run:
        yield start, run, own

def _draw_char(image: Image, draw: ImageDraw, fonts: CellFonts, char: str, left: int,
               top: int, height: int) -> None:
    from PIL import Image as PilImage
    from PIL import ImageDraw as Draw

    font = fonts.font_for(char)
    advance = font.getlength(char)
    if advance <= fonts.cell:
        draw.text((left + (fonts.cell - advance) / 2, top), char, font=font, fill=0)
        return
    above = height  # room for marks higher than the font's ascent (Ế, Ầ)
    glyph = PilImage.new("L", (round(advance), above + height), 0)
    Draw.Draw(glyph).text((0, above), char, font=font, fill=255)
    narrowed = glyph.resize((round(fonts.cell), glyph.height), PilImage.Resampling.LANCZOS)
    image.paste(0, (left, top - above), narrowed.point(lambda v: 255 if v >= 128 else 0, "1"))
