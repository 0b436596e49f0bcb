"""Paying on a counter with the real Checkout against the emulator, and comparing the ledger
with the journals row for row."""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

import psycopg
from psycopg.rows import dict_row

from pos_terminal.config import Settings
from pos_terminal.counter import open_checkout
from pos_terminal.journal.outbox import PAYMENT_FIELDS, REFUND_FIELDS
from pos_terminal.journal.views import PaymentView
from pos_terminal.ledger.store import COLUMN_OF

EVENT_KEY = ("app_trans_id", "m_refund_id", "time_ms", "kind", "from_state", "to_state",
             "return_code", "sub_return_code", "message", "reason", "who")


def pay(settings: Settings, emulator: Any, amounts: Sequence[int],
        wallet: str = "an") -> list[PaymentView]:
    """Charge each amount on this counter (a real Checkout, real journal writes)."""
    codes = emulator.control.rotate(wallet, len(amounts))
    out = []
    with open_checkout(settings) as co:
        for amount, code in zip(amounts, codes, strict=True):
            out.append(co.pay(amount, code, description=f"fleet test {amount}"))
    return out


def _selected(fields: Sequence[str]) -> str:
    """The payload's fields as columns (a column renamed since is read under its old key)."""
    return ", ".join(f"{COLUMN_OF[f]} AS {f}" if f in COLUMN_OF else f for f in fields)


def journal_rows(path: Path, table: str, fields: Sequence[str]) -> dict[str, dict[str, Any]]:
    key = fields[0]
    conn = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    try:
        rows = conn.execute(f"SELECT {_selected(fields)} FROM {table}").fetchall()
    finally:
        conn.close()
    out = {}
    for row in rows:
        data = dict(zip(fields, row, strict=True))
        data["needs_review"] = bool(data["needs_review"])
        out[str(data[key])] = data
    return out


def journal_events(path: Path) -> list[tuple[Any, ...]]:
    conn = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    try:
        return conn.execute(f"SELECT {', '.join(EVENT_KEY)} FROM events").fetchall()
    finally:
        conn.close()


def ledger_rows(dsn: str, table: str, fields: Sequence[str]) -> dict[str, dict[str, Any]]:
    with psycopg.connect(dsn) as conn, conn.cursor(row_factory=dict_row) as cur:
        cur.execute(f"SELECT {_selected(fields)}, terminal_id FROM {table}")
        return {str(r[fields[0]]): dict(r) for r in cur.fetchall()}


def ledger_events(dsn: str) -> list[tuple[Any, ...]]:
    with psycopg.connect(dsn) as conn:
        return conn.execute(f"SELECT {', '.join(EVENT_KEY)} FROM events").fetchall()


def union(snapshots: Iterable[tuple[str, dict[str, dict[str, Any]]]]) -> dict[str, Any]:
    """Rows of several journals (terminal_id, rows) in one map; a row two journals both hold
    must be identical in both."""
    out: dict[str, Any] = {}
    for terminal_id, rows in snapshots:
        for key, row in rows.items():
            row = {**row, "terminal_id": terminal_id}
            assert out.get(key, row) == row, f"{key} differs between journals"
            out[key] = row
    return out


def assert_ledger_is_union(dsn: str, journals: Sequence[tuple[str, Path]]) -> None:
    """The ledger's payments, refunds and events are exactly those of the journals, row for row,
    field by field, nothing missing and nothing twice."""
    for table, fields in (("payments", PAYMENT_FIELDS), ("refunds", REFUND_FIELDS)):
        expected = union((t, journal_rows(p, table, fields)) for t, p in journals)
        actual = ledger_rows(dsn, table, fields)
        assert set(actual) == set(expected), f"{table}: keys differ"
        for key, row in expected.items():
            assert actual[key] == row, f"{table} {key}: {actual[key]} != {row}"
    expected_events = {e for _, p in journals for e in journal_events(p)}
    actual_events = ledger_events(dsn)
    assert len(actual_events) == len(set(actual_events)), "an event is in the ledger twice"
    assert set(actual_events) == expected_events


def outbox_payloads(path: Path) -> list[dict[str, Any]]:
    conn = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    try:
        return [json.loads(p) for (p,) in conn.execute("SELECT payload FROM outbox")]
    finally:
        conn.close()


def backup(src: Path, dst: Path) -> None:
    """A consistent copy of a live journal (what a backup tool would keep)."""
    with sqlite3.connect(src) as a, sqlite3.connect(dst) as b:
        a.backup(b)
    a.close()
    b.close()


def restore(copy: Path, journal: Path) -> None:
    for suffix in ("", "-wal", "-shm"):
        Path(f"{journal}{suffix}").unlink(missing_ok=True)
    backup(copy, journal)
