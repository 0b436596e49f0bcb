"""A charge that lands after the counter concluded FAILED (the journal's `failed --late_success-->
succeeded`, which sets `late`, maybe returned automatically since: refunded) reaches head office
as the counter has it, even when the counter had synced the row while it was FAILED: the journal
ships `late` (version 15), the ledger takes failed -> succeeded/refunded from such a row (ledger
version 7, merge.py, the upsert's guard) and its fleet report counts the sale as the counter's
X report does. A failed row that a journal restored from an older copy settled differently
(no `late`) is still refused and reported. Real emulator over HTTP, real journals, a real
PostgreSQL."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import psycopg
import pytest

from pos_terminal.checkout import PaymentState
from pos_terminal.counter import open_checkout
from pos_terminal.journal import Journal
from pos_terminal.journal.reports import Report
from pos_terminal.ledger.merge import decide_payment
from pos_terminal.ledger.reports import FleetReport, Totals, fleet_report, vn_today
from pos_terminal.sentences.reports import fleet_lines
from tests.checkout.conftest import add_fault, charged, wait_until, wallet_code, write_config
from tests.checkout.test_late_charges import _returned
from tests.cli.conftest import runner_for
from tests.cli.test_payos_settled_after_close import _closed_empty, _json, _transfer_lands
from tests.ledger.old_schema import failed_payment, ledger_at
from tests.ledger.syncing import settled_twice, sync_now
from tests.wallets.payos_help import with_payos

S = PaymentState
#: what the counter's X report and head office's fleet report both count
SAME = ("sales_count", "sales_amount", "refunds_count", "refunds_amount", "net_amount",
        "failed_count", "late_count", "late_amount", "auto_returned_count",
        "auto_returned_amount", "late_review_count")


def _ledger(dsn: str, app_trans_id: str) -> tuple[Any, ...]:
    with psycopg.connect(dsn) as conn:
        row = conn.execute("SELECT state, late, needs_review, refunded_amount FROM payments "
                           "WHERE app_trans_id=%s", (app_trans_id,)).fetchone()
    assert row is not None
    return tuple(row)


def _disagreements(dsn: str) -> list[tuple[Any, ...]]:
    with psycopg.connect(dsn) as conn:
        return conn.execute("SELECT key, field, ledger_value, journal_value FROM disagreements "
                            "WHERE kind='payment'").fetchall()


def _fleet(dsn: str) -> FleetReport:
    with psycopg.connect(dsn) as conn:
        return fleet_report(conn, vn_today(), 0)


def _agree(x: Report, totals: Totals) -> None:
    assert {f: getattr(totals, f) for f in SAME} == {f: getattr(x, f) for f in SAME}


def test_a_late_charge_returned_after_the_failed_row_was_synced(
        make_terminal: Any, emulator: Any, ledger_dsn: str) -> None:
    """ZaloPay: the wallet answers after the terminal gave up (FAILED, synced), then reconcile
    finds the charge and returns it automatically, both shipped in the next batch: the ledger
    follows to REFUNDED, late (each snapshot carries `late`, and the batch is merged in order)."""
    settings = make_terminal("L1").replace_service(timeout_s=0.5)
    add_fault(emulator, endpoint="quick_pay", mode="delay_before_commit", delay_s=2.5)
    with open_checkout(settings) as co:
        view = co.pay(15_000, wallet_code(emulator, "an"))
        assert view.state is S.FAILED
        assert sync_now(settings).shipped > 0
        assert _ledger(ledger_dsn, view.app_trans_id)[0] == "failed"
        wait_until("the late charge", lambda: charged(emulator, view.app_trans_id))
        _returned(co, view.app_trans_id)
        assert co.journal.get(view.app_trans_id).state is S.REFUNDED
        x = co.journal.x_report()
    report = sync_now(settings)  # the late success and its return in one batch
    assert report.behind == 0 and 0 < report.shipped <= settings.ledger.batch_size
    assert _ledger(ledger_dsn, view.app_trans_id) == ("refunded", True, False, 15_000)
    with psycopg.connect(ledger_dsn) as conn:
        refunds = conn.execute("SELECT state, auto FROM refunds WHERE app_trans_id=%s",
                               (view.app_trans_id,)).fetchall()
    assert refunds == [("refunded", True)]
    assert _disagreements(ledger_dsn) == []
    report = _fleet(ledger_dsn)
    assert (x.sales_count, x.failed_count, x.late_count, x.auto_returned_count) == (1, 0, 1, 1)
    _agree(x, report.shop)
    _agree(x, report.terminals["L1"])
    text = "\n".join(fleet_lines(report))
    assert "CHARGED LATE" in text and "AUTO-RETURNED" in text


def test_a_payos_transfer_after_the_qr_was_cancelled_and_synced(
        make_terminal: Any, emulator: Any, ledger_dsn: str, tmp_path: Path) -> None:
    """payOS: the QR closed empty (FAILED, synced), then the whole transfer lands; reconcile
    makes it SUCCEEDED, late, left for review (payOS has no refund): the ledger follows."""
    settings = with_payos(make_terminal("Q7"), emulator)
    cli = runner_for(write_config(settings, tmp_path / "q7.toml"))
    answer = _closed_empty(cli, emulator, 40_000)
    app_trans_id = str(answer["app_trans_id"])
    assert sync_now(settings).shipped > 0
    assert _ledger(ledger_dsn, app_trans_id)[0] == "failed"
    _transfer_lands(emulator, app_trans_id)
    _json(cli, "reconcile")
    assert sync_now(settings).behind == 0
    assert _ledger(ledger_dsn, app_trans_id) == ("succeeded", True, True, 0)
    assert _disagreements(ledger_dsn) == []
    with psycopg.connect(ledger_dsn) as conn:
        waiting = conn.execute("SELECT state, needs_review FROM open_rows WHERE id=%s",
                               (app_trans_id,)).fetchall()
    assert waiting == [("succeeded", True)]  # head office sees it waits for a person
    with Journal.open(settings.terminal.journal) as journal:
        x = journal.x_report()
    assert (x.sales_count, x.sales_amount, x.failed_count, x.late_count,
            x.late_review_count) == (1, 40_000, 0, 1, 1)
    report = _fleet(ledger_dsn)
    _agree(x, report.shop)
    _agree(x, report.wallets["payos"])


def test_a_restored_journal_settling_a_failed_payment_differently_is_still_refused(
        make_terminal: Any, ledger_dsn: str, tmp_path: Path) -> None:
    """FAILED shipped, then a journal restored from a copy of before settles it SUCCEEDED (no
    late charge: an ordinary processing -> succeeded): the ledger keeps FAILED and reports it."""
    counter = make_terminal("R1")
    settled_twice(
        counter, tmp_path / "early.sqlite3", "261123_R1_1",
        lambda journal: journal.transition("261123_R1_1", S.FAILED, message="declined"),
        lambda journal: journal.transition("261123_R1_1", S.SUCCEEDED, message="paid",
                                           zp_trans_id="9002"))
    with Journal.open(counter.terminal.journal) as journal:
        assert journal.get("261123_R1_1").late is False
    assert _ledger(ledger_dsn, "261123_R1_1")[:2] == ("failed", False)
    assert ("261123_R1_1", "state", "failed", "succeeded") in _disagreements(ledger_dsn)


FAILED = {"terminal_id": "T1", "amount": 5000, "kind": "quick_pay", "created_ms": 1,
          "state": "failed", "zp_trans_id": None, "refunded_amount": 0, "z_number": None,
          "updated_ms": 10, "needs_review": False, "late": False}


@pytest.mark.parametrize(("incoming", "taken", "fields"), [
    ({"state": "succeeded", "late": True}, True, []),
    ({"state": "refunded", "late": True, "refunded_amount": 5000}, True, []),
    ({"state": "succeeded", "late": False}, False, ["state"]),  # a restored journal's
    ({"state": "succeeded"}, False, ["state"]),  # a payload from before journal version 15
    ({"state": "refunded", "refunded_amount": 5000}, False, ["state"]),
])
def test_the_merge_takes_a_failed_payment_forward_only_when_it_comes_late(
        incoming: dict[str, Any], taken: bool, fields: list[str]) -> None:
    journal = {k: v for k, v in FAILED.items() if k != "late"} | {"updated_ms": 20, **incoming}
    verdict = decide_payment(FAILED, journal, "T1")
    assert verdict.apply is taken
    assert [p.field for p in verdict.problems] == fields


def test_a_late_charge_never_loses_its_flag_in_the_merge() -> None:
    ledger = {**FAILED, "state": "succeeded", "late": True}
    verdict = decide_payment(ledger, {**ledger, "late": False, "updated_ms": 20}, "T1")
    assert not verdict.apply and [p.field for p in verdict.problems] == ["late"]


def test_a_ledger_of_version_6_learns_the_late_charge_and_refuses_the_rest(
        empty_ledger_dsn: str) -> None:
    from pos_terminal.ledger import schema

    with psycopg.connect(empty_ledger_dsn, autocommit=True) as conn:
        with conn.transaction(), conn.cursor() as cur:  # the previous release's `fleet migrate`
            ledger_at(cur, 6)
            for key in ("late", "returned", "plain"):
                failed_payment(cur, key, wallet="zalopay", amount=15_000)
        assert schema.migrate(conn) == [7]
        flags = conn.execute("SELECT DISTINCT late, abandoned FROM payments").fetchall()
        conn.execute("UPDATE payments SET state='succeeded', late=true, "
                     "updated_ms=updated_ms+1 WHERE app_trans_id='late'")
        conn.execute("UPDATE payments SET state='refunded', late=true, refunded_amount=15000, "
                     "updated_ms=updated_ms+1 WHERE app_trans_id='returned'")
        for hand_written, key in (("state='succeeded'", "plain"),
                                  ("state='refunded', refunded_amount=15000", "plain"),
                                  ("late=false", "late")):  # never cleared
            with pytest.raises(psycopg.errors.IntegrityConstraintViolation,
                               match="only moves forward"):
                conn.execute(f"UPDATE payments SET {hand_written}, updated_ms=updated_ms+1 "
                             "WHERE app_trans_id=%s", (key,))
        rows = dict(conn.execute("SELECT app_trans_id, state FROM payments").fetchall())
        auto = conn.execute("SELECT column_default FROM information_schema.columns WHERE "
                            "table_name='refunds' AND column_name='auto'").fetchone()
    assert flags == [(False, False)]
    assert auto == ("false",)
    assert rows == {"late": "succeeded", "returned": "refunded", "plain": "failed"}
