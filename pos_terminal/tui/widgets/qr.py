"""A QR code drawn in the terminal with half-block characters (segno makes the matrix)."""

from __future__ import annotations

import segno
from textual.geometry import Size
from textual.strip import Strip
from textual.widget import Widget

from pos_terminal.tui.widgets.halfblock import matrix_strips

# Quiet zone in modules: 2 reads well on a backlit screen; 1 when the terminal is too short
# (a gateway order URL of ~120 characters is 41 modules: 22 rows with 1, 23 with 2).
QUIET_ZONES = (2, 1)


class QrCode(Widget):
    """Shows `data` as a QR code (lowest error level that keeps the symbol smallest, raised by
    segno when that costs nothing); empty when there is nothing to show."""

    DEFAULT_CSS = """
    QrCode { width: auto; height: auto; }
    """

    def __init__(self, data: str = "", *, id: str | None = None,
                 classes: str | None = None) -> None:
        super().__init__(id=id, classes=classes)
        self._modules: list[list[int]] = []
        self._strips: list[Strip] = []
        self.data = ""
        self.set_data(data)

    def set_data(self, data: str) -> None:
        self.data = data
        self._modules = ([list(row) for row in segno.make(data, error="l", micro=False).matrix]
                         if data else [])
        self._strips = self._draw(QUIET_ZONES[0])
        self.refresh(layout=True)

    def _draw(self, quiet: int) -> list[Strip]:
        if not self._modules:
            return []
        width = len(self._modules[0]) + 2 * quiet
        blank = [[0] * width for _ in range(quiet)]
        rows = [[0] * quiet + row + [0] * quiet for row in self._modules]
        return matrix_strips(blank + rows + blank)

    def get_content_width(self, container: Size, viewport: Size) -> int:
        return self._strips[0].cell_length if self._strips else 0

    def get_content_height(self, container: Size, viewport: Size, width: int) -> int:
        for quiet in QUIET_ZONES:
            self._strips = self._draw(quiet)
            if len(self._strips) <= container.height:
                break
        return len(self._strips)

    def render_line(self, y: int) -> Strip:
        if 0 <= y < len(self._strips):
            return self._strips[y]
        return Strip.blank(self.size.width)
