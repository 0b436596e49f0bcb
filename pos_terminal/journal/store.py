"""The durable payment journal: one SQLite file, WAL, synchronous=FULL.

Every state change is one `BEGIN IMMEDIATE ... COMMIT` holding both the row update and its
appended event, so after a crash the file shows either the old state or the new state with its
event, never one without the other. The raw payment code never reaches this module's storage:
only an HMAC-SHA256 fingerprint keyed by a random per-journal secret, and its last 4 characters.

`Journal` is the store: opening and migrating the file here; each job in its own module
(payments.py, refunds.py, leasing.py, day_reports.py, receipt_prints.py, upkeep.py over
connection.py).
"""

from __future__ import annotations

import secrets
import sqlite3
import time
from collections.abc import Callable
from contextlib import suppress
from pathlib import Path

from pos_terminal.base.codes import code_last4
from pos_terminal.base.files import create_private, loose_permissions
from pos_terminal.base.reasons import Reason
from pos_terminal.journal.connection import now_ms
from pos_terminal.journal.day_reports import DayReports
from pos_terminal.journal.errors import (
    JournalCorrupt,
    JournalError,
    JournalUnavailable,
    unavailable_from,
)
from pos_terminal.journal.machine import StateMachine
from pos_terminal.journal.receipt_prints import ReceiptPrints
from pos_terminal.journal.schema import MIGRATIONS, SCHEMA_VERSION
from pos_terminal.journal.upkeep import Upkeep

__all__ = ["Journal", "code_last4", "now_ms"]


def _switch_to_wal(conn: sqlite3.Connection, deadline: float) -> str:
    """The journal mode after asking for WAL. Two processes creating the journal at once: the
    switch needs the file to itself, so the loser sees the old mode or "database is locked"
    (SQLite does not wait on its busy handler here). Try again until the deadline."""
    while True:
        try:
            mode = str(conn.execute("PRAGMA journal_mode=WAL").fetchone()[0])
        except sqlite3.OperationalError as exc:
            if "locked" not in str(exc) and "busy" not in str(exc):
                raise
            if time.monotonic() >= deadline:
                raise
            mode = ""
        if mode.lower() == "wal" or time.monotonic() >= deadline:
            return mode
        time.sleep(0.02)


class Journal(StateMachine, DayReports, ReceiptPrints, Upkeep):
    """The SQLite journal (checkout.ports.CheckoutJournal). Thread-safe (one connection behind a
    lock); several processes may share the file."""

    @classmethod
    def open(
        cls,
        path: Path | str,
        *,
        busy_timeout_s: float = 5.0,
        clock: Callable[[], int] = now_ms,
        private: bool = False,
    ) -> Journal:
        """Open (creating or migrating) the journal at `path`.

        Raises JournalUnavailable when the file cannot be opened or written, or when other users
        may change it (or, with `private`, read it: outside the emulator profile), JournalCorrupt
        when it is not a journal this version understands.
        """
        p = Path(path).expanduser()
        try:
            _create_private(p)
            _check_permissions(p, private=private)
            conn = sqlite3.connect(
                str(p), timeout=busy_timeout_s, isolation_level=None, check_same_thread=False
            )
        except (sqlite3.Error, OSError) as exc:
            raise unavailable_from(exc, p) from exc
        try:
            # A new file frees the pages of pruned rows at the file's end (`journal compact`);
            # an existing one keeps its mode until `journal compact` rewrites it.
            conn.execute("PRAGMA auto_vacuum=INCREMENTAL")
            mode = _switch_to_wal(conn, time.monotonic() + min(busy_timeout_s, 5.0))
            if str(mode).lower() != "wal":
                raise JournalUnavailable(
                    f"The payment journal {p} cannot use write-ahead logging (mode {mode!r}). "
                    "New payments are stopped so that nothing is charged without a record. "
                    "Put the journal on a local disk.",
                    "no-wal",
                )
            conn.execute("PRAGMA synchronous=FULL")
            conn.execute("PRAGMA foreign_keys=ON")
            secret = cls._migrate(conn, p)
        except sqlite3.DatabaseError as exc:
            conn.close()
            if "not a database" in str(exc) or "malformed" in str(exc):
                raise JournalCorrupt(
                    f"{p} is not a pos-terminal journal or is damaged ({exc}). Move it aside and "
                    "keep it for inspection; a new journal will be created at this path."
                ) from exc
            raise unavailable_from(exc, p) from exc
        except JournalError:
            conn.close()
            raise
        try:
            return cls(conn, p, secret, clock, busy_timeout_s)
        except sqlite3.Error as exc:  # its read connection
            conn.close()
            raise unavailable_from(exc, p) from exc

    @staticmethod
    def _migrate(conn: sqlite3.Connection, path: Path) -> bytes:
        version = conn.execute("PRAGMA user_version").fetchone()[0]
        if version > SCHEMA_VERSION:
            raise JournalCorrupt(
                f"The journal {path} has schema version {version}, newer than this pos-terminal "
                f"understands ({SCHEMA_VERSION}). Upgrade pos-terminal to read it."
            )
        if version < SCHEMA_VERSION:
            conn.execute("BEGIN IMMEDIATE")
            try:
                # Another process may have migrated while we waited for the write lock.
                version = conn.execute("PRAGMA user_version").fetchone()[0]
                for number in range(version, SCHEMA_VERSION):
                    for statement in _split_sql(MIGRATIONS[number]):
                        conn.execute(statement)
                    conn.execute(f"PRAGMA user_version={number + 1}")
                if version == 0:
                    conn.execute(
                        "INSERT INTO meta(key, value) VALUES ('fingerprint_secret', ?)",
                        (secrets.token_bytes(32),),
                    )
                    conn.execute(
                        "INSERT INTO meta(key, value) VALUES ('created_ms', ?)", (now_ms(),)
                    )
                conn.execute("COMMIT")
            except BaseException:
                conn.execute("ROLLBACK")
                raise
        row = conn.execute("SELECT value FROM meta WHERE key='fingerprint_secret'").fetchone()
        if row is None or not isinstance(row[0], bytes):
            raise JournalCorrupt(f"The journal {path} has lost its fingerprint secret.")
        return bytes(row[0])


def _create_private(path: Path) -> None:
    """Create the journal's folder (0700) and an empty journal file (0600) if missing.

    SQLite gives the -wal and -shm files the mode of the database file, so they are 0600 too.
    Files and folders that already exist are left as their owner set them."""
    folder = path.parent
    if not folder.is_dir():
        with suppress(FileExistsError):  # another process may make it meanwhile
            folder.mkdir(parents=True, mode=0o700)
    create_private(path)


def _check_permissions(path: Path, *, private: bool) -> None:
    """The journal holds the payments, the cashiers' PIN hashes and the secret its code
    fingerprints are keyed with: nobody but its owner may change it, and outside the emulator
    profile nobody else may read it (its -wal and -shm files hold the same data)."""
    files = [Path(f"{path}{suffix}") for suffix in ("", "-wal", "-shm")]
    found = {f: loose_permissions(f) for f in files}
    loose = [f for f, what in found.items() if what == "write" or (private and what == "read")]
    if not loose:
        return
    kind = "write" if any(found[f] == "write" for f in loose) else "read"
    raise JournalUnavailable(Reason.of(
        f"journal.others_can_{kind}", path=str(path),
        files=" ".join(str(f) for f in files if f.exists())), "permissions")


def _split_sql(script: str) -> list[str]:
    """Split a migration into statements (triggers contain ';' inside BEGIN ... END)."""
    statements: list[str] = []
    buffer = ""
    for line in script.splitlines(keepends=True):
        buffer += line
        if sqlite3.complete_statement(buffer):
            if buffer.strip():
                statements.append(buffer.strip())
            buffer = ""
    if buffer.strip():
        statements.append(buffer.strip())
    return statements
