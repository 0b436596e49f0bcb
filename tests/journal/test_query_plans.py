"""Every everyday query reads what its day or its state bounds, never every payment, event or
refund ever: the statements the journal actually runs for reports, reconcile's reads, History,
exports, status, pay and sign-in are captured and their plans checked (EXPLAIN QUERY PLAN) on a
journal of closed days, without statistics and after ANALYZE."""

from __future__ import annotations

import io
import re
import sqlite3
from collections.abc import Iterator
from pathlib import Path

import pytest

from pos_terminal.journal import Journal, PaymentState, RefundState
from pos_terminal.journal import connection as journal_connection
from pos_terminal.journal.cashiers import Cashiers
from pos_terminal.journal.export import write_csv, write_json, write_refunds_csv

S = PaymentState
DAY_MS = 24 * 3600 * 1000
DAYS, PER_DAY = 12, 60
#: A full scan of a table that grows with every payment.
FULL_SCAN = re.compile(r"\bSCAN (payments|events|refunds)\b")
#: ... except the newest rows in the order of their index, as many as the LIMIT says.
NEWEST = re.compile(r"\bSCAN payments USING INDEX payments_created\b")


class Clock:
    def __init__(self, t: int) -> None:
        self.t = t

    def __call__(self) -> int:
        return self.t


def _grow(path: Path) -> Clock:
    """DAYS closed days of PER_DAY payments (succeeded, failed, refunded, late), the last day
    open, written through the journal's own methods."""
    clock = Clock(1_760_000_000_000)
    with Journal.open(path, clock=clock) as journal:
        book = Cashiers(journal)
        book.add("c1", "Lan", "482916")
        for day in range(DAYS + 1):
            with journal.bulk():
                clock.t = 1_760_000_000_000 + day * DAY_MS
                book.open_shift("c1")
                for i in range(PER_DAY):
                    clock.t += 60_000
                    tid = f"d{day:02d}_{i:03d}"
                    journal.record_intent(app_trans_id=tid, amount=10_000, generation="v2",
                                          payment_code=f"{day:04d}{i:014d}", lease_ttl_ms=60_000,
                                          code_window_ms=120_000, cashier_id="c1")
                    journal.claim_send(tid, 60_000)
                    if i % 10 == 9:
                        journal.transition(tid, S.FAILED, message="declined", release=True)
                        if i == 19:
                            journal.record_late_success(
                                tid, message="late", return_code=1, sub_return_code=1,
                                service_message="", zp_trans_id=f"z{tid}")
                        continue
                    journal.transition(tid, S.SUCCEEDED, message="paid", zp_trans_id=f"z{tid}",
                                       release=True)
                    if i % 10 == 4:
                        journal.record_refund_intent(m_refund_id=f"r{tid}", app_trans_id=tid,
                                                     amount=None, description="",
                                                     request_ms=clock.t)
                        journal.refund_transition(f"r{tid}", RefundState.REFUNDED,
                                                  message="refunded")
                book.close_shift("c1")
                if day < DAYS:
                    journal.close_day(ledger=False)
    return clock


@pytest.fixture(scope="module")
def grown(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Clock]:
    path = tmp_path_factory.mktemp("plans") / "j.sqlite3"
    return path, _grow(path)


def _statements(journal: Journal, monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Every statement the journal runs from now on, on any of its connections, bound values
    included (triggers' own statements left out)."""
    seen: list[str] = []

    def trace(sql: str) -> None:
        if not sql.lstrip().startswith("--"):
            seen.append(sql)

    for conn in (journal._conn, journal._reader().conn):
        conn.set_trace_callback(trace)
    opened = journal_connection.read_connection

    def traced(path: Path, busy_timeout_s: float = 5.0) -> sqlite3.Connection:
        conn = opened(path, busy_timeout_s)
        conn.set_trace_callback(trace)
        return conn

    monkeypatch.setattr(journal_connection, "read_connection", traced)
    return seen


def _everyday(journal: Journal, clock: Clock) -> Iterator[str]:
    """What a counter does every day, the name of each step yielded before it runs."""
    last_day = 1_760_000_000_000 + DAYS * DAY_MS
    yield "x report"
    journal.x_report()
    yield "cashier and shift reports"
    journal.grouped_report("cashier")
    journal.grouped_report("shift")
    journal.grouped_report("shift", 3)
    yield "stored Z report"
    journal.z_report(2)
    yield "reconcile's reads"
    journal.pending()
    journal.pending_refunds()
    journal.failed_since(clock.t - 20 * 60_000)
    journal.late_charges_to_return(clock.t - 24 * 3_600_000)
    yield "status and pending count"
    journal.get("d12_003")
    journal.events("d12_003")
    journal.refunds("d12_004")
    journal.pending_count()
    yield "History of a day and UI start"
    journal.list_payments(since_ms=last_day, until_ms=last_day + DAY_MS, newest_first=True)
    journal.list_payments(since_ms=last_day, until_ms=last_day + DAY_MS,
                          states=[S.FAILED], newest_first=True)
    journal.list_payments(limit=50, newest_first=True)
    yield "journal list, a page after a cursor"
    list(journal.iter_payments(since_ms=last_day, until_ms=last_day + DAY_MS, limit=5,
                               newest_first=True, after="d12_030"))
    yield "exports of a day"
    write_csv(journal.iter_payments(since_ms=last_day, until_ms=last_day + DAY_MS), io.StringIO())
    write_json(journal, journal.iter_payments(since_ms=last_day, until_ms=last_day + DAY_MS,
                                              states=[S.SUCCEEDED]), io.StringIO())
    write_refunds_csv(journal.iter_refunds(since_ms=last_day, until_ms=last_day + DAY_MS,
                                           states=[S.REFUNDED]), io.StringIO())
    yield "sign-in"
    book = Cashiers(journal)
    book.verify_pin("c1", "482916")
    book.open_shift("c1")
    book.close_shift("c1")
    yield "pay"
    clock.t += 60_000
    journal.record_intent(app_trans_id="new_1", amount=5_000, generation="v2",
                          payment_code="999999999999999999", lease_ttl_ms=60_000,
                          code_window_ms=120_000)
    journal.claim_send("new_1", 60_000)
    journal.transition("new_1", S.SUCCEEDED, message="paid", zp_trans_id="znew", release=True)
    yield "Z report"
    journal.close_day(ledger=False)


@pytest.mark.parametrize("statistics", [False, True], ids=["no-statistics", "analyzed"])
def test_no_everyday_query_reads_every_payment_event_or_refund(
        grown: tuple[Path, Clock], tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        statistics: bool) -> None:
    source, grown_clock = grown
    path = tmp_path / "j.sqlite3"
    with sqlite3.connect(source) as src, sqlite3.connect(path) as dst:
        src.backup(dst)
        if statistics:
            dst.execute("ANALYZE")
    clock = Clock(grown_clock.t + 3_600_000)
    with Journal.open(path, clock=clock) as journal:
        seen = _statements(journal, monkeypatch)
        steps: list[tuple[str, int]] = []
        for step in _everyday(journal, clock):
            steps.append((step, len(seen)))
        # a partial index holds only the rows its state or flag bounds
        partial = [r[0] for r in journal._reader().conn.execute(
            "SELECT name FROM sqlite_master WHERE type='index' AND sql LIKE '% WHERE %'")]
        scans: list[str] = []
        for i, sql in enumerate(seen):
            if sql.lstrip().split(None, 1)[0].upper() not in ("SELECT", "UPDATE", "DELETE"):
                continue
            plan = journal._reader().conn.execute("EXPLAIN QUERY PLAN " + sql).fetchall()
            details = " / ".join(str(row[3]) for row in plan)
            bounded = (" LIMIT " in sql and NEWEST.search(details)) or any(
                f"USING INDEX {name}" in details for name in partial)
            if FULL_SCAN.search(details) and not bounded:
                step = [name for name, first in steps if first <= i][-1]
                scans.append(f"{step}: {sql.strip()[:160]}\n    -> {details}")
        assert len(seen) > 50
        assert not scans, "full scans:\n" + "\n".join(scans)
