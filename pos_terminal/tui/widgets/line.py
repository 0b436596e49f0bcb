"""Plain text lines."""

from __future__ import annotations

from typing import Any

from rich.markup import escape
from rich.text import Text
from textual.widgets import Static

from pos_terminal.text_safety import clean


def plain(text: object) -> Text:
    """Text shown literally in a Rich renderable: no markup, no escape sequence."""
    return Text(clean(str(text)), end="")


def cell(text: object) -> str:
    """A DataTable cell shown literally: DataTable reads a str cell as markup, so "[" is
    escaped (a str, unlike Text, still compares equal to the plain text when there is none)."""
    return escape(clean(str(text)))


class Line(Static):
    """Static text shown as-is: service and cashier messages may contain [brackets] and
    (from an old journal row) escape sequences, never interpreted."""

    def __init__(self, content: str = "", *, id: str | None = None,
                 classes: str | None = None) -> None:
        super().__init__(clean(content, newlines=True), markup=False, id=id, classes=classes)

    def update(self, content: Any = "", *, layout: bool = True) -> None:
        if isinstance(content, str):
            content = clean(content, newlines=True)
        super().update(content, layout=layout)
