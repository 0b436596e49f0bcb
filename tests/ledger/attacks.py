"""What a counter's own login tries against the ledger in the least-privilege tests: statements
run one by one, each either refused by PostgreSQL or touching nothing."""

from __future__ import annotations

import time
from typing import Any

import psycopg

from pos_terminal.journal.outbox import PAYMENT_FIELDS, REFUND_FIELDS
from pos_terminal.ledger.store import COLUMN_OF

#: Everything a counter ships, per table, in a stable order: a snapshot to compare before/after.
SNAPSHOTS = {
    "payments": ("app_trans_id", ", ".join(COLUMN_OF.get(f, f) for f in PAYMENT_FIELDS)
                 + ", terminal_id, cashier"),
    "refunds": ("m_refund_id", ", ".join(REFUND_FIELDS) + ", terminal_id, cashier"),
    "events": ("journal_id, seq", "*"),
    "receipts": ("journal_id, seq", "terminal_id, journal_id, seq, kind, key, digest"),
    "journals": ("journal_id", "terminal_id, journal_id, shipped_seq, first_seq"),
    "terminals": ("terminal_id", "terminal_id, app_user, first_seen"),
}


def rows_of(admin_dsn: str, terminal_id: str) -> dict[str, list[tuple[Any, ...]]]:
    """Every row of one terminal in every table, read with the owner's login."""
    with psycopg.connect(admin_dsn) as conn:
        return {table: conn.execute(f"SELECT {cols} FROM {table} WHERE "
                                    f"terminal_id=%s ORDER BY {order}",
                                    (terminal_id,)).fetchall()
                for table, (order, cols) in SNAPSHOTS.items()}


def payment_insert(app_trans_id: str, terminal_id: str, amount: int, *, state: str = "succeeded",
                   message: str = "paid") -> tuple[str, tuple[Any, ...]]:
    now = int(time.time() * 1000)
    return ("INSERT INTO payments(app_trans_id, terminal_id, cashier, kind, generation, state, "
            "amount, description, items_json, service_message, message, refunded_amount, polls, "
            "needs_review, created_ms, updated_ms, journal_id, seq) VALUES "
            "(%s,%s,'x','quick_pay','v2',%s,%s,'',  '[]','',%s,0,0,false,%s,%s,'forged',1)",
            (app_trans_id, terminal_id, state, amount, message, now, now))


def outcome(conn: psycopg.Connection[Any], statement: str, params: tuple[Any, ...] = ()) -> str:
    """"refused: <SQLSTATE>" when PostgreSQL refuses it, else "touched N rows"."""
    try:
        with conn.cursor() as cur:
            cur.execute(statement.encode(), params)
            return f"touched {max(cur.rowcount, 0)} rows"
    except psycopg.Error as exc:
        return f"refused: {exc.sqlstate}"
