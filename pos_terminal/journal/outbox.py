"""The journal's outbox: what the fleet ledger has not been sent yet.

SQLite triggers copy every payment and refund row (as it is after each insert or update), every
event and every Z report into `outbox`, inside the transaction of the change itself. So any
writer (this program, an older one, a repair by hand) fills it atomically: a committed change
always has its outbox row, and a rolled-back one never does.

`seq` numbers the rows of one journal. A journal restored from an older copy counts `seq` again
from where the copy stopped, so the pair (journal_id, seq) could name two different rows; the
sync detects that with the ledger (see pos_terminal.ledger.sync) and moves the journal to a new
journal_id from the first row that differs (`rotate`).

Meta keys: `journal_id` (random, made by the migration), `ledger_epoch_seq` (the first seq that
belongs to the current journal_id), `ledger_shipped_seq` (every row up to it is in the ledger).
"""

from __future__ import annotations

import hashlib
import secrets
import sqlite3
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

#: A payment's payload keys; `zp_trans_id` is the column `provider_trans_id` since journal
#: version 13 (SQLite carried the rename into the triggers these fields built; a new trigger
#: over payments names the column `provider_trans_id` and keeps the key).
PAYMENT_FIELDS = (
    "app_trans_id", "kind", "generation", "state", "amount", "description", "items_json",
    "code_last4", "return_code", "sub_return_code", "service_message", "message", "zp_trans_id",
    "order_url", "qr_code", "refunded_amount", "polls", "needs_review", "created_ms",
    "submitted_ms", "updated_ms", "z_number",
)
REFUND_FIELDS = (
    "m_refund_id", "app_trans_id", "amount", "description", "state", "request_ms", "return_code",
    "sub_return_code", "service_message", "message", "refund_id", "needs_review", "created_ms",
    "updated_ms", "z_number",
)
EVENT_FIELDS = (
    "id", "app_trans_id", "m_refund_id", "time_ms", "kind", "from_state", "to_state",
    "return_code", "sub_return_code", "message", "reason", "who",
)
Z_REPORT_FIELDS = ("number", "opened_ms", "closed_ms", "totals_json")

#: What each outbox kind copies: (table, key column, fields, time column).
KINDS: dict[str, tuple[str, str, tuple[str, ...], str]] = {
    "payment": ("payments", "app_trans_id", PAYMENT_FIELDS, "updated_ms"),
    "refund": ("refunds", "m_refund_id", REFUND_FIELDS, "updated_ms"),
    "event": ("events", "id", EVENT_FIELDS, "time_ms"),
    "z_report": ("z_reports", "number", Z_REPORT_FIELDS, "closed_ms"),
}


def _json_object(fields: tuple[str, ...], row: str,
                 columns: Mapping[str, str] | None = None) -> str:
    """The payload of `fields` (each key read from its column, `columns` naming those renamed)."""
    return "json_object(" + ", ".join(f"'{f}', {row}{(columns or {}).get(f, f)}"
                                      for f in fields) + ")"


def _migration() -> str:
    parts = [
        """
    CREATE TABLE outbox (
        seq        INTEGER PRIMARY KEY AUTOINCREMENT,
        kind       TEXT NOT NULL CHECK (kind IN ('payment', 'refund', 'event', 'z_report')),
        key        TEXT NOT NULL,
        payload    TEXT NOT NULL,
        created_ms INTEGER NOT NULL
    ) STRICT;
    INSERT INTO meta(key, value) VALUES ('journal_id', lower(hex(randomblob(16))));
    INSERT INTO meta(key, value) VALUES ('ledger_epoch_seq', 1);
    INSERT INTO meta(key, value) VALUES ('ledger_shipped_seq', 0);
    """
    ]
    for kind, (table, key, fields, time_col) in KINDS.items():
        order = "id" if table == "events" else ("number" if table == "z_reports" else "created_ms")
        # Rows written before this version are shipped too, oldest first.
        parts.append(
            f"INSERT INTO outbox(kind, key, payload, created_ms) SELECT '{kind}', "  # noqa: S608
            f"CAST({key} AS TEXT), {_json_object(fields, '')}, {time_col} FROM {table} "
            f"ORDER BY {order};\n"
        )
        events = ("INSERT",) if table in ("events", "z_reports") else ("INSERT", "UPDATE")
        for event in events:
            parts.append(
                f"CREATE TRIGGER outbox_{table}_{event.lower()} AFTER {event} ON {table}\n"  # noqa: S608
                f"BEGIN INSERT INTO outbox(kind, key, payload, created_ms) VALUES ('{kind}', "
                f"CAST(NEW.{key} AS TEXT), {_json_object(fields, 'NEW.')}, NEW.{time_col}); "
                "END;\n"
            )
    return "".join(parts)


OUTBOX_MIGRATION = _migration()


def cashier_triggers_migration(kinds: tuple[str, ...] = ("payment", "refund"),
                               extra: dict[str, tuple[str, ...]] | None = None,
                               columns: Mapping[str, str] | None = None) -> str:
    """Schema v5 (cashiers): payment and refund rows carry one more payload key, `cashier` (the
    cashier who took the payment or asked for the refund; null when nobody was signed in). The
    fleet ledger keeps it in its `cashier` column, which holds the counter's app_user when the
    key is null or absent (rows shipped before v5). `extra`: more columns of a kind's payload
    (v8: a refund's `authorised_by`). `columns`: payload keys whose column was renamed since
    (v13: `zp_trans_id` is read from `provider_trans_id`)."""
    parts: list[str] = []
    for kind in kinds:
        table, key, _fields, time_col = KINDS[kind]
        payload = payload_sql(kind, "NEW.", extra, columns)
        for event in ("INSERT", "UPDATE"):
            name = f"outbox_{table}_{event.lower()}"
            parts.append(
                f"DROP TRIGGER {name};\n"  # noqa: S608 - names and fields are constants
                f"CREATE TRIGGER {name} AFTER {event} ON {table}\n"
                f"BEGIN INSERT INTO outbox(kind, key, payload, created_ms) VALUES ('{kind}', "
                f"CAST(NEW.{key} AS TEXT), {payload}, NEW.{time_col}); END;\n")
    return "".join(parts)


def payload_sql(kind: str, row: str, extra: dict[str, tuple[str, ...]] | None = None,
                columns: Mapping[str, str] | None = None) -> str:
    """The SQL of a payment's or refund's payload since v5: its fields, `cashier`, the `extra`
    columns of its kind; `row` is "NEW." in a trigger, "" in a SELECT."""
    _table, _key, fields, _time_col = KINDS[kind]
    more = "".join(f", '{c}', {row}{c}" for c in (extra or {}).get(kind, ()))
    return _json_object(fields, row, columns)[:-1] + f", 'cashier', {row}cashier_id{more})"


#: Journal version 15 (a late charge in the fleet ledger): a payment's payload carries `late` and
#: `abandoned`, a refund's `auto` (the fleet report counts late charges as the counter's X/Z
#: do; the ledger takes failed -> succeeded/refunded only from a payment shipped `late`).
LATE_EXTRA: dict[str, tuple[str, ...]] = {
    "payment": ("provider", "late", "abandoned"),
    "refund": ("authorised_by", "provider", "auto")}
#: since v13 (SQLite carried the rename into the triggers that existed then)
RENAMED_COLUMNS = {"zp_trans_id": "provider_trans_id"}


def late_flags_migration() -> str:
    """The v15 outbox triggers, then the late and abandoned payments and automatic returns
    already shipped shipped again with their flags (a ledger that refused a late success, from
    a payload without `late`, takes it now)."""
    parts = [cashier_triggers_migration(("payment", "refund"), LATE_EXTRA, RENAMED_COLUMNS)]
    for kind, where in (("payment", "late = 1 OR abandoned = 1"), ("refund", "auto = 1")):
        table, key, _fields, time_col = KINDS[kind]
        parts.append(
            f"INSERT INTO outbox(kind, key, payload, created_ms) SELECT '{kind}', "  # noqa: S608
            f"CAST({key} AS TEXT), {payload_sql(kind, '', LATE_EXTRA, RENAMED_COLUMNS)}, "
            f"{time_col} FROM {table} WHERE {where} ORDER BY {time_col};\n")
    return "".join(parts)


@dataclass(frozen=True)
class OutboxRow:
    seq: int
    kind: str
    key: str
    payload: str
    created_ms: int

    @property
    def digest(self) -> str:
        """What the ledger keeps to tell this row from another row with the same seq."""
        text = f"{self.kind}\n{self.key}\n{self.payload}"
        return hashlib.sha256(text.encode("utf-8")).hexdigest()


@dataclass(frozen=True)
class OutboxState:
    journal_id: str
    epoch_seq: int     # first seq of this journal_id
    shipped_seq: int   # every row up to here is in the ledger
    last_seq: int      # the newest row (0: none yet)
    parent_journal_id: str | None = None  # the journal_id this one forked from (restored copy)

    @property
    def behind(self) -> int:
        return max(0, self.last_seq - self.shipped_seq)


class Outbox:
    """The sync's own connection to a journal file (never the payment connection).

    Open the journal with Journal.open first (it creates and migrates the file); this class
    only reads the outbox and writes the three ledger meta keys, in short transactions."""

    def __init__(self, path: Path | str, *, busy_timeout_s: float = 5.0) -> None:
        self.path = Path(path).expanduser()
        self._conn = sqlite3.connect(f"file:{self.path}?mode=rw", uri=True,
                                     timeout=busy_timeout_s, isolation_level=None,
                                     check_same_thread=False)
        self._conn.execute("PRAGMA synchronous=FULL")
        if self._conn.execute(
                "SELECT 1 FROM sqlite_master WHERE name='outbox'").fetchone() is None:
            self._conn.close()
            raise sqlite3.OperationalError(f"{self.path} has no outbox (open it with Journal)")

    def close(self) -> None:
        self._conn.close()

    def __enter__(self) -> Outbox:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def _meta(self, key: str) -> Any:
        row = self._conn.execute("SELECT value FROM meta WHERE key=?", (key,)).fetchone()
        return None if row is None else row[0]

    def state(self) -> OutboxState:
        self._conn.execute("BEGIN")
        try:
            last = self._conn.execute("SELECT coalesce(max(seq), 0) FROM outbox").fetchone()[0]
            seq_row = self._conn.execute(
                "SELECT seq FROM sqlite_sequence WHERE name='outbox'").fetchone()
            return OutboxState(
                journal_id=str(self._meta("journal_id")),
                epoch_seq=int(self._meta("ledger_epoch_seq")),
                shipped_seq=int(self._meta("ledger_shipped_seq")),
                last_seq=max(int(last), int(seq_row[0]) if seq_row else 0),
                parent_journal_id=self._meta("ledger_parent_journal_id"),
            )
        finally:
            self._conn.execute("COMMIT")

    def rows(self, after_seq: int, limit: int, upto_seq: int | None = None) -> list[OutboxRow]:
        sql = "SELECT seq, kind, key, payload, created_ms FROM outbox WHERE seq > ?"
        args: list[Any] = [after_seq]
        if upto_seq is not None:
            sql += " AND seq <= ?"
            args.append(upto_seq)
        sql += " ORDER BY seq LIMIT ?"
        args.append(limit)
        return [OutboxRow(*r) for r in self._conn.execute(sql, args).fetchall()]

    def mark_shipped(self, journal_id: str, seq: int) -> None:
        """Record that the ledger committed every row up to `seq` of `journal_id` (a cursor
        that only moves forward, and only for the journal_id still current)."""
        self._conn.execute("BEGIN IMMEDIATE")
        try:
            self._conn.execute(
                "UPDATE meta SET value=? WHERE key='ledger_shipped_seq' AND value < ? AND "
                "(SELECT value FROM meta WHERE key='journal_id') = ?", (seq, seq, journal_id))
            self._conn.execute("COMMIT")
        except BaseException:
            self._conn.execute("ROLLBACK")
            raise

    def rewind(self, journal_id: str, seq: int) -> None:
        """The ledger has less than the cursor says (it was restored from a backup): ship again
        from `seq` + 1."""
        self._conn.execute("BEGIN IMMEDIATE")
        try:
            self._conn.execute(
                "UPDATE meta SET value=? WHERE key='ledger_shipped_seq' AND "
                "(SELECT value FROM meta WHERE key='journal_id') = ?", (seq, journal_id))
            self._conn.execute("COMMIT")
        except BaseException:
            self._conn.execute("ROLLBACK")
            raise

    def rotate(self, old_journal_id: str, first_seq: int) -> str:
        """This file is an older copy whose rows from `first_seq` on differ from what the
        ledger has under the same journal_id: they get a new journal_id. Returns it."""
        new_id = secrets.token_hex(16)
        self._conn.execute("BEGIN IMMEDIATE")
        try:
            if self._meta("journal_id") != old_journal_id:  # another process already did
                current = str(self._meta("journal_id"))
                self._conn.execute("COMMIT")
                return current
            for key, value in (("journal_id", new_id), ("ledger_epoch_seq", first_seq),
                               ("ledger_shipped_seq", first_seq - 1)):
                self._conn.execute("UPDATE meta SET value=? WHERE key=?", (value, key))
            self._conn.execute("INSERT OR REPLACE INTO meta(key, value) VALUES "
                               "('ledger_parent_journal_id', ?)", (old_journal_id,))
            self._conn.execute("COMMIT")
        except BaseException:
            self._conn.execute("ROLLBACK")
            raise
        return new_id

    def prune(self, before_ms: int) -> int:
        """Forget shipped rows older than `before_ms` (the ledger keeps them)."""
        self._conn.execute("BEGIN IMMEDIATE")
        try:
            shipped = int(self._meta("ledger_shipped_seq"))
            cur = self._conn.execute(
                "DELETE FROM outbox WHERE seq <= ? AND created_ms < ?", (shipped, before_ms))
            self._conn.execute("COMMIT")
        except BaseException:
            self._conn.execute("ROLLBACK")
            raise
        return int(cur.rowcount)


def outbox_behind(path: Path | str) -> int:
    """How many outbox rows of the journal at `path` the ledger has not confirmed."""
    with Outbox(path) as box:
        return box.state().behind
