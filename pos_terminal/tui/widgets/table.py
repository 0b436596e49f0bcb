"""A DataTable that never keeps rows drawn before their columns were measured."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from textual.widgets import DataTable
from textual.widgets.data_table import RowKey


class MeasuredTable(DataTable[Any]):
    """Textual's DataTable measures new rows (column widths) only when its message queue runs
    empty, and caches each row as drawn. On a busy machine a screen refresh can come first: the
    rows are drawn with the columns as narrow as their labels ("Viet", "10.") and the cache
    keeps that picture, because measuring does not invalidate it. Here it does."""

    def _update_dimensions(self, new_rows: Iterable[RowKey]) -> None:
        super()._update_dimensions(new_rows)
        self._update_count += 1  # part of every render-cache key: rows are drawn again
        self.refresh()
