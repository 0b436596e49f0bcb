"""The ledger names the wallet's own id of a payment neutrally (issue 40): a ledger of the
previous schema migrates `zp_trans_id` to `provider_trans_id`, keeps every id, and its
forward-only rule still guards it; counters keep shipping it under the payload's old key."""

from __future__ import annotations

from typing import Any

import psycopg
import pytest

from pos_terminal.counter import open_checkout
from pos_terminal.ledger import LedgerSync
from tests.ledger.old_schema import ledger_at


def test_a_ledger_of_the_previous_schema_keeps_its_ids(empty_ledger_dsn: str) -> None:
    from pos_terminal.ledger import schema

    with psycopg.connect(empty_ledger_dsn, autocommit=True) as conn:
        with conn.transaction(), conn.cursor() as cur:  # the previous release's `fleet migrate`
            ledger_at(cur, 4)
            cur.execute(
                "INSERT INTO payments(app_trans_id, terminal_id, cashier, kind, generation, "
                "state, amount, description, items_json, service_message, message, "
                "zp_trans_id, refunded_amount, polls, needs_review, created_ms, updated_ms, "
                "journal_id, seq, provider) VALUES ('261101_T1_1', 'T1', 'c1', 'quick_pay', "
                "'momo-pos-v2', 'succeeded', 5000, '', '[]', '', '', '4000000001', 0, 0, false, "
                "1793000000000, 1793000000000, 'j', 1, 'momo')")
        assert schema.migrate(conn) == [5, 6, 7]
        rows = conn.execute("SELECT app_trans_id, provider_trans_id FROM payments").fetchall()
        with pytest.raises(psycopg.errors.IntegrityConstraintViolation,
                           match="only moves forward"):
            conn.execute("UPDATE payments SET provider_trans_id='other', "
                         "updated_ms=updated_ms+1")
    assert rows == [("261101_T1_1", "4000000001")]


def test_a_counter_ships_its_ids_into_the_renamed_column(make_terminal: Any, emulator: Any,
                                                          ledger_dsn: str) -> None:
    settings = make_terminal("W2")
    [code] = emulator.control.rotate("an", 1)
    with open_checkout(settings) as co:
        paid = co.pay(30_000, code)
    sync = LedgerSync(settings)
    try:
        assert sync.sync_once().shipped > 0
        assert sync.sync_once().shipped == 0  # the same snapshot again merges as unchanged
    finally:
        sync.close()
    with psycopg.connect(ledger_dsn) as conn:
        rows = conn.execute("SELECT app_trans_id, provider_trans_id FROM payments").fetchall()
    assert rows == [(paid.app_trans_id, paid.zp_trans_id)] and paid.zp_trans_id
