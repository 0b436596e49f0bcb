"""The wallet's own id of a payment under a neutral name (issue 40): a journal of the previous
schema (its column `zp_trans_id`, holding MoMo's ids too) migrates to `provider_trans_id`, keeps
every id, and its triggers follow; JSON answers carry both names; the outbox ships the id under
the key the ledger reads."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

from pos_terminal.journal import Journal, PaymentEvent
from pos_terminal.journal.machine import Answer
from pos_terminal.journal.outbox import Outbox
from pos_terminal.journal.schema import PROVIDER_TRANS_ID_MIGRATION, SCHEMA_VERSION
from tests.journal.old_schema import journal_before


def _previous_journal(path: Path) -> None:
    conn = journal_before(path, PROVIDER_TRANS_ID_MIGRATION)
    conn.execute("INSERT INTO payments(app_trans_id, kind, generation, state, amount, "
                 "created_ms, updated_ms, provider) VALUES "
                 "('old_momo', 'quick_pay', 'momo-pos-v2', 'submitting', 45000, 1, 1, 'momo')")
    conn.execute("UPDATE payments SET state='succeeded', zp_trans_id='4000000001', updated_ms=2 "
                 "WHERE app_trans_id='old_momo'")
    conn.close()


def test_an_old_journal_keeps_its_ids_under_the_neutral_name(tmp_path: Path) -> None:
    path = tmp_path / "old.sqlite3"
    _previous_journal(path)
    with Journal.open(path) as journal:
        assert journal.schema_version == SCHEMA_VERSION
        old = journal.get("old_momo")
        assert old.zp_trans_id == "4000000001" and old.provider == "momo"
        answer = old.to_json()
        assert answer["provider_trans_id"] == answer["zp_trans_id"] == "4000000001"
        journal.record_intent(app_trans_id="new_one", amount=20_000, generation="v2",
                              payment_code="new_one-1234567890")
        journal.apply("new_one", PaymentEvent.PAID, Answer(return_code=1, wallet_id="zp-9"),
                      message="paid")
        assert journal.get("new_one").zp_trans_id == "zp-9"
    raw = sqlite3.connect(path)
    columns = [row[1] for row in raw.execute("PRAGMA table_info(payments)")]
    raw.close()
    assert "provider_trans_id" in columns and "zp_trans_id" not in columns
    with Outbox(path) as box:
        payloads = {(r.kind, r.key): json.loads(r.payload) for r in box.rows(0, 1000)}
    assert payloads[("payment", "new_one")]["zp_trans_id"] == "zp-9"  # the ledger's key
