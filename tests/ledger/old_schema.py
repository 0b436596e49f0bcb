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


def failed_payment(cur: psycopg.Cursor[Any], app_trans_id: str, *, needs_review: bool = False,
                   wallet: str = "payos", amount: int = 40_000) -> None:
    """A FAILED payment of terminal T1 as the ledger had it (`wallet`: its provider and
    generation; a payOS one is a gateway QR)."""
    kind = "gateway" if wallet == "payos" else "quick_pay"
    generation = "payos" if wallet == "payos" else "v2"
    cur.execute(
        "INSERT INTO payments(app_trans_id, terminal_id, cashier, kind, generation, state, "
        "amount, description, items_json, service_message, message, provider_trans_id, "
        "refunded_amount, polls, needs_review, created_ms, updated_ms, journal_id, seq, "
        "provider) VALUES (%s, 'T1', 'c1', %s, %s, 'failed', %s, '', '[]', '', '', NULL, 0, 0, "
        "%s, 1793000000000, 1793000000000, 'j', 1, %s)",
        (app_trans_id, kind, generation, amount, needs_review, wallet))
