"""The X/Z reports split a shop-QR sale paid in part whose rest a person collected another way
(reason `override.rest_collected`): its wallet counts what arrived, the rest is
`collected_otherwise_*` (in the sales, in per-cashier totals too). Only that reason splits; a row
whose text merely contains its code, or is not JSON, counts whole; the rest never exceeds the
sale."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from pos_terminal.base.reasons import Reason
from pos_terminal.journal import Journal
from pos_terminal.journal.reports import collected_otherwise, compute_report, grouped_report


def rest(missing: object, arrived: int = 0) -> str:
    return Reason.of("override.rest_collected", wallet="payOS", amount=arrived, ordered=60_000,
                     missing=missing, who="sup", reason="rest in cash").dumps()


ROWS = (  # id, provider, cashier, amount, message
    ("a", "payos", "c1", 60_000, rest(40_000, 20_000)),     # 20.000 by transfer, 40.000 cash
    ("b", "payos", "c2", 50_000, Reason.of("paid.ok").dumps()),
    ("c", "payos", "c2", 30_000, Reason.of("override.paid", who="sup",
                                           reason='"reason":"override.rest_collected"').dumps()),
    ("d", "zalopay", "c1", 10_000, 'free text "reason":"override.rest_collected" {'),
    ("e", "payos", "c1", 5_000, rest(99_999)),              # clamped to the sale
)


def journal_with_rows(tmp_path: Path) -> sqlite3.Connection:
    path = tmp_path / "j.db"
    Journal.open(path).close()
    conn = sqlite3.connect(path)
    conn.executemany(
        "INSERT INTO payments(app_trans_id, kind, generation, state, amount, message, created_ms, "
        "updated_ms, provider, cashier_id) VALUES (?, 'gateway', 'v2', 'succeeded', ?, ?, 1, 1, "
        "?, ?)", [(i, amount, message, provider, cashier)
                  for i, provider, cashier, amount, message in ROWS])
    conn.commit()
    return conn


def test_only_the_rest_collected_reason_splits_a_sale(tmp_path: Path) -> None:
    conn = journal_with_rows(tmp_path)
    report = compute_report(conn, close=False, now=2)
    assert (report.sales_count, report.sales_amount) == (5, 155_000)
    assert (report.collected_otherwise_count, report.collected_otherwise_amount) == (2, 45_000)
    payos = report.by_provider["payos"]
    assert (payos["count"], payos["amount"], payos["net_amount"]) == (4, 100_000, 100_000)
    assert (payos["collected_otherwise_count"], payos["collected_otherwise_amount"]) == (
        2, 45_000)
    assert report.by_provider["zalopay"]["amount"] == 10_000
    assert sum(p["amount"] for p in report.by_provider.values()) + (
        report.collected_otherwise_amount) == report.sales_amount
    by_cashier = {g.key: g for g in grouped_report(conn, by="cashier", z_number=None, names={})}
    assert (by_cashier["c1"].collected_otherwise_count,
            by_cashier["c1"].collected_otherwise_amount) == (2, 45_000)
    assert by_cashier["c2"].collected_otherwise_amount == 0


def test_the_same_rule_reads_a_shipped_reason() -> None:
    assert collected_otherwise(60_000, Reason.loads(rest(40_000))) == 40_000
    assert collected_otherwise(5_000, Reason.loads(rest(99_999))) == 5_000
    assert collected_otherwise(5_000, Reason.loads(rest("many"))) == 0
    assert collected_otherwise(5_000, Reason.loads(ROWS[3][4])) == 0
    assert collected_otherwise(30_000, Reason.loads(ROWS[2][4])) == 0
