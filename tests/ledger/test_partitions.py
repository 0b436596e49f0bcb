"""The ledger's big tables partitioned by month (issue 24 item 5): a day's report reads one
month's partition, `fleet open` reads the small open_rows table the triggers keep, and a row far
outside the prepared months still lands (default partition) without stopping the sync."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

import psycopg

from pos_terminal.journal import Journal, PaymentState
from pos_terminal.ledger.reports import _PAYMENTS_SQL, open_items, vn_day_bounds, vn_today
from pos_terminal.ledger.schema import MONTHS_AHEAD
from tests.ledger.helpers import assert_ledger_is_union
from tests.ledger.syncing import sync_now

VN = timedelta(hours=7)


def _relations(plan: Any) -> set[str]:
    found = {plan["Relation Name"]} if "Relation Name" in plan else set()
    for child in plan.get("Plans", ()):
        found |= _relations(child)
    return found


def test_a_days_report_reads_only_its_months_partition(make_terminal: Any, ledger_dsn: str
                                                      ) -> None:
    counter = make_terminal("Q1")
    with Journal.open(counter.terminal.journal) as journal:
        journal.record_intent(app_trans_id="261125_Q1_1", amount=5000, generation="v2")
    sync_now(counter)
    month = (datetime.now(UTC) + VN).strftime("%Y_%m")
    with psycopg.connect(ledger_dsn) as conn:
        parts = {r[0] for r in conn.execute(
            "SELECT inhrelid::regclass::text FROM pg_inherits "
            "WHERE inhparent = 'payments'::regclass").fetchall()}
        (plan,) = conn.execute("EXPLAIN (FORMAT JSON) " + _PAYMENTS_SQL,
                               vn_day_bounds(vn_today())).fetchone()  # type: ignore[misc]
        stored = conn.execute("SELECT tableoid::regclass::text FROM payments").fetchall()
    assert f"payments_{month}" in parts and "payments_default" in parts
    assert len(parts) >= MONTHS_AHEAD + 2  # this month, 24 ahead, the default
    assert stored == [(f"payments_{month}",)]
    scanned = {r for r in _relations(plan[0]["Plan"]) if r.startswith("payments")}
    assert scanned == {f"payments_{month}"}


def test_open_rows_follow_the_payments_and_a_row_years_away_still_lands(
        make_terminal: Any, ledger_dsn: str) -> None:
    counter = make_terminal("Q2")
    far = int(datetime(2099, 1, 1, tzinfo=UTC).timestamp() * 1000)  # a clock years off
    with Journal.open(counter.terminal.journal) as journal:
        journal.record_intent(app_trans_id="261125_Q2_1", amount=5000, generation="v2")
        journal.transition("261125_Q2_1", PaymentState.PROCESSING, message="processing")
        journal.record_intent(app_trans_id="990101_Q2_2", amount=6000, generation="v2", now=far)
        journal.transition("990101_Q2_2", PaymentState.FAILED, message="declined")
    sync_now(counter)
    with psycopg.connect(ledger_dsn) as conn:
        assert [(r["id"], r["state"]) for r in open_items(conn)] == [
            ("261125_Q2_1", "processing")]
        where = conn.execute("SELECT tableoid::regclass::text FROM payments "
                             "WHERE app_trans_id='990101_Q2_2'").fetchone()
    assert where == ("payments_default",)
    with Journal.open(counter.terminal.journal) as journal:
        journal.transition("261125_Q2_1", PaymentState.SUCCEEDED, message="paid",
                           zp_trans_id="77")
    sync_now(counter)
    with psycopg.connect(ledger_dsn) as conn:
        assert open_items(conn) == []
    assert_ledger_is_union(ledger_dsn, [("Q2", counter.terminal.journal)])
