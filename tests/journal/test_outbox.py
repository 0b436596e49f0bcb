"""The journal's outbox: filled by triggers in the writer's own transaction, whoever writes;
rows written before the migration are shipped too; the journal has its own identity."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest

from pos_terminal.journal import SCHEMA_VERSION, Journal, JournalError, PaymentState
from pos_terminal.journal.outbox import Outbox
from pos_terminal.journal.schema import MIGRATIONS
from pos_terminal.journal.store import _split_sql


def outbox(path: Path) -> list[tuple[str, str, dict[str, object]]]:
    conn = sqlite3.connect(path)
    try:
        rows = conn.execute("SELECT kind, key, payload FROM outbox ORDER BY seq").fetchall()
    finally:
        conn.close()
    return [(k, key, json.loads(p)) for k, key, p in rows]


def test_every_change_has_its_outbox_row_in_the_same_transaction(tmp_path: Path) -> None:
    path = tmp_path / "j.sqlite3"
    with Journal.open(path) as journal:
        journal.record_intent(app_trans_id="261123_T1_a", amount=1000, generation="v2",
                              payment_code="123456789012345678")
        journal.transition("261123_T1_a", PaymentState.SUCCEEDED, message="paid",
                           zp_trans_id="77")
        with pytest.raises(JournalError):  # refused by the journal's trigger: rolled back
            journal.transition("261123_T1_a", PaymentState.SUCCEEDED, message="x",
                               allowed_from=[PaymentState.PROCESSING])
    rows = outbox(path)
    assert [(k, key) for k, key, _ in rows] == [
        ("payment", "261123_T1_a"), ("event", "1"), ("payment", "261123_T1_a"), ("event", "2")]
    last = rows[2][2]
    assert last["state"] == "succeeded" and last["zp_trans_id"] == "77"
    assert "code_fingerprint" not in last and last["code_last4"] == "5678"

    # Any writer: a change made outside this program lands in the outbox too, atomically.
    conn = sqlite3.connect(path)
    with pytest.raises(sqlite3.IntegrityError):
        conn.execute("UPDATE payments SET state='failed'")  # refused: nothing in the outbox
    conn.execute("UPDATE payments SET polls=polls+1")
    conn.commit()
    conn.close()
    assert len(outbox(path)) == 5


def test_rows_written_before_the_outbox_are_shipped_too(tmp_path: Path) -> None:
    path = tmp_path / "old.sqlite3"
    conn = sqlite3.connect(path, isolation_level=None)
    for number in range(SCHEMA_VERSION - 1):  # a journal from before the outbox
        for statement in _split_sql(MIGRATIONS[number]):
            conn.execute(statement)
    conn.execute(f"PRAGMA user_version={SCHEMA_VERSION - 1}")
    conn.execute("INSERT INTO meta VALUES ('fingerprint_secret', x'00112233')")
    conn.execute("INSERT INTO payments(app_trans_id, kind, generation, state, amount, "
                 "created_ms, updated_ms) VALUES ('261101_T1_x', 'quick_pay', 'v2', "
                 "'succeeded', 500, 1, 2)")
    conn.execute("INSERT INTO events(app_trans_id, time_ms, kind, from_state, to_state) "
                 "VALUES ('261101_T1_x', 2, 'transition', 'submitting', 'succeeded')")
    conn.close()
    with Journal.open(path) as journal:
        assert journal.schema_version == SCHEMA_VERSION
    assert [(k, key) for k, key, _ in outbox(path)] == [("payment", "261101_T1_x"),
                                                        ("event", "1")]
    with Outbox(path) as box:
        state = box.state()
    assert (state.shipped_seq, state.last_seq, state.behind) == (0, 2, 2)
    assert len(state.journal_id) == 32


def test_rotate_gives_a_restored_copy_a_new_identity(tmp_path: Path) -> None:
    path = tmp_path / "j.sqlite3"
    Journal.open(path).close()
    with Outbox(path) as box:
        first = box.state()
        box.mark_shipped(first.journal_id, 0)
        new_id = box.rotate(first.journal_id, 7)
        after = box.state()
        assert box.rotate(first.journal_id, 9) == new_id  # done once, whoever asks again
    assert new_id != first.journal_id
    assert (after.journal_id, after.epoch_seq, after.shipped_seq, after.parent_journal_id) == (
        new_id, 7, 6, first.journal_id)
