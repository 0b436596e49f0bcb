"""The day's reports from the journal: X (running totals), Z (closing the day), per cashier or
shift. The arithmetic is in reports.py; this is the store's side of it.
"""

from __future__ import annotations

import sqlite3

from pos_terminal.journal.connection import JournalBase
from pos_terminal.journal.errors import unavailable_from
from pos_terminal.journal.reports import (
    GroupTotals,
    Report,
    compute_report,
    grouped_report,
    stored_z_report,
)


class DayReports(JournalBase):
    """X and Z reports (Z reports are immutable rows of `z_reports`)."""

    def x_report(self) -> Report:
        """Running totals of the open day (everything not yet in a Z report). Writes nothing."""
        with self._lock:
            try:
                return compute_report(self._conn, close=False, now=self._clock())
            except sqlite3.Error as exc:
                raise unavailable_from(exc, self.path) from exc

    def close_day(self) -> Report:
        """The Z report: numbers and freezes every settled row of the open day, in one commit.

        Unresolved payments and refunds in flight are not closed; they are listed and carried to
        the next day.
        """
        with self._tx() as conn:
            return compute_report(conn, close=True, now=self._clock())

    def z_report(self, number: int) -> Report:
        with self._lock:
            try:
                return stored_z_report(self._conn, number)
            except sqlite3.Error as exc:
                raise unavailable_from(exc, self.path) from exc

    def grouped_report(self, by: str, z_number: int | None = None) -> list[GroupTotals]:
        """Totals per cashier or per shift ("cashier" | "shift") of the open day, or of the
        stored Z report `z_number`. Writes nothing."""
        with self._lock:
            try:
                names = {str(r[0]): str(r[1]) for r in
                         self._conn.execute("SELECT id, name FROM cashiers").fetchall()}
                return grouped_report(self._conn, by=by, z_number=z_number, names=names)
            except sqlite3.Error as exc:
                raise unavailable_from(exc, self.path) from exc

    def z_numbers(self) -> list[int]:
        return [int(r[0]) for r in self._read("SELECT number FROM z_reports ORDER BY number")]
