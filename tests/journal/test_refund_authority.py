"""Every refund records who asked (cashier_id: reports count it for them) and who authorised it
(authorised_by), and a journal written before that keeps its history right: a refund that only
named its authorising supervisor moves to the cashier of its payment (real SQLite files)."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

from pos_terminal.journal import Journal, RefundState
from pos_terminal.journal.schema import MIGRATIONS, REFUND_AUTHORITY_MIGRATION
from pos_terminal.journal.store import _split_sql


def _journal_before_authority(path: Path) -> None:
    """A journal as the version before refunds knew who authorised them left it: ann's sale,
    a refund journaled with only the supervisor, and an automatic return of ann's late charge."""
    before = MIGRATIONS.index(REFUND_AUTHORITY_MIGRATION)
    conn = sqlite3.connect(path, isolation_level=None)
    for script in MIGRATIONS[:before]:
        for statement in _split_sql(script):
            conn.execute(statement)
    conn.execute(f"PRAGMA user_version={before}")
    conn.execute("INSERT INTO meta(key, value) VALUES ('fingerprint_secret', ?)", (b"s" * 32,))
    for cid, role in (("ann", "cashier"), ("boss", "supervisor")):
        conn.execute("INSERT INTO cashiers(id, name, role, pin_hash, created_ms) "
                     "VALUES (?, ?, ?, 'scrypt$x', 1)", (cid, cid.title(), role))
    for tid in ("261125_t1_a", "261125_t1_b"):
        conn.execute("INSERT INTO payments(app_trans_id, kind, generation, state, amount, "
                     "zp_trans_id, created_ms, updated_ms, cashier_id) "
                     "VALUES (?, 'quick_pay', 'v2', 'succeeded', 50000, '1', 1, 1, 'ann')",
                     (tid,))
    for rid, tid, who, auto in (("r_boss", "261125_t1_a", "boss", 0),
                                ("r_auto", "261125_t1_b", "ann", 1)):
        conn.execute("INSERT INTO refunds(m_refund_id, app_trans_id, amount, state, request_ms, "
                     "created_ms, updated_ms, cashier_id, auto) "
                     "VALUES (?, ?, 20000, 'refunding', 1, 1, 1, ?, ?)", (rid, tid, who, auto))
    conn.close()


def test_old_refunds_move_to_the_cashier_and_keep_their_supervisor(tmp_path: Path) -> None:
    path = tmp_path / "journal.db"
    _journal_before_authority(path)
    with Journal.open(path) as journal:
        raw = sqlite3.connect(path)
        [(moved,)] = raw.execute("SELECT payload FROM outbox WHERE kind='refund' AND "
                                 "key='r_boss' ORDER BY seq DESC LIMIT 1").fetchall()
        raw.close()
        # the moved row is shipped again, with both (the fleet ledger's `cashier` is who asked)
        assert (json.loads(moved)["cashier"], json.loads(moved)["authorised_by"]) == (
            "ann", "boss")
        by_id = {r.m_refund_id: r for r in journal.refunds()}
        assert (by_id["r_boss"].cashier_id, by_id["r_boss"].authorised_by) == ("ann", "boss")
        assert (by_id["r_auto"].cashier_id, by_id["r_auto"].authorised_by) == ("ann", None)
        journal.refund_transition("r_boss", RefundState.REFUNDED, message="done")
        [ann] = journal.grouped_report("cashier")  # nothing is counted for the supervisor
        assert (ann.key, ann.refunds_amount) == ("ann", 20_000)
    raw = sqlite3.connect(path)
    payloads = [json.loads(p) for (p,) in raw.execute(
        "SELECT payload FROM outbox WHERE kind='refund' AND key='r_boss' ORDER BY seq DESC")]
    raw.close()
    assert (payloads[0]["cashier"], payloads[0]["authorised_by"]) == ("ann", "boss")


def test_a_refund_records_who_asked_and_who_authorised(tmp_path: Path) -> None:
    path = tmp_path / "journal.db"
    with Journal.open(path) as journal:
        conn = sqlite3.connect(path, isolation_level=None)
        conn.execute("INSERT INTO payments(app_trans_id, kind, generation, state, amount, "
                     "provider_trans_id, created_ms, updated_ms, cashier_id) "
                     "VALUES ('261125_t1_c', 'quick_pay', 'v2', 'succeeded', 50000, '1', 1, 1, "
                     "'ann')")
        conn.close()
        named = journal.record_refund_intent(
            m_refund_id="r1", app_trans_id="261125_t1_c", amount=10_000, description="",
            request_ms=1, cashier_id="bob", authorised_by="boss")
        unnamed = journal.record_refund_intent(
            m_refund_id="r2", app_trans_id="261125_t1_c", amount=10_000, description="",
            request_ms=1, authorised_by="boss")
        assert (named.cashier_id, named.authorised_by) == ("bob", "boss")
        # nobody named as asking: the cashier who took the payment, never the supervisor
        assert (unnamed.cashier_id, unnamed.authorised_by) == ("ann", "boss")
        assert unnamed.to_json()["authorised_by"] == "boss"
