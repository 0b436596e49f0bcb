"""The fleet ledger's `cashier` column: the cashier journaled with a payment (the supervisor
with a refund), the counter's app_user when nobody was signed in."""

from __future__ import annotations

from typing import Any

import psycopg

from pos_terminal.checkout import Checkout
from pos_terminal.ledger import LedgerSync
from tests.ledger.helpers import assert_ledger_is_union


def test_ledger_cashier_is_the_journaled_cashier(make_terminal: Any, emulator: Any,
                                                  ledger_dsn: str) -> None:
    settings = make_terminal("C1")
    code_a, code_b = emulator.control.rotate("an", 2)
    with Checkout(settings) as co:
        signed = co.pay(30_000, code_a, cashier_id="ann")
        anonymous = co.pay(2_000, code_b)
        refund = co.refund(signed.app_trans_id, 5_000, cashier_id="boss")
    sync = LedgerSync(settings)
    try:
        assert sync.sync_once().shipped > 0
    finally:
        sync.close()
    with psycopg.connect(ledger_dsn) as conn:
        payments = dict(conn.execute("SELECT app_trans_id, cashier FROM payments").fetchall())
        refunds = dict(conn.execute("SELECT m_refund_id, cashier FROM refunds").fetchall())
    assert payments == {signed.app_trans_id: "ann", anonymous.app_trans_id: "cashier-c1"}
    assert refunds == {refund.m_refund_id: "boss"}
    assert_ledger_is_union(ledger_dsn, [("C1", settings.terminal.journal)])
