"""A QR code drawn in the terminal with half-block characters: the whole code, or nothing.

The symbol is the smallest for its text (base/qr_symbol.py); two modules per text row. A code
that does not fit the room given, quiet zone included, is not drawn at all: part of a code (the
bottom finder pattern cut off) reads as nothing on any phone, and looks as if it should."""

from __future__ import annotations

from functools import lru_cache

from textual.geometry import Size
from textual.strip import Strip
from textual.widget import Widget

from pos_terminal.base.qr_symbol import smallest_qr
from pos_terminal.tui.widgets.halfblock import matrix_strips

# Quiet zone in modules: 2 reads well on a backlit screen; 1 when the room is too short
# (a gateway order URL of ~120 characters is 41 modules: 22 rows with 1, 23 with 2).
QUIET_ZONES = (2, 1)


@lru_cache(maxsize=16)
def _modules(data: str) -> tuple[tuple[bool, ...], ...]:
    return tuple(tuple(bool(v) for v in row) for row in smallest_qr(data).matrix)


def drawn_size(data: str, quiet: int = QUIET_ZONES[-1]) -> Size:
    """Columns x rows the code of `data` takes with a quiet zone of `quiet` modules."""
    side = len(_modules(data)) + 2 * quiet
    return Size(side, (side + 1) // 2)


class QrCode(Widget):
    """Shows `data` as a QR code (lowest error level that keeps the symbol smallest, raised by
    segno when that costs nothing); empty when there is nothing to show."""

    DEFAULT_CSS = """
    QrCode { width: auto; height: auto; }
    """

    def __init__(self, data: str = "", *, id: str | None = None,
                 classes: str | None = None) -> None:
        super().__init__(id=id, classes=classes)
        self._strips: list[Strip] = []
        self.data = ""
        self.set_data(data)

    def set_data(self, data: str, quiet: int = QUIET_ZONES[0]) -> None:
        """Draw `data` (nothing when empty) with a quiet zone of `quiet` modules."""
        self.data = data
        self._strips = self._draw(data, quiet) if data else []
        self.refresh(layout=True)

    def fit(self, data: str, room: Size) -> bool:
        """Draw `data` if its whole code fits `room` (columns x rows) with a quiet zone, the
        widest that fits; otherwise draw nothing. Whether it is drawn."""
        for quiet in QUIET_ZONES:
            size = drawn_size(data, quiet)
            if data and size.width <= room.width and size.height <= room.height:
                self.set_data(data, quiet)
                return True
        self.set_data("")
        return False

    @staticmethod
    def _draw(data: str, quiet: int) -> list[Strip]:
        modules = _modules(data)
        width = len(modules[0]) + 2 * quiet
        blank = [[False] * width for _ in range(quiet)]
        rows = [[False] * quiet + list(row) + [False] * quiet for row in modules]
        return matrix_strips(blank + rows + blank)

    def get_content_width(self, container: Size, viewport: Size) -> int:
        return self._strips[0].cell_length if self._strips else 0

    def get_content_height(self, container: Size, viewport: Size, width: int) -> int:
        return len(self._strips)

    def render_line(self, y: int) -> Strip:
        if 0 <= y < len(self._strips):
            return self._strips[y]
        return Strip.blank(self.size.width)
