"""A ledger as an earlier release's `fleet migrate` left it: its first `versions` migrations
applied and recorded, this month's partitions made, terminal T1 known; the caller writes its
rows with `cur`, inside the same transaction."""

from __future__ import annotations

from typing import Any

import psycopg


def ledger_at(cur: psycopg.Cursor[Any], versions: int) -> None:
    from pos_terminal.ledger import schema

    cur.execute("CREATE TABLE schema_migrations (version integer PRIMARY KEY, "
                "applied_at timestamptz NOT NULL DEFAULT now())")
    for number, script in enumerate(schema.MIGRATIONS[:versions], start=1):
        cur.execute(script.encode("utf-8"))
        cur.execute("INSERT INTO schema_migrations(version) VALUES (%s)", (number,))
    cur.execute("SELECT ledger_ensure_partitions(1)")
    cur.execute("INSERT INTO terminals(terminal_id, app_user) VALUES ('T1', 'c1')")
