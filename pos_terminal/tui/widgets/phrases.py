"""Lines broken between phrases. A Vietnamese word is written as syllables with spaces between
them ("thất bại", "thành công"), so a line broken at any space can cut a word in two: these
lines break after a sentence, ", ", "; ", ": ", " · " or before "(", and at a plain space
only inside a phrase longer than the whole line."""

from __future__ import annotations

import re
from typing import Any

from rich.cells import cell_len
from rich.console import Console, ConsoleOptions, RenderResult
from rich.measure import Measurement
from rich.text import Text
from textual import events

from pos_terminal.tui.widgets.line import Line

#: The spaces a line may break at: after a sentence's or a phrase's punctuation, or before a
#: parenthesis.
PHRASE_BREAK = re.compile(r"(?<=[,;:·.?!]) +| +(?=\()")


def phrases(text: str) -> list[str]:
    """`text` cut at its phrase breaks (the breaking spaces dropped)."""
    return [part for part in PHRASE_BREAK.split(text) if part]


def wrap_phrases(text: str, width: int) -> list[str]:
    """`text` as lines of at most `width` cells, each ending between two phrases where it can
    (a phrase wider than `width` is broken at its spaces, a word wider than that at `width`)."""
    if width < 1:
        return text.split("\n")
    lines: list[str] = []
    for paragraph in text.split("\n"):
        lines += _packed([word for part in phrases(paragraph)
                          for word in (part.split(" ") if cell_len(part) > width else [part])],
                         width)
    return lines


def _packed(pieces: list[str], width: int) -> list[str]:
    """`pieces` joined by spaces into as few lines of `width` cells as they fit."""
    lines: list[str] = []
    line = ""
    for piece in pieces:
        joined = f"{line} {piece}" if line else piece
        if cell_len(joined) <= width:
            line = joined
            continue
        if line:
            lines.append(line)
        while cell_len(piece) > width:
            lines.append(piece[:width])
            piece = piece[width:]
        line = piece
    lines.append(line)
    return lines


def shorten(text: str, width: int) -> str:
    """`text` if it fits in `width` cells, else cut and ended with "…": after its last phrase
    that fits when that keeps at least half the room, else at its last space that fits."""
    if cell_len(text) <= width:
        return text
    room = max(width - 1, 1)
    head = ""
    for part in phrases(text):
        joined = f"{head} {part}" if head else part
        if cell_len(joined) > room:
            break
        head = joined
    if cell_len(head) * 2 >= room:
        if head.endswith((".", "?", "!")) and cell_len(head) + 2 <= width:
            return head + " …"  # a whole sentence, then more
        return head.rstrip(" ,.:;·") + "…"
    cut = text[:room]
    if " " in cut.strip():
        cut = cut.rstrip()
        cut = cut[:cut.rfind(" ")] if " " in cut else cut
    return cut.rstrip(" ,.:;·") + "…"


class PhraseText:
    """Text for a Rich table's cell, broken between phrases at the width the table gives it
    (a column that wraps, such as the payment timeline's Detail). Shown literally."""

    def __init__(self, text: str) -> None:
        self.text = text

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        for line in wrap_phrases(self.text, options.max_width):
            yield Text(line)

    def __rich_measure__(self, console: Console, options: ConsoleOptions) -> Measurement:
        words = [cell_len(word) for word in self.text.split()] or [0]
        return Measurement(min(max(words), options.max_width),
                           min(max(cell_len(line) for line in self.text.split("\n")),
                               options.max_width))


class PhraseLine(Line):
    """A Line whose text is broken between phrases at the width it is drawn at (again on every
    resize)."""

    def __init__(self, content: str = "", *, id: str | None = None,
                 classes: str | None = None) -> None:
        super().__init__(content, id=id, classes=classes)
        self._text = content

    @property
    def text(self) -> str:
        return self._text

    def update(self, content: Any = "", *, layout: bool = True) -> None:
        if isinstance(content, str):
            self._text = content
            content = self._wrapped()
        super().update(content, layout=layout)

    def _wrapped(self) -> str:
        width = self.content_size.width
        return "\n".join(wrap_phrases(self._text, width)) if width else self._text

    def on_resize(self, _event: events.Resize) -> None:
        super().update(self._wrapped())
