"""A journal that runs for years stays bounded: leases of final rows are deleted, the outbox is
pruned (every old row without a ledger, only confirmed ones with one), free pages go back to
the disk, `info` tells how long the disk lasts; and a long read never makes a payment wait."""

from __future__ import annotations

import sqlite3
import threading
from pathlib import Path

import pytest

from pos_terminal.journal import Journal, PaymentState, RefundState
from pos_terminal.journal.outbox import Outbox
from pos_terminal.journal.schema import MIGRATIONS, SCALE_MIGRATION
from pos_terminal.journal.upkeep import DAY_MS, OUTBOX_KEEP_MS, WARN_DAYS, JournalInfo
from tests.journal.schema_undo import undo_providers

S = PaymentState
T0 = 1_760_000_000_000


class Clock:
    def __init__(self, t: int) -> None:
        self.t = t

    def __call__(self) -> int:
        return self.t


def _pay(journal: Journal, tid: str, to: PaymentState = S.SUCCEEDED) -> None:
    journal.record_intent(app_trans_id=tid, amount=10_000, generation="v2",
                          payment_code=f"{abs(hash(tid)):018d}"[:18], lease_ttl_ms=60_000,
                          code_window_ms=120_000)
    journal.claim_send(tid, 60_000)
    journal.transition(tid, to, message="done", zp_trans_id=f"z{tid}", release=True)


def _count(path: Path, sql: str) -> int:
    conn = sqlite3.connect(path)
    try:
        return int(conn.execute(sql).fetchone()[0])
    finally:
        conn.close()


def test_leases_of_final_payments_and_refunds_are_deleted_open_ones_kept(tmp_path: Path) -> None:
    path = tmp_path / "j.sqlite3"
    with Journal.open(path) as journal:
        _pay(journal, "paid")
        _pay(journal, "declined", S.FAILED)
        journal.record_intent(app_trans_id="open", amount=5_000, generation="v2",
                              lease_ttl_ms=60_000)
        journal.record_refund_intent(m_refund_id="r1", app_trans_id="paid", amount=1_000,
                                     description="", request_ms=journal.now(),
                                     lease_ttl_ms=60_000)
        journal.record_refund_intent(m_refund_id="r2", app_trans_id="paid", amount=1_000,
                                     description="", request_ms=journal.now(),
                                     lease_ttl_ms=60_000)
        journal.refund_transition("r1", RefundState.REFUNDED, message="refunded", release=True)
    leases = sqlite3.connect(path).execute("SELECT subject FROM leases ORDER BY 1").fetchall()
    assert [r[0] for r in leases] == ["payment:open", "refund:r2"]


def _undo_sale_references(conn: sqlite3.Connection) -> None:
    """Take a journal back to before the Terminal API's migration (sale and refund references,
    API tokens), and before the wallet providers' (issue 31)."""
    undo_providers(conn)
    for trigger in ("payments_sale_ref_fixed", "refunds_refund_ref_fixed"):
        conn.execute(f"DROP TRIGGER {trigger}")
    for index in ("payments_sale_ref", "refunds_refund_ref"):
        conn.execute(f"DROP INDEX {index}")
    conn.execute("ALTER TABLE payments DROP COLUMN sale_ref")
    conn.execute("ALTER TABLE refunds DROP COLUMN refund_ref")
    conn.execute("DROP TABLE api_tokens")


def test_a_journal_of_the_previous_version_loses_the_leases_of_its_final_rows(
        tmp_path: Path) -> None:
    path = tmp_path / "j.sqlite3"
    with Journal.open(path) as journal:
        _pay(journal, "paid")
        journal.record_intent(app_trans_id="open", amount=5_000, generation="v2",
                              lease_ttl_ms=60_000)
    conn = sqlite3.connect(path, isolation_level=None)
    conn.execute("INSERT INTO leases(subject, owner) VALUES ('payment:paid', NULL)")
    version = conn.execute("PRAGMA user_version").fetchone()[0]
    scale = MIGRATIONS.index(SCALE_MIGRATION) + 1  # the version that brought these leases
    _undo_sale_references(conn)  # migrations after it (issue 23), so that only it runs again
    conn.execute(f"PRAGMA user_version={scale - 1}")
    conn.execute("DROP TRIGGER leases_of_final_payments")
    conn.execute("DROP TRIGGER leases_of_final_refunds")
    for index in ("payments_state_updated", "payments_review", "payments_open", "refunds_open",
                  "refunds_z", "refunds_created", "z_reports_closed", "shifts_closed",
                  "outbox_created", "payments_code"):
        conn.execute(f"DROP INDEX {index}")
    conn.execute("CREATE INDEX payments_state ON payments(state)")
    conn.execute("CREATE INDEX payments_fingerprint ON payments(code_fingerprint)")
    conn.close()
    with Journal.open(path) as journal:
        assert journal.schema_version == version
        journal.get("paid")
    assert _count(path, "SELECT count(*) FROM leases WHERE subject='payment:paid'") == 0
    assert _count(path, "SELECT count(*) FROM leases WHERE subject='payment:open'") == 1


def _days_of_payments(path: Path, days: int, *, ledger: bool) -> Clock:
    clock = Clock(T0)
    with Journal.open(path, clock=clock) as journal:
        for day in range(days):
            clock.t = T0 + day * DAY_MS
            for i in range(3):
                _pay(journal, f"d{day}_{i}")
            journal.close_day(ledger=ledger)
    return clock


def test_without_a_ledger_the_outbox_keeps_only_its_last_days(tmp_path: Path) -> None:
    path = tmp_path / "j.sqlite3"
    keep_days = OUTBOX_KEEP_MS // DAY_MS
    _days_of_payments(path, keep_days + 5, ledger=False)
    oldest = _count(path, "SELECT min(created_ms) FROM outbox")
    newest = _count(path, "SELECT max(created_ms) FROM outbox")
    assert newest - oldest <= OUTBOX_KEEP_MS
    assert _count(path, "SELECT count(*) FROM payments") == 3 * (keep_days + 5)


def test_with_a_ledger_only_confirmed_outbox_rows_are_pruned(tmp_path: Path) -> None:
    path = tmp_path / "j.sqlite3"
    keep_days = OUTBOX_KEEP_MS // DAY_MS
    clock = _days_of_payments(path, keep_days + 5, ledger=True)
    everything = _count(path, "SELECT count(*) FROM outbox")
    assert _count(path, "SELECT min(seq) FROM outbox") == 1  # nothing confirmed: all kept
    confirmed = _count(path, "SELECT max(seq) FROM outbox WHERE created_ms < "
                             f"{T0 + 2 * DAY_MS}")
    with Outbox(path) as box:
        box.mark_shipped(box.state().journal_id, confirmed)
    with Journal.open(path, clock=clock) as journal:
        pruned = journal.prune_outbox(ledger=True)
    assert pruned == confirmed
    assert _count(path, "SELECT count(*) FROM outbox") == everything - confirmed


def test_compact_gives_the_pruned_pages_back_to_the_disk(tmp_path: Path) -> None:
    path = tmp_path / "j.sqlite3"
    clock = _days_of_payments(path, 3, ledger=True)
    with Journal.open(path, clock=clock) as journal:
        with journal.bulk():
            for i in range(400):
                _pay(journal, f"bulk_{i}")
        clock.t += OUTBOX_KEEP_MS + DAY_MS
        assert journal.prune_outbox(ledger=False) > 1600
        size_before, size_after = journal.compact()
        info = journal.info()
    assert size_after < size_before * 0.7
    assert info.free_bytes == 0 and info.auto_vacuum == "incremental"


def test_compact_rewrites_a_journal_made_without_auto_vacuum(tmp_path: Path) -> None:
    path = tmp_path / "j.sqlite3"
    conn = sqlite3.connect(path)
    conn.execute("PRAGMA auto_vacuum=NONE")
    conn.execute("CREATE TABLE early (x INTEGER)")  # an older journal's first page
    conn.execute("DROP TABLE early")
    conn.close()
    with Journal.open(path) as journal:
        assert journal.info().auto_vacuum == "none"
        journal.compact()
        assert journal.info().auto_vacuum == "incremental"
        assert journal.list_payments() == []


def _info(**changes: object) -> JournalInfo:
    values: dict[str, object] = {
        "path": "j", "size_bytes": 1_100_000_000, "free_bytes": 0,
        "rows": {"payments": 1_000_000, "events": 0, "refunds": 0, "outbox": 0, "leases": 0,
                 "z_reports": 0},
        "oldest_ms": 0, "newest_ms": 1, "recent_payments": 24_000, "rate_days": 30.0,
        "disk_free_bytes": 10**12, "auto_vacuum": "incremental"}
    values.update(changes)
    return JournalInfo(**values)  # type: ignore[arg-type]


def test_info_warns_when_the_disk_fills_within_90_days_at_the_current_pace() -> None:
    roomy = _info()
    assert roomy.bytes_per_payment == 1100
    assert roomy.growth_per_day == pytest.approx(1100 * 800)
    assert roomy.days_left == pytest.approx(10**12 / (1100 * 800))
    assert not roomy.disk_warning
    tight = _info(disk_free_bytes=int(1100 * 800 * (WARN_DAYS - 1)))
    assert tight.disk_warning
    idle = _info(recent_payments=0, disk_free_bytes=1)
    assert idle.days_left is None and not idle.disk_warning


def test_a_payment_goes_through_while_a_long_read_is_in_progress(tmp_path: Path) -> None:
    """A report or a reconcile pass reading in this process (the UI's background pass) never
    holds what a payment needs: the payment commits while the read is still open."""
    with Journal.open(tmp_path / "j.sqlite3") as journal:
        _pay(journal, "before")
        reading, release = threading.Event(), threading.Event()

        def long_read(conn: sqlite3.Connection) -> int:
            count = int(conn.execute("SELECT count(*) FROM payments").fetchone()[0])
            reading.set()
            release.wait(30)
            return count

        reader = threading.Thread(target=lambda: journal._reading(long_read))
        reader.start()
        assert reading.wait(30)
        paid = threading.Event()

        def pay() -> None:
            _pay(journal, "during")
            paid.set()

        payer = threading.Thread(target=pay)
        payer.start()
        try:
            assert paid.wait(20), "the payment waited for the read"
            assert release.is_set() is False
        finally:
            release.set()
            reader.join()
            payer.join()
        assert journal.get("during").state is S.SUCCEEDED


def test_read_connections_of_ended_threads_are_closed(tmp_path: Path) -> None:
    """The UI runs each background pass in a new thread: their read connections do not pile
    up (a file descriptor each) over a day."""
    with Journal.open(tmp_path / "j.sqlite3") as journal:
        for _ in range(20):
            reader = threading.Thread(target=journal.pending_count)
            reader.start()
            reader.join()
        journal.pending_count()
        assert len(journal._reader_conns) <= 2
