"""A tmux pane as a person sees it: the captured characters with their colours (`capture-pane
-e`) drawn as a picture, a cell 8 pixels wide and 16 tall as a terminal font draws it. Half
blocks fill their half of the cell; other characters are drawn with DejaVu Sans Mono."""

from __future__ import annotations

import re
from functools import lru_cache

from PIL import Image, ImageDraw, ImageFont

CELL_W, CELL_H = 8, 16
FONT = "/usr/share/fonts/truetype/dejavu/DejaVuSansMono.ttf"
RGB = tuple[int, int, int]
DEFAULT_FG: RGB = (229, 229, 229)  # a dark terminal's default colours
DEFAULT_BG: RGB = (0, 0, 0)
_SGR = re.compile(r"\x1b\[([0-9;:]*)m")
_BASIC = [(0, 0, 0), (205, 0, 0), (0, 205, 0), (205, 205, 0), (0, 0, 238), (205, 0, 205),
          (0, 205, 205), (229, 229, 229), (127, 127, 127), (255, 0, 0), (0, 255, 0),
          (255, 255, 0), (92, 92, 255), (255, 0, 255), (0, 255, 255), (255, 255, 255)]


def palette(n: int) -> RGB:
    """xterm's 256 colours."""
    if n < 16:
        return _BASIC[n]
    if n < 232:
        levels = (0, 95, 135, 175, 215, 255)
        n -= 16
        return levels[n // 36], levels[n // 6 % 6], levels[n % 6]
    grey = 8 + 10 * (n - 232)
    return grey, grey, grey


def _extended(codes: list[int], at: int) -> tuple[RGB, int]:
    """38/48;5;N or 38/48;2;R;G;B starting at codes[at] (the 5 or 2): the colour, codes used."""
    if codes[at] == 5:
        return palette(codes[at + 1]), 2
    return (codes[at + 1], codes[at + 2], codes[at + 3]), 4


def cells(styled: str) -> list[list[tuple[str, RGB, RGB]]]:
    """Each line of the pane as (character, foreground, background) cells."""
    rows: list[list[tuple[str, RGB, RGB]]] = []
    fg, bg, reverse = DEFAULT_FG, DEFAULT_BG, False
    for line in styled.split("\n"):
        row: list[tuple[str, RGB, RGB]] = []
        at = 0
        for match in _SGR.finditer(line):
            row += [(ch, *((bg, fg) if reverse else (fg, bg))) for ch in line[at:match.start()]]
            at = match.end()
            codes = [int(c) if c else 0 for c in re.split("[;:]", match.group(1))]
            i = 0
            while i < len(codes):
                code = codes[i]
                if code == 0:
                    fg, bg, reverse = DEFAULT_FG, DEFAULT_BG, False
                elif code == 7:
                    reverse = True
                elif code == 27:
                    reverse = False
                elif 30 <= code <= 37 or 90 <= code <= 97:
                    fg = _BASIC[code - 30 if code < 90 else code - 82]
                elif 40 <= code <= 47 or 100 <= code <= 107:
                    bg = _BASIC[code - 40 if code < 100 else code - 92]
                elif code == 39:
                    fg = DEFAULT_FG
                elif code == 49:
                    bg = DEFAULT_BG
                elif code in (38, 48):
                    colour, used = _extended(codes, i + 1)
                    fg, bg = (colour, bg) if code == 38 else (fg, colour)
                    i += used
                i += 1
        row += [(ch, *((bg, fg) if reverse else (fg, bg))) for ch in line[at:]]
        rows.append(row)
    while rows and not rows[-1]:
        rows.pop()
    return rows


@lru_cache(maxsize=1)
def _font() -> ImageFont.FreeTypeFont:
    return ImageFont.truetype(FONT, 13)


def picture(styled: str) -> Image.Image:
    """The pane drawn as pixels (RGB)."""
    grid = cells(styled)
    width = max(len(row) for row in grid)
    image = Image.new("RGB", (width * CELL_W, len(grid) * CELL_H), DEFAULT_BG)
    draw = ImageDraw.Draw(image)
    half = CELL_H // 2
    for y, row in enumerate(grid):
        for x, (ch, fg, bg) in enumerate(row):
            left, top = x * CELL_W, y * CELL_H
            box = (left, top, left + CELL_W - 1, top + CELL_H - 1)
            draw.rectangle(box, fill=fg if ch == "█" else bg)
            if ch == "▀":
                draw.rectangle((left, top, left + CELL_W - 1, top + half - 1), fill=fg)
            elif ch == "▄":
                draw.rectangle((left, top + half, left + CELL_W - 1, top + CELL_H - 1), fill=fg)
            elif not ch.isspace() and ch != "█":
                draw.text((left, top), ch, font=_font(), fill=fg)
    return image
