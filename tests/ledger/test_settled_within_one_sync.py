"""The ledger takes a key's snapshots of one sync batch in the order the journal wrote them, so
what reaches head office never depends on when the syncs fell.

The case that made it matter: the counter synced a payOS payment while it was FAILED; then the
rest of a transfer arrived after the QR closed (reconcile flags the row) and a supervisor settled
it as paid, both before the next sync. The ledger takes failed -> succeeded only from a row it
has STORED flagged (merge.settled_by_a_person, the schema's trigger, the upsert's guard): when it
kept only a batch's newest snapshot it saw failed (unflagged) -> succeeded, kept FAILED and
reported a disagreement, and the fleet report left out a sale the customer paid. Real emulator
over HTTP, real journals, a real PostgreSQL."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import psycopg

from pos_terminal.checkout import PaymentState, RefundState
from pos_terminal.journal import Journal
from pos_terminal.ledger.reports import fleet_report, vn_today
from pos_terminal.ledger.store import in_order
from tests.checkout.conftest import write_config
from tests.cli.conftest import runner_for
from tests.cli.test_payos_settled_after_close import _closed_empty, _json, _transfer_lands
from tests.ledger.helpers import backup, restore
from tests.ledger.syncing import sync_now
from tests.ledger.test_late_charges_fleet import _disagreements, _ledger
from tests.wallets.payos_help import with_payos

S = PaymentState


def test_a_failed_row_flagged_and_settled_by_a_person_between_two_syncs_is_a_sale(
        make_terminal: Any, emulator: Any, ledger_dsn: str, tmp_path: Path) -> None:
    settings = with_payos(make_terminal("Q1"), emulator)
    cli = runner_for(write_config(settings, tmp_path / "q1.toml"))
    app_trans_id = str(_closed_empty(cli, emulator, 40_000)["app_trans_id"])
    assert sync_now(settings).shipped > 0
    assert _ledger(ledger_dsn, app_trans_id)[:3] == ("failed", False, False)  # unflagged
    _transfer_lands(emulator, app_trans_id, 15_000)
    _json(cli, "reconcile")  # part of the money after the QR closed: flagged
    code, _settled = _json(cli, "override", app_trans_id, "--mark", "paid", "--reason",
                           "rest in cash")
    assert code == 0
    report = sync_now(settings)  # the flag and the person's settlement in one batch
    assert report.shipped > 0 and report.behind == 0
    assert _ledger(ledger_dsn, app_trans_id)[:3] == ("succeeded", False, False)
    assert _disagreements(ledger_dsn) == []
    with Journal.open(settings.terminal.journal) as journal:
        x = journal.x_report()
    with psycopg.connect(ledger_dsn) as conn:
        fleet = fleet_report(conn, vn_today(), 0)
    assert (x.sales_count, x.sales_amount, x.failed_count) == (1, 40_000, 0)
    assert (fleet.shop.sales_count, fleet.shop.sales_amount, fleet.shop.failed_count) == (
        1, 40_000, 0)


def test_a_restored_journal_settling_a_failed_row_without_a_person_is_still_refused(
        make_terminal: Any, ledger_dsn: str, tmp_path: Path) -> None:
    """FAILED shipped; a journal restored from a copy of before flags the row while it is open
    and settles it SUCCEEDED (no person's override of a flagged FAILED row), all in one batch:
    the ledger keeps FAILED and reports it, whatever the batch held before."""
    counter = make_terminal("R2")
    path, copy, key = counter.terminal.journal, tmp_path / "early.sqlite3", "261123_R2_1"
    with Journal.open(path) as journal:
        journal.record_intent(app_trans_id=key, amount=5000, generation="v2")
        journal.transition(key, S.PROCESSING, message="processing")
    backup(path, copy)
    with Journal.open(path) as journal:
        journal.transition(key, S.FAILED, message="declined")
    sync_now(counter)
    restore(copy, path)
    with Journal.open(path) as journal:
        journal.flag_for_review(key, "no answer")
        journal.transition(key, S.SUCCEEDED, message="paid", zp_trans_id="9002")
    assert sync_now(counter).rotated
    assert _ledger(ledger_dsn, key)[:3] == ("failed", False, False)
    assert (key, "state", "failed", "succeeded") in _disagreements(ledger_dsn)


def test_a_batch_merges_in_order_each_snapshot_the_rule_weighs() -> None:
    def snap(seq: int, state: str, **more: Any) -> tuple[int, dict[str, Any]]:
        return seq, {"state": state, "needs_review": False, "late": False, **more}

    batch = {"a": [snap(1, "pending"), snap(3, "failed"), snap(5, "failed", needs_review=True),
                   snap(6, "succeeded")],
             "b": [snap(2, "pending"), snap(4, "processing")],
             "c": [snap(7, "succeeded", late=True),
                   snap(8, "succeeded", late=True, refunded_amount=3000),
                   snap(9, "succeeded", late=True, refunded_amount=8000),
                   snap(10, "refunded", late=True, refunded_amount=8000)]}
    rounds = in_order(batch, frozenset({"succeeded", "failed", "refunded"}))
    assert [{k: seq for k, (seq, _d) in r.items()} for r in rounds] == [
        {"a": 3, "b": 4, "c": 9}, {"a": 5, "c": 10}, {"a": 6}]


def _settle_all(journal: Journal, tid: str) -> None:
    """After the first sync: a failed row flagged and settled by a person, a sale refunded in
    two parts, a late charge, then the day closed (every row gets its Z number)."""
    flagged, refunded, late = (f"261128_{tid}_{n}" for n in (1, 2, 3))
    journal.flag_answer(flagged, "money found after the QR closed")
    journal.override(flagged, S.SUCCEEDED, reason="rest in cash", who="supervisor",
                     message="settled as paid")
    for n, amount in ((1, 3000), (2, None)):
        m_refund_id = f"{refunded}_r{n}"
        journal.record_refund_intent(m_refund_id=m_refund_id, app_trans_id=refunded,
                                     amount=amount, description="refund", request_ms=n)
        journal.refund_transition(m_refund_id, RefundState.REFUNDED, message="refunded",
                                  refund_id=f"77{n}")
    journal.record_late_success(late, message="charged late", return_code=1,
                                sub_return_code=None, service_message="", zp_trans_id="9003")
    journal.close_day()


def test_the_ledger_ends_the_same_whatever_the_batches_held(
        make_terminal: Any, ledger_dsn: str) -> None:
    """Two counters write the same history; one ships every outbox row in its own batch, the
    other all of it at once: the ledger's rows are the same, and the journal's."""
    shown: dict[int, list[tuple[Any, ...]]] = {}
    for tid, batch_size in (("B1", 1), ("B2", 500)):
        counter = make_terminal(tid, batch_size=batch_size)
        with Journal.open(counter.terminal.journal) as journal:
            for n, (amount, state) in enumerate(((5000, S.FAILED), (8000, S.SUCCEEDED),
                                                 (6000, S.FAILED)), start=1):
                key = f"261128_{tid}_{n}"
                journal.record_intent(app_trans_id=key, amount=amount, generation="v2")
                journal.transition(key, state, message="settled",
                                   zp_trans_id="9002" if state is S.SUCCEEDED else None)
        assert sync_now(counter).shipped > 0
        with Journal.open(counter.terminal.journal) as journal:
            _settle_all(journal, tid)
            mine = [(p.state.value, p.needs_review, p.late, p.refunded_amount, p.z_number)
                    for p in (journal.get(f"261128_{tid}_{n}") for n in (1, 2, 3))]
        assert sync_now(counter).behind == 0
        with psycopg.connect(ledger_dsn) as conn:
            shown[batch_size] = conn.execute(
                "SELECT state, needs_review, late, refunded_amount, z_number FROM payments "
                "WHERE terminal_id=%s ORDER BY app_trans_id", (tid,)).fetchall()
        assert shown[batch_size] == mine
    assert shown[1] == shown[500] == [("succeeded", False, False, 0, 1),
                                      ("refunded", False, False, 8000, 1),
                                      ("succeeded", False, True, 0, 1)]
    assert _disagreements(ledger_dsn) == []
