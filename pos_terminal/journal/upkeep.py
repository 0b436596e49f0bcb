"""Keeping a journal's file bounded over years: the outbox pruned (shipped rows, or every old row
when no ledger is configured), free pages given back (`journal compact`), and what the file
holds and how long the disk lasts (`journal info`).
"""

from __future__ import annotations

import shutil
import sqlite3
from dataclasses import dataclass
from typing import Any

from pos_terminal.journal.connection import JournalBase
from pos_terminal.journal.errors import unavailable_from

#: Outbox rows are kept this long locally (the ledger keeps them for good): a week of rows to
#: ship again to a ledger restored from its backup. They are more than half of what a payment
#: writes (a copy of the row at every change): a month of them would take a file a year old past
#: 1.2 KB per payment (docs/benchmarks.md).
OUTBOX_KEEP_MS = 7 * 24 * 3600 * 1000
DAY_MS = 24 * 3600 * 1000
#: `journal info` warns when the disk fills within this many days at the current rate.
WARN_DAYS = 90
#: The rate is measured over the payments of this many days.
RATE_DAYS = 30
_TABLES = ("payments", "events", "refunds", "outbox", "leases", "z_reports")


@dataclass(frozen=True)
class JournalInfo:
    path: str
    size_bytes: int          # the file with its write-ahead log
    free_bytes: int          # pages inside the file free for new rows
    rows: dict[str, int]
    oldest_ms: int | None    # the first payment
    newest_ms: int | None
    recent_payments: int     # payments in the last `rate_days` days
    rate_days: float         # RATE_DAYS, or the journal's age when younger (at least a day)
    disk_free_bytes: int
    auto_vacuum: str

    @property
    def bytes_per_payment(self) -> float | None:
        used = self.size_bytes - self.free_bytes
        return used / self.rows["payments"] if self.rows["payments"] else None

    @property
    def growth_per_day(self) -> float:
        """Bytes a day at the pace of the last RATE_DAYS days (free pages are used first)."""
        per_payment = self.bytes_per_payment or 0.0
        return per_payment * self.recent_payments / self.rate_days

    @property
    def days_left(self) -> float | None:
        """Days until the disk is full at the current pace (None: not growing)."""
        rate = self.growth_per_day
        if rate <= 0:
            return None
        return max(0.0, (self.disk_free_bytes + self.free_bytes) / rate)

    @property
    def disk_warning(self) -> bool:
        return self.days_left is not None and self.days_left < WARN_DAYS

    def to_json(self) -> dict[str, Any]:
        return {
            "path": self.path, "size_bytes": self.size_bytes, "free_bytes": self.free_bytes,
            "rows": dict(self.rows), "oldest_ms": self.oldest_ms, "newest_ms": self.newest_ms,
            "recent_payments": self.recent_payments, "rate_days": self.rate_days,
            "disk_free_bytes": self.disk_free_bytes,
            "auto_vacuum": self.auto_vacuum, "bytes_per_payment": self.bytes_per_payment,
            "growth_bytes_per_day": self.growth_per_day, "days_left": self.days_left,
            "disk_warning": self.disk_warning,
        }


class Upkeep(JournalBase):
    """Outbox pruning, compaction and the file's figures."""

    def prune_outbox(self, *, ledger: bool, now: int | None = None) -> int:
        """Delete outbox rows older than OUTBOX_KEEP_MS: with a ledger only those it has
        confirmed, without one every old row (nothing will ever ship them; a counter that joins
        a fleet later ships its last OUTBOX_KEEP_MS). Returns how many; their pages are reused
        by the rows that follow."""
        before = (self._clock() if now is None else now) - OUTBOX_KEEP_MS
        with self._tx() as conn:
            if ledger:
                row = conn.execute(
                    "SELECT value FROM meta WHERE key='ledger_shipped_seq'").fetchone()
                shipped = int(row[0]) if row else 0
                cur = conn.execute("DELETE FROM outbox WHERE created_ms < ? AND seq <= ?",
                                   (before, shipped))
            else:
                cur = conn.execute("DELETE FROM outbox WHERE created_ms < ?", (before,))
            return int(cur.rowcount)

    def compact(self) -> tuple[int, int]:
        """Give the file's free pages back to the disk; returns the size before and after.

        A journal made by this version frees them in place (incremental auto-vacuum, quick);
        an older one is rewritten once (VACUUM: payments wait meanwhile, and the disk needs
        room for a second copy) and frees them in place from then on."""
        before = self._file_size()
        with self._lock:
            conn = self._conn
            try:
                # never rewrite a damaged file (it would lose what can still be read)
                check = conn.execute("PRAGMA quick_check(1)").fetchone()[0]
                if check != "ok":
                    raise sqlite3.DatabaseError(f"database disk image is malformed: {check}")
                if int(conn.execute("PRAGMA auto_vacuum").fetchone()[0]) != 2:
                    conn.execute("PRAGMA auto_vacuum=INCREMENTAL")
                    conn.execute("VACUUM")
                else:  # run to the end (one step of the statement frees one page)
                    conn.executescript("PRAGMA incremental_vacuum;")
                conn.execute("PRAGMA wal_checkpoint(TRUNCATE)").fetchall()
            except sqlite3.Error as exc:
                raise unavailable_from(exc, self.path) from exc
        return before, self._file_size()

    def _file_size(self) -> int:
        total = 0
        for suffix in ("", "-wal"):
            try:
                total += (self.path.parent / (self.path.name + suffix)).stat().st_size
            except FileNotFoundError:
                continue
        return total

    def info(self) -> JournalInfo:
        """The file's size, its rows, its oldest payment, its free space and the disk's."""
        def read(conn: sqlite3.Connection) -> JournalInfo:
            page = int(conn.execute("PRAGMA page_size").fetchone()[0])
            free = int(conn.execute("PRAGMA freelist_count").fetchone()[0]) * page
            rows = {t: int(conn.execute(f"SELECT count(*) FROM {t}").fetchone()[0])  # noqa: S608
                    for t in _TABLES}
            oldest, newest = conn.execute(
                "SELECT min(created_ms), max(created_ms) FROM payments").fetchone()
            since = (newest or 0) - RATE_DAYS * DAY_MS
            span = ((newest - oldest) / DAY_MS) if oldest is not None else 0.0
            recent = int(conn.execute("SELECT count(*) FROM payments WHERE created_ms >= ?",
                                      (since,)).fetchone()[0])
            mode = int(conn.execute("PRAGMA auto_vacuum").fetchone()[0])
            return JournalInfo(
                path=str(self.path), size_bytes=self._file_size(), free_bytes=free, rows=rows,
                oldest_ms=oldest, newest_ms=newest, recent_payments=recent,
                rate_days=max(1.0, min(float(RATE_DAYS), span)),
                disk_free_bytes=shutil.disk_usage(self.path.parent).free,
                auto_vacuum={0: "none", 1: "full", 2: "incremental"}.get(mode, str(mode)))

        return self._reading(read)
