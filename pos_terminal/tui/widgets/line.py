"""Plain text lines."""

from __future__ import annotations

from textual.widgets import Static


class Line(Static):
    """Static text shown as-is: service and cashier messages may contain [brackets]."""

    def __init__(self, content: str = "", *, id: str | None = None,
                 classes: str | None = None) -> None:
        super().__init__(content, markup=False, id=id, classes=classes)
