"""Leases of the rows being sent (journal/lease.py has the rules): who may send a payment or a
refund, and since when its sending has been quiet.
"""

from __future__ import annotations

import sqlite3
from typing import Any

from pos_terminal.journal import lease
from pos_terminal.journal.connection import JournalBase


class LeaseRows(JournalBase):
    """The `leases` table (coordination between processes, not payment data)."""

    @staticmethod
    def _subject(table: str, value: str) -> str:
        return f"{'payment' if table == 'payments' else 'refund'}:{value}"

    def _take_lease_in(self, conn: sqlite3.Connection, table: str, value: str,
                       ttl_ms: int) -> None:
        conn.execute(
            "INSERT INTO leases(subject, owner, until_mono_ms) VALUES (?,?,?)",
            (self._subject(table, value), lease.me().owner, lease.mono_ms() + ttl_ms),
        )

    def _lease_row(self, conn: sqlite3.Connection, table: str, _key: str,
                   value: str) -> tuple[Any, ...]:
        row = conn.execute(
            "SELECT owner, until_mono_ms, quiet_boot_id, quiet_mono_ms FROM leases "
            "WHERE subject=?",
            (self._subject(table, value),),
        ).fetchone()
        return (None, None, None, None) if row is None else tuple(row)

    def _claim_send_in(self, conn: sqlite3.Connection, table: str, key: str, value: str,
                       ttl_ms: int) -> bool:
        owner = self._lease_row(conn, table, key, value)[0]
        if owner != lease.me().owner:
            return False
        conn.execute(
            "UPDATE leases SET until_mono_ms=? WHERE subject=?",
            (lease.mono_ms() + ttl_ms, self._subject(table, value)),
        )
        return True

    def _release_in(self, conn: sqlite3.Connection, table: str, _key: str, value: str) -> None:
        """The owner's sending is over: release its lease and stamp when it went quiet."""
        here = lease.me()
        conn.execute(
            "UPDATE leases SET owner=NULL, quiet_boot_id=?, quiet_mono_ms=? "
            "WHERE subject=? AND owner=?",
            (here.boot_id, lease.mono_ms(), self._subject(table, value), here.owner),
        )

    def _quiet_for_in(self, conn: sqlite3.Connection, table: str, key: str,
                      value: str) -> float | None:
        """Seconds since the row's sending provably went quiet, on this boot's monotonic clock;
        None while a lease may be live. A lease that ended without a release this process can
        time (its owner died, the machine rebooted; or a row from before leases) is stamped
        quiet now: the grace starts here."""
        owner, until, quiet_boot, quiet_mono = self._lease_row(conn, table, key, value)
        if owner is not None and lease.lease_live(owner, until):
            return None
        here = lease.me()
        now = lease.mono_ms()
        if owner is not None or quiet_boot != here.boot_id or quiet_mono is None:
            conn.execute(
                "INSERT INTO leases(subject, owner, until_mono_ms, quiet_boot_id, quiet_mono_ms) "
                "VALUES (?, NULL, NULL, ?, ?) ON CONFLICT(subject) DO UPDATE SET owner=NULL, "
                "quiet_boot_id=excluded.quiet_boot_id, quiet_mono_ms=excluded.quiet_mono_ms",
                (self._subject(table, value), here.boot_id, now),
            )
            quiet_mono = now
        return (now - int(quiet_mono)) / 1000
