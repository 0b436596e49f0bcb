"""A failed payment flagged for review that a person settles as paid (money found after a payOS
QR closed, the rest collected in cash) moves failed -> succeeded in the journal; the fleet ledger
takes that one move out of FAILED (ledger schema version 6, merge.py, the upsert's guard) and
still refuses every other, whoever writes."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import psycopg
import pytest

from pos_terminal.ledger import LedgerSync
from pos_terminal.ledger.merge import decide_payment
from tests.checkout.conftest import write_config
from tests.cli.conftest import runner_for
from tests.cli.test_payos_settled_after_close import _flagged_part_paid, _json
from tests.ledger.old_schema import failed_payment, ledger_at
from tests.wallets.payos_help import with_payos

FAILED = {"terminal_id": "T1", "amount": 5000, "kind": "gateway", "created_ms": 1,
          "state": "failed", "zp_trans_id": None, "refunded_amount": 0, "z_number": None,
          "updated_ms": 10}


@pytest.mark.parametrize(("flagged", "needs_review_after", "taken"), [
    (True, False, True),  # settled by a person
    (False, False, False),  # an ordinary failed row never becomes succeeded
    (True, True, False),  # not settled: the flag is still there
])
def test_the_merge_takes_failed_to_succeeded_only_when_a_person_settled_it(
        flagged: bool, needs_review_after: bool, taken: bool) -> None:
    ledger = {**FAILED, "needs_review": flagged}
    journal = {**FAILED, "state": "succeeded", "needs_review": needs_review_after,
               "updated_ms": 20}
    verdict = decide_payment(ledger, journal, "T1")
    assert verdict.apply is taken
    assert [p.field for p in verdict.problems] == ([] if taken else ["state"])


def test_a_ledger_of_version_5_learns_the_move_and_refuses_the_others(
        empty_ledger_dsn: str) -> None:
    from pos_terminal.ledger import schema

    with psycopg.connect(empty_ledger_dsn, autocommit=True) as conn:
        with conn.transaction(), conn.cursor() as cur:  # the previous release's `fleet migrate`
            ledger_at(cur, 5)
            failed_payment(cur, "flagged", needs_review=True)
            failed_payment(cur, "plain")
        with pytest.raises(psycopg.errors.IntegrityConstraintViolation,
                           match="only moves forward"):  # version 5 refuses it
            conn.execute("UPDATE payments SET state='succeeded', needs_review=false, "
                         "updated_ms=updated_ms+1 WHERE app_trans_id='flagged'")
        assert schema.migrate(conn) == [6, 7]
        conn.execute("UPDATE payments SET state='succeeded', needs_review=false, "
                     "updated_ms=updated_ms+1 WHERE app_trans_id='flagged'")
        for hand_written in ("state='succeeded'", "state='succeeded', needs_review=true"):
            with pytest.raises(psycopg.errors.IntegrityConstraintViolation,
                               match="only moves forward"):
                conn.execute(f"UPDATE payments SET {hand_written}, updated_ms=updated_ms+1 "
                             "WHERE app_trans_id='plain'")
        rows = dict(conn.execute("SELECT app_trans_id, state FROM payments").fetchall())
    assert rows == {"flagged": "succeeded", "plain": "failed"}


def test_a_counter_ships_the_settled_payment_as_succeeded(
        make_terminal: Any, emulator: Any, ledger_dsn: str, tmp_path: Path) -> None:
    settings = with_payos(make_terminal("Q1"), emulator)
    cli = runner_for(write_config(settings, tmp_path / "q1.toml"))
    app_trans_id = _flagged_part_paid(cli, emulator)
    sync = LedgerSync(settings)
    try:
        assert sync.sync_once().shipped > 0  # the ledger has it FAILED and flagged
        code, _settled = _json(cli, "override", app_trans_id, "--mark", "paid", "--reason",
                               "rest in cash")
        assert code == 0
        assert sync.sync_once().shipped > 0
    finally:
        sync.close()
    with psycopg.connect(ledger_dsn) as conn:
        row = conn.execute("SELECT state, needs_review, provider FROM payments "
                           "WHERE app_trans_id=%s", (app_trans_id,)).fetchone()
        open_rows = conn.execute("SELECT count(*) FROM open_rows WHERE id=%s",
                                 (app_trans_id,)).fetchone()
        problems = conn.execute("SELECT field, note FROM disagreements").fetchall()
    assert row == ("succeeded", False, "payos")
    assert open_rows == (0,)  # no longer waiting for a person at head office either
    assert problems == []
