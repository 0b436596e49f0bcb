"""A DataTable that never keeps rows drawn before their columns were measured."""

from __future__ import annotations

from typing import Any

from textual import events
from textual.widgets import DataTable


class MeasuredTable(DataTable[Any]):
    """Textual's DataTable measures new rows (column widths) only when its message queue runs
    empty, and caches each row as drawn. On a busy machine a screen refresh can come first: the
    rows are drawn with the columns as narrow as their labels ("Viet", "10.") and the cache
    keeps that picture, because measuring does not invalidate it. Here it does: when the
    measured widths changed, the table's style-update hook drops every cached row."""

    _seen: tuple[int, ...] = ()

    def _measured(self) -> tuple[int, ...]:
        return (self.row_count, *(c.get_render_width(self) for c in self.columns.values()))

    def on_idle(self, _event: events.Idle) -> None:
        # Runs before DataTable's own Idle handler (subclass first): what that handler
        # measured last time shows here, at the next Idle (measuring refreshes the table).
        measured = self._measured()
        if measured != self._seen:
            self._seen = measured
            self.notify_style_update()  # part of every render-cache key: rows drawn again
