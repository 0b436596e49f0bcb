"""The day's reports from the journal: X (running totals), Z (closing the day), per cashier or
shift. The arithmetic is in reports.py; this is the store's side of it.
"""

from __future__ import annotations

import sqlite3

from pos_terminal.journal.reports import (
    GroupTotals,
    Report,
    compute_report,
    grouped_report,
    shift_totals,
    stored_z_report,
)
from pos_terminal.journal.upkeep import Upkeep


class DayReports(Upkeep):
    """X and Z reports (Z reports are immutable rows of `z_reports`)."""

    def x_report(self) -> Report:
        """Running totals of the open day (everything not yet in a Z report). Writes nothing."""
        return self._reading(lambda conn: compute_report(conn, close=False, now=self._clock()))

    def close_day(self, *, ledger: bool = True) -> Report:
        """The Z report: numbers and freezes every settled row of the open day, in one commit.

        Unresolved payments and refunds in flight are not closed; they are listed and carried to
        the next day. Then the outbox is pruned (upkeep.py): without a `ledger`, of every row
        older than its keeping time; with one, of those the ledger confirmed.
        """
        with self._tx() as conn:
            report = compute_report(conn, close=True, now=self._clock())
        self.prune_outbox(ledger=ledger)
        return report

    def z_report(self, number: int) -> Report:
        return self._reading(lambda conn: stored_z_report(conn, number))

    def grouped_report(self, by: str, z_number: int | None = None) -> list[GroupTotals]:
        """Totals per cashier or per shift ("cashier" | "shift") of the open day, or of the
        stored Z report `z_number`. Writes nothing."""
        def read(conn: sqlite3.Connection) -> list[GroupTotals]:
            names = {str(r[0]): str(r[1]) for r in
                     conn.execute("SELECT id, name FROM cashiers").fetchall()}
            return grouped_report(conn, by=by, z_number=z_number, names=names)

        return self._reading(read)

    def shift_report(self, shift_id: int) -> GroupTotals | None:
        """The totals of one shift from its sign-in to its sign-out, across Z reports."""
        def read(conn: sqlite3.Connection) -> GroupTotals | None:
            names = {str(r[0]): str(r[1]) for r in
                     conn.execute("SELECT id, name FROM cashiers").fetchall()}
            return shift_totals(conn, shift_id, names)

        return self._reading(read)

    def z_numbers(self) -> list[int]:
        return [int(r[0]) for r in self._read("SELECT number FROM z_reports ORDER BY number")]
