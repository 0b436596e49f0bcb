"""Journal version 15: the outbox's payment payload carries `late` and `abandoned`, a refund's
`auto`, so the fleet ledger tells a late charge (failed -> succeeded, which it takes) from a
journal restored and settled differently (which it reports). A journal of version 14 migrates,
and the late charges it had already shipped without the flag are shipped again with it."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path
from typing import Any

from pos_terminal.journal import SCHEMA_VERSION, Journal, PaymentState
from pos_terminal.journal.schema import LATE_FLAGS_MIGRATION
from tests.journal.old_schema import journal_before

_PAY = ("INSERT INTO payments(app_trans_id, kind, generation, state, amount, created_ms, "
        "updated_ms) VALUES (?, 'quick_pay', 'v2', ?, 15000, 1, 2)")


def _outbox(path: Path, after: int = 0) -> list[tuple[int, str, str, dict[str, Any]]]:
    conn = sqlite3.connect(path)
    try:
        rows = conn.execute("SELECT seq, kind, key, payload FROM outbox WHERE seq > ? "
                            "ORDER BY seq", (after,)).fetchall()
    finally:
        conn.close()
    return [(seq, kind, key, json.loads(payload)) for seq, kind, key, payload in rows]


def test_a_version_14_journal_ships_its_late_charges_again_with_the_flags(
        tmp_path: Path) -> None:
    path = tmp_path / "v14.sqlite3"
    conn = journal_before(path, LATE_FLAGS_MIGRATION)
    assert conn.execute("PRAGMA user_version").fetchone()[0] == 14
    conn.execute(_PAY, ("late", "failed"))  # the terminal said failed, then the wallet charged
    conn.execute("UPDATE payments SET state='succeeded', late=1, updated_ms=3 "
                 "WHERE app_trans_id='late'")
    conn.execute("INSERT INTO refunds(m_refund_id, app_trans_id, amount, state, request_ms, "
                 "created_ms, updated_ms, auto) VALUES ('r1', 'late', 15000, 'refunded', 4, 4, "
                 "5, 1)")  # returned automatically
    conn.execute("UPDATE payments SET state='refunded', refunded_amount=15000, updated_ms=5 "
                 "WHERE app_trans_id='late'")
    conn.execute(_PAY, ("plain", "succeeded"))
    before = _outbox(path)
    conn.close()
    assert before and all("late" not in p and "auto" not in p for _s, _k, _key, p in before)

    with Journal.open(path) as journal:
        assert journal.schema_version == SCHEMA_VERSION == 15
        shipped_again = _outbox(path, before[-1][0])
        assert [(kind, key) for _s, kind, key, _p in shipped_again] == [
            ("payment", "late"), ("refund", "r1")]  # an ordinary sale is not shipped again
        payment, refund = shipped_again[0][3], shipped_again[1][3]
        assert (payment["state"], payment["late"], payment["abandoned"],
                payment["provider"]) == ("refunded", 1, 0, "zalopay")
        assert (refund["state"], refund["auto"], refund["provider"]) == ("refunded", 1,
                                                                          "zalopay")

        # every change from now on carries the flags, the wallet's id under its payload key
        journal.record_intent(app_trans_id="261123_T1_n", amount=2000, generation="v2")
        journal.transition("261123_T1_n", PaymentState.SUCCEEDED, message="paid",
                           zp_trans_id="88")
    newest = [p for _s, kind, _key, p in _outbox(path) if kind == "payment"][-1]
    assert (newest["state"], newest["zp_trans_id"], newest["late"], newest["abandoned"]) == (
        "succeeded", "88", 0, 0)
