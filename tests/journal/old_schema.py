"""A journal as an earlier release wrote it: every migration before `migration` applied, its
user_version set, its fingerprint secret stored; the caller writes its rows."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from pos_terminal.journal.schema import MIGRATIONS
from pos_terminal.journal.store import _split_sql


def journal_before(path: Path, migration: str) -> sqlite3.Connection:
    """An open (autocommit) connection to a new journal at the version before `migration`."""
    before = MIGRATIONS.index(migration)
    conn = sqlite3.connect(path, isolation_level=None)
    for script in MIGRATIONS[:before]:
        conn.execute("BEGIN")
        for statement in _split_sql(script):
            conn.execute(statement)
        conn.execute("COMMIT")
    conn.execute(f"PRAGMA user_version={before}")
    conn.execute("INSERT INTO meta(key, value) VALUES ('fingerprint_secret', ?)", (b"s" * 32,))
    return conn
