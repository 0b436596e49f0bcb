"""The fleet ledger carries each payment's and refund's wallet provider (issue 31): a counter
taking ZaloPay and MoMo ships both, each row with its provider, kept under its own key
(provider, id, created_ms); rows shipped before the journal named providers are ZaloPay's."""

from __future__ import annotations

from typing import Any

import psycopg

from pos_terminal.counter import open_checkout
from pos_terminal.ledger import LedgerSync
from tests.conftest import with_momo
from tests.ledger.helpers import assert_ledger_is_union
from tests.ledger.old_schema import ledger_at


def test_the_ledger_keeps_each_row_s_provider(make_terminal: Any, emulator: Any,
                                             ledger_dsn: str) -> None:
    settings = with_momo(make_terminal("W1"), emulator)
    [zp_code] = emulator.control.rotate("an", 1)
    with open_checkout(settings) as co:
        zp = co.pay(30_000, zp_code)
        mm = co.pay(45_000, emulator.control.momo_code("momo-paid"))
        refund = co.refund(mm.app_trans_id, 5_000)
    assert (zp.provider, mm.provider, refund.provider) == ("zalopay", "momo", "momo")
    sync = LedgerSync(settings)
    try:
        assert sync.sync_once().shipped > 0
    finally:
        sync.close()
    with psycopg.connect(ledger_dsn) as conn:
        payments = dict(conn.execute("SELECT app_trans_id, provider FROM payments").fetchall())
        refunds = dict(conn.execute("SELECT m_refund_id, provider FROM refunds").fetchall())
        keys = conn.execute(
            "SELECT a.attname FROM pg_index i JOIN pg_attribute a ON a.attrelid = i.indrelid "
            "AND a.attnum = ANY(i.indkey) WHERE i.indrelid = 'payments'::regclass "
            "AND i.indisprimary").fetchall()
    assert payments == {zp.app_trans_id: "zalopay", mm.app_trans_id: "momo"}
    assert refunds == {refund.m_refund_id: "momo"}
    assert {k for (k,) in keys} == {"provider", "app_trans_id", "created_ms"}
    assert_ledger_is_union(ledger_dsn, [("W1", settings.terminal.journal)])


def test_a_ledger_of_the_previous_schema_keeps_its_rows_as_zalopay_s(
        empty_ledger_dsn: str) -> None:
    from pos_terminal.ledger import schema

    with psycopg.connect(empty_ledger_dsn, autocommit=True) as conn:
        with conn.transaction(), conn.cursor() as cur:  # the previous release's `fleet migrate`
            ledger_at(cur, 3)
            cur.execute(
                "INSERT INTO payments(app_trans_id, terminal_id, cashier, kind, generation, "
                "state, amount, description, items_json, service_message, message, "
                "refunded_amount, polls, needs_review, created_ms, updated_ms, journal_id, seq) "
                "VALUES ('261101_T1_1', 'T1', 'c1', 'quick_pay', 'v2', 'unknown', 5000, '', "
                "'[]', '', '', 0, 0, false, 1793000000000, 1793000000000, 'j', 1)")
        assert schema.migrate(conn) == [4, 5, 6, 7]
        rows = conn.execute("SELECT app_trans_id, provider FROM payments").fetchall()
        open_rows = conn.execute("SELECT id, provider FROM open_rows").fetchall()
        # the open row still leaves open_rows when it settles, under its provider's key
        conn.execute("UPDATE payments SET state='succeeded', updated_ms=updated_ms+1")
        left = conn.execute("SELECT count(*) FROM open_rows").fetchone()
    assert rows == [("261101_T1_1", "zalopay")]
    assert open_rows == [("261101_T1_1", "zalopay")]
    assert left == (0,)
