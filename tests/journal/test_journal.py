"""The journal on real SQLite files: schema, pragmas, state machine, fingerprints, append-only
events, refunds' arithmetic, reports, export, and refusals when the file cannot be written."""

from __future__ import annotations

import csv
import hashlib
import hmac
import io
import json
import sqlite3
import threading
from pathlib import Path
from typing import Any

import pytest

from pos_terminal.base.clock import format_stamp
from pos_terminal.journal import (
    PAYMENT_TRANSITIONS,
    REFUND_TRANSITIONS,
    SCHEMA_VERSION,
    IllegalTransition,
    Journal,
    JournalCorrupt,
    JournalUnavailable,
    PaymentState,
    RefundNotAllowed,
    RefundState,
)
from pos_terminal.journal import schema as journal_schema
from pos_terminal.journal.export import write_csv
from pos_terminal.sentences.reports import report_lines

S = PaymentState
CODE = "123456789012345678"


@pytest.fixture
def journal(tmp_path: Path):
    j = Journal.open(tmp_path / "j.sqlite3")
    yield j
    j.close()


def _intent(j: Journal, app_trans_id: str = "261121_t1_a", amount: int = 50_000,
            code: str | None = CODE, now: int | None = None):
    return j.record_intent(app_trans_id=app_trans_id, amount=amount, generation="v2",
                           description="tea", items=[{"itemid": "1"}], payment_code=code,
                           payload_hash="ab" * 32, message="sending", now=now)


def test_new_journal_is_wal_full_sync_and_versioned(journal: Journal, tmp_path: Path) -> None:
    assert journal.schema_version == SCHEMA_VERSION == len(journal_schema.MIGRATIONS)
    assert journal._conn.execute("PRAGMA synchronous").fetchone()[0] == 2  # FULL
    other = sqlite3.connect(tmp_path / "j.sqlite3")
    assert other.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    assert other.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
    tables = {r[0] for r in other.execute("SELECT name FROM sqlite_master WHERE type='table'")}
    assert {"meta", "payments", "events", "refunds", "z_reports"} <= tables
    other.close()


def test_state_table_is_the_design_state_machine() -> None:
    assert {k.value: sorted(v.value for v in vs) for k, vs in PAYMENT_TRANSITIONS.items()} == {
        "new": ["submitting"],
        "submitting": ["failed", "processing", "succeeded", "unknown"],
        "unknown": ["failed", "processing", "succeeded"],
        "processing": ["failed", "succeeded", "unknown"],
        "succeeded": ["refunded"],
        "failed": [],
        "refunded": [],
    }
    assert {k.value: sorted(v.value for v in vs) for k, vs in REFUND_TRANSITIONS.items()} == {
        "new": ["refunding"], "refunding": ["failed", "refunded"], "refunded": [], "failed": []}


def test_intent_stores_fingerprint_and_last4_never_the_code(journal: Journal,
                                                            tmp_path: Path) -> None:
    view = _intent(journal)
    assert view.state is S.SUBMITTING and view.code_last4 == "5678" and view.amount == 50_000
    raw = sqlite3.connect(tmp_path / "j.sqlite3")
    secret = raw.execute("SELECT value FROM meta WHERE key='fingerprint_secret'").fetchone()[0]
    assert len(secret) == 32
    expected = hmac.new(secret, CODE.encode(), hashlib.sha256).hexdigest()
    row = raw.execute("SELECT code_fingerprint, amount, typeof(amount), created_ms FROM payments"
                      ).fetchone()
    assert row[0] == expected
    assert row[1:3] == (50_000, "integer")
    assert row[3] > 1_700_000_000_000  # Unix ms
    raw.close()
    assert [p.app_trans_id for p in journal.payments_with_code(CODE)] == ["261121_t1_a"]
    assert journal.payments_with_code(CODE + "0") == []
    for path in tmp_path.iterdir():
        assert CODE.encode() not in path.read_bytes(), path


def test_fingerprint_secret_is_per_journal_and_survives_reopen(tmp_path: Path) -> None:
    a = Journal.open(tmp_path / "a.sqlite3")
    b = Journal.open(tmp_path / "b.sqlite3")
    fp = a.fingerprint(CODE)
    assert fp != b.fingerprint(CODE)
    a.close()
    b.close()
    assert Journal.open(tmp_path / "a.sqlite3").fingerprint(CODE) == fp


def test_each_transition_appends_one_event_and_same_state_appends_none(
        journal: Journal) -> None:
    _intent(journal)
    journal.transition("261121_t1_a", S.UNKNOWN, message="no answer")
    journal.transition("261121_t1_a", S.UNKNOWN, message="still nothing", count_poll=True)
    journal.transition("261121_t1_a", S.PROCESSING, message="processing", return_code=3)
    view = journal.transition("261121_t1_a", S.SUCCEEDED, message="paid", return_code=1,
                              sub_return_code=1, zp_trans_id="42", service_message="ok")
    assert (view.state, view.zp_trans_id, view.polls, view.return_code) == (
        S.SUCCEEDED, "42", 1, 1)
    assert [(e.from_state, e.to_state, e.return_code, e.message)
            for e in journal.events("261121_t1_a")] == [
        ("new", "submitting", None, "sending"),
        ("submitting", "unknown", None, "no answer"),
        ("unknown", "processing", 3, "processing"),
        ("processing", "succeeded", 1, "paid"),
    ]


def test_backward_moves_and_moves_out_of_final_states_are_refused(journal: Journal) -> None:
    _intent(journal)
    journal.transition("261121_t1_a", S.FAILED, message="declined", return_code=-63)
    for target in (S.SUCCEEDED, S.PROCESSING, S.UNKNOWN, S.SUBMITTING, S.REFUNDED):
        with pytest.raises(IllegalTransition, match="cannot go from failed"):
            journal.transition("261121_t1_a", target, message="late answer")
    view = journal.get("261121_t1_a")
    assert view.state is S.FAILED and view.message == "declined"
    assert len(journal.events("261121_t1_a")) == 2


def test_events_payments_and_z_reports_cannot_be_rewritten(journal: Journal,
                                                           tmp_path: Path) -> None:
    _intent(journal)
    journal.transition("261121_t1_a", S.SUCCEEDED, message="paid", zp_trans_id="1")
    journal.close_day()
    raw = sqlite3.connect(tmp_path / "j.sqlite3")
    for sql in ("UPDATE events SET message='x'", "DELETE FROM events",
                "DELETE FROM payments", "UPDATE z_reports SET totals_json='{}'",
                "DELETE FROM z_reports", "UPDATE payments SET amount=1",
                "UPDATE payments SET z_number=NULL"):
        with pytest.raises(sqlite3.IntegrityError):
            raw.execute(sql)
    raw.close()


def test_override_needs_reason_and_only_settles_unresolved_rows(journal: Journal) -> None:
    _intent(journal)
    journal.transition("261121_t1_a", S.UNKNOWN, message="no answer")
    with pytest.raises(IllegalTransition, match="needs a reason"):
        journal.override("261121_t1_a", S.SUCCEEDED, reason="  ", who="lan", message="m")
    with pytest.raises(IllegalTransition, match="only mark a payment succeeded or failed"):
        journal.override("261121_t1_a", S.PROCESSING, reason="r", who="lan", message="m")
    view = journal.override("261121_t1_a", S.SUCCEEDED, reason="portal shows paid",
                            who="lan", message="marked paid")
    assert view.state is S.SUCCEEDED
    last = journal.events("261121_t1_a")[-1]
    assert (last.kind, last.from_state, last.to_state, last.reason, last.who) == (
        "override", "unknown", "succeeded", "portal shows paid", "lan")
    with pytest.raises(IllegalTransition, match="already succeeded"):
        journal.override("261121_t1_a", S.FAILED, reason="oops", who="lan", message="m")


def test_refunds_never_exceed_what_is_left(journal: Journal) -> None:
    _intent(journal)
    with pytest.raises(RefundNotAllowed, match="only a succeeded payment"):
        journal.record_refund_intent(m_refund_id="r0", app_trans_id="261121_t1_a", amount=1,
                                     description="", request_ms=1)
    journal.transition("261121_t1_a", S.SUCCEEDED, message="paid", zp_trans_id="9")
    first = journal.record_refund_intent(m_refund_id="r1", app_trans_id="261121_t1_a",
                                         amount=30_000, description="", request_ms=1)
    assert first.state is RefundState.REFUNDING
    # 30 000 in flight counts: only 20 000 is left.
    with pytest.raises(RefundNotAllowed, match=r"only 20\.000 ₫ is left"):
        journal.record_refund_intent(m_refund_id="r2", app_trans_id="261121_t1_a",
                                     amount=20_001, description="", request_ms=1)
    journal.refund_transition("r1", RefundState.REFUNDED, message="done")
    partial = journal.get("261121_t1_a")
    assert (partial.state, partial.refunded_amount) == (S.SUCCEEDED, 30_000)
    rest = journal.record_refund_intent(m_refund_id="r3", app_trans_id="261121_t1_a",
                                        amount=None, description="", request_ms=1)
    assert rest.amount == 20_000
    journal.refund_transition("r3", RefundState.REFUNDED, message="done")
    full = journal.get("261121_t1_a")
    assert (full.state, full.refunded_amount) == (S.REFUNDED, 50_000)
    with pytest.raises(RefundNotAllowed):
        journal.record_refund_intent(m_refund_id="r4", app_trans_id="261121_t1_a",
                                     amount=None, description="", request_ms=1)
    assert [(e.m_refund_id, e.from_state, e.to_state) for e in journal.events("261121_t1_a")
            if e.m_refund_id] == [
        ("r1", "new", "refunding"), ("r1", "refunding", "refunded"),
        ("r3", "new", "refunding"), ("r3", "refunding", "refunded"),
        ("r3", "succeeded", "refunded"),
    ]


def test_x_and_z_reports(journal: Journal) -> None:
    for n, (amount, state) in enumerate([(10_000, S.SUCCEEDED), (25_000, S.SUCCEEDED),
                                         (7_000, S.FAILED), (3_000, S.UNKNOWN)]):
        _intent(journal, f"261121_t1_{n}", amount, code=f"{CODE}{n}")
        journal.transition(f"261121_t1_{n}", state, message="x", zp_trans_id=str(n + 1))
    journal.record_refund_intent(m_refund_id="r1", app_trans_id="261121_t1_1", amount=5_000,
                                 description="", request_ms=1)
    journal.refund_transition("r1", RefundState.REFUNDED, message="done")
    x = journal.x_report()
    assert (x.kind, x.sales_count, x.sales_amount, x.refunds_amount, x.net_amount,
            x.failed_count, x.unresolved_count, x.unresolved_amount) == (
        "x", 2, 35_000, 5_000, 30_000, 1, 1, 3_000)
    z1 = journal.close_day()
    assert (z1.number, z1.sales_amount, z1.net_amount, z1.unresolved_count) == (1, 35_000,
                                                                                30_000, 1)
    # The carried payment settles the next day and lands in Z #2, not in Z #1.
    journal.transition("261121_t1_3", S.SUCCEEDED, message="paid late", zp_trans_id="4")
    assert journal.x_report().sales_amount == 3_000
    z2 = journal.close_day()
    assert (z2.number, z2.sales_count, z2.sales_amount, z2.unresolved_count) == (2, 1, 3_000, 0)
    assert journal.z_report(1) == z1
    assert journal.z_numbers() == [1, 2]
    z3 = journal.close_day()
    assert (z3.number, z3.sales_count, z3.net_amount) == (3, 0, 0)


def test_csv_export_has_one_line_per_payment(journal: Journal) -> None:
    _intent(journal)
    journal.transition("261121_t1_a", S.SUCCEEDED, message="paid", zp_trans_id="77",
                       return_code=1)
    out = io.StringIO()
    write_csv(journal.list_payments(), out)
    rows = list(csv.DictReader(io.StringIO(out.getvalue())))
    assert len(rows) == 1
    row = rows[0]
    assert (row["app_trans_id"], row["state"], row["amount"], row["zp_trans_id"],
            row["code_last4"], row["return_code"]) == ("261121_t1_a", "succeeded", "50000",
                                                       "77", "5678", "1")
    assert json.loads(journal.list_payments()[0].items_json) == [{"itemid": "1"}]


def test_newer_schema_and_foreign_files_are_refused(tmp_path: Path) -> None:
    newer = tmp_path / "newer.sqlite3"
    raw = sqlite3.connect(newer)
    raw.execute(f"PRAGMA user_version={SCHEMA_VERSION + 1}")
    raw.close()
    with pytest.raises(JournalCorrupt, match=f"schema version {SCHEMA_VERSION + 1}, newer"):
        Journal.open(newer)
    junk = tmp_path / "junk.sqlite3"
    junk.write_bytes(b"this is not a database at all" * 100)
    with pytest.raises(JournalCorrupt, match="not a pos-terminal journal"):
        Journal.open(junk)


def test_locked_journal_refuses_with_a_sentence_and_records_nothing(tmp_path: Path) -> None:
    path = tmp_path / "j.sqlite3"
    journal = Journal.open(path, busy_timeout_s=0.2)
    holder = sqlite3.connect(path, isolation_level=None)
    holder.execute("BEGIN EXCLUSIVE")
    with pytest.raises(JournalUnavailable, match="locked by another program") as err:
        _intent(journal)
    assert err.value.reason == "locked"
    holder.execute("ROLLBACK")
    holder.close()
    assert journal.list_payments() == []
    journal.close()


class _LosesTheWalRace(sqlite3.Connection):
    """What SQLite answered, now and then, to the second of two processes creating one journal at
    the same moment: "database is locked" on the switch to WAL, at once, without waiting on the
    busy timeout. Here it answers that twice, then lets SQLite answer."""

    refusals = 2

    def execute(self, sql: str, *args: Any) -> sqlite3.Cursor:
        if sql == "PRAGMA journal_mode=WAL" and _LosesTheWalRace.refusals:
            _LosesTheWalRace.refusals -= 1
            raise sqlite3.OperationalError("database is locked")
        return super().execute(sql, *args)


def test_two_programs_creating_one_journal_at_once_both_open_it(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "j.sqlite3"
    first = Journal.open(path)
    monkeypatch.setattr(_LosesTheWalRace, "refusals", 2)
    connect = sqlite3.connect
    monkeypatch.setattr(sqlite3, "connect",
                        lambda *a, **kw: connect(*a, factory=_LosesTheWalRace, **kw))
    second = Journal.open(path)
    assert _LosesTheWalRace.refusals == 0
    _intent(second)
    assert [p.app_trans_id for p in first.list_payments()] == ["261121_t1_a"]
    second.close()
    first.close()


def test_a_journal_locked_past_its_busy_timeout_at_the_wal_switch_is_unavailable(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(_LosesTheWalRace, "refusals", 10**6)
    connect = sqlite3.connect
    monkeypatch.setattr(sqlite3, "connect",
                        lambda *a, **kw: connect(*a, factory=_LosesTheWalRace, **kw))
    with pytest.raises(JournalUnavailable, match="locked by another program"):
        Journal.open(tmp_path / "j.sqlite3", busy_timeout_s=0.2)


class _HeldRead(sqlite3.Connection):
    """A read connection whose read of a payment waits, inside its read transaction, until the
    test lets it go: a payment's thread reading while the terminal quits."""

    started = threading.Event()
    release = threading.Event()

    def execute(self, sql: str, *args: Any) -> sqlite3.Cursor:
        if "FROM payments WHERE app_trans_id=?" in sql:
            _HeldRead.started.set()
            _HeldRead.release.wait(30)
        return super().execute(sql, *args)


def test_closing_the_journal_waits_for_a_read_under_way_on_another_thread(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Closing an SQLite connection under a statement running on another thread crashed the
    process (a segmentation fault, seen when the terminal quit while a payment was followed)."""
    journal = Journal.open(tmp_path / "j.sqlite3")
    _intent(journal)
    monkeypatch.setattr(_HeldRead, "started", threading.Event())
    monkeypatch.setattr(_HeldRead, "release", threading.Event())
    connect = sqlite3.connect
    monkeypatch.setattr(sqlite3, "connect",
                        lambda *a, **kw: connect(*a, factory=_HeldRead, **kw))
    answers: list[object] = []

    def follow() -> None:
        for _ in range(2):
            try:
                answers.append(journal.get("261121_t1_a").state)
            except JournalUnavailable as exc:
                answers.append(exc)

    follower = threading.Thread(target=follow)
    follower.start()
    assert _HeldRead.started.wait(30)
    closer = threading.Thread(target=journal.close)
    closer.start()
    closer.join(0.3)
    assert closer.is_alive(), "the journal closed under a read still running"
    _HeldRead.release.set()
    closer.join(30)
    follower.join(30)
    assert answers[0] is S.SUBMITTING  # the read under way ended with its answer
    for late in (answers[1], _raised(lambda: journal.get("261121_t1_a")),
                 _raised(lambda: _intent(journal, "261121_t1_b", code=f"{CODE}9"))):
        assert isinstance(late, JournalUnavailable)
        assert (late.reason, str(late)) == (
            "closed", f"The payment journal {journal.path} was closed: the terminal is "
            "shutting down.")


_READ_WHILE_CLOSING = """
import sys, threading
from pathlib import Path
from pos_terminal.journal import Journal, JournalUnavailable

last = []
for n in range(20):
    journal = Journal.open(Path(sys.argv[1]) / f"j{n}.sqlite3")
    started, closed = threading.Barrier(4), threading.Event()

    def follow() -> None:
        journal.find("261121_t1_a")
        started.wait()  # each thread has its read connection: now close, while they read
        while not closed.is_set():
            try:
                journal.find("261121_t1_a")
            except JournalUnavailable as exc:
                last.append(exc.reason)
                return

    readers = [threading.Thread(target=follow) for _ in range(3)]
    for reader in readers:
        reader.start()
    started.wait()
    journal.close()
    closed.set()
    for reader in readers:
        reader.join()
print(sorted(set(last)))
"""


def test_a_journal_closed_while_threads_read_it_never_crashes_the_process(
        tmp_path: Path) -> None:
    """Three threads reading as fast as they can while the journal closes, 20 times: before,
    a segmentation fault every time; now a thread reading after the close is told the journal
    was closed."""
    import subprocess
    import sys

    run = subprocess.run([sys.executable, "-c", _READ_WHILE_CLOSING, str(tmp_path)],
                         capture_output=True, text=True, timeout=120, check=False)
    assert (run.returncode, run.stdout, run.stderr) == (0, "['closed']\n", "")


def _raised(call: Any) -> BaseException | None:
    try:
        call()
    except Exception as exc:
        return exc
    return None


def test_journal_at_its_size_limit_refuses_as_full(tmp_path: Path) -> None:
    journal = Journal.open(tmp_path / "j.sqlite3")
    pages = journal._conn.execute("PRAGMA page_count").fetchone()[0]
    journal._conn.execute(f"PRAGMA max_page_count={pages}")
    with pytest.raises(JournalUnavailable, match="is full") as err:
        for n in range(200):
            _intent(journal, f"261121_t1_{n}", code=f"{CODE}{n}")
    assert err.value.reason == "full"
    journal.close()


def test_an_existing_journal_is_migrated_in_place_keeping_its_rows(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from pos_terminal.journal import schema, store

    path = tmp_path / "j.sqlite3"
    with Journal.open(path) as journal:
        _intent(journal)
        fp = journal.fingerprint(CODE)
    future = (*schema.MIGRATIONS, "ALTER TABLE payments ADD COLUMN receipt_no INTEGER;")
    monkeypatch.setattr(store, "MIGRATIONS", future)
    monkeypatch.setattr(store, "SCHEMA_VERSION", len(future))
    with Journal.open(path) as journal:
        assert journal.schema_version == len(future)
        assert journal.get("261121_t1_a").state is S.SUBMITTING
        assert journal.fingerprint(CODE) == fp
    raw = sqlite3.connect(path)
    assert raw.execute("SELECT receipt_no FROM payments").fetchall() == [(None,)]
    raw.close()


def test_a_failing_migration_leaves_the_old_version(tmp_path: Path,
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    from pos_terminal.journal import schema, store

    path = tmp_path / "j.sqlite3"
    Journal.open(path).close()
    future = (*schema.MIGRATIONS, "ALTER TABLE payments ADD COLUMN x INTEGER;\nBROKEN SQL;")
    monkeypatch.setattr(store, "MIGRATIONS", future)
    monkeypatch.setattr(store, "SCHEMA_VERSION", len(future))
    with pytest.raises(JournalUnavailable):
        Journal.open(path)
    raw = sqlite3.connect(path)
    assert raw.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
    columns = [r[1] for r in raw.execute("PRAGMA table_info(payments)")]
    assert "x" not in columns
    raw.close()


# --- final states protected by the database itself (schema version 2) -----------------------
def _settled(j: Journal) -> None:
    """One row of each final kind: failed, succeeded (partly refunded), refunded."""
    _intent(j, "261121_t1_f", code="111111111111111111")
    j.transition("261121_t1_f", S.FAILED, message="declined")
    for tid, code in (("261121_t1_s", "222222222222222222"), ("261121_t1_r", "333333333333333333")):
        _intent(j, tid, amount=30_000, code=code)
        j.transition(tid, S.SUCCEEDED, message="paid", zp_trans_id=f"zp{tid[-1]}")
    j.record_refund_intent(m_refund_id="261121_1_s", app_trans_id="261121_t1_s", amount=10_000,
                           description="part", request_ms=j.now())
    j.refund_transition("261121_1_s", RefundState.REFUNDED, message="done")
    j.record_refund_intent(m_refund_id="261121_1_r", app_trans_id="261121_t1_r", amount=None,
                           description="all", request_ms=j.now())
    j.refund_transition("261121_1_r", RefundState.REFUNDED, message="done")


REFUSED_BY_THE_DATABASE = [
    ("UPDATE payments SET state='succeeded' WHERE app_trans_id='261121_t1_f'", "final state"),
    ("UPDATE payments SET state='unknown' WHERE app_trans_id='261121_t1_f'", "final state"),
    ("UPDATE payments SET state='failed' WHERE state='succeeded'", "final state"),
    ("UPDATE payments SET state='processing' WHERE app_trans_id='261121_t1_s'", "final state"),
    ("UPDATE payments SET state='succeeded' WHERE app_trans_id='261121_t1_r'", "final state"),
    ("UPDATE payments SET refunded_amount=0 WHERE app_trans_id='261121_t1_s'", "never decreases"),
    ("UPDATE payments SET amount=amount+1 WHERE app_trans_id='261121_t1_s'", "never change"),
    ("UPDATE payments SET app_trans_id='x' WHERE app_trans_id='261121_t1_f'", "never change"),
    ("UPDATE payments SET code_fingerprint='00' WHERE app_trans_id='261121_t1_f'",
     "fingerprint"),
    ("UPDATE payments SET code_fingerprint=NULL WHERE app_trans_id='261121_t1_f'",
     "fingerprint"),
    ("UPDATE refunds SET state='refunding' WHERE m_refund_id='261121_1_s'", "final state"),
    ("UPDATE refunds SET amount=1 WHERE m_refund_id='261121_1_s'", "never change"),
]


@pytest.mark.parametrize(("sql", "says"), REFUSED_BY_THE_DATABASE,
                         ids=[f"{n}" for n in range(len(REFUSED_BY_THE_DATABASE))])
def test_the_database_refuses_rewriting_a_settled_row_from_any_program(
        journal: Journal, tmp_path: Path, sql: str, says: str) -> None:
    _settled(journal)
    other = sqlite3.connect(tmp_path / "j.sqlite3", isolation_level=None)
    try:
        with pytest.raises(sqlite3.IntegrityError, match=says):
            other.execute(sql)
        # What the state machine allows still works: succeeded -> refunded, refunds add up.
        other.execute("UPDATE payments SET refunded_amount=30000, state='refunded' "
                      "WHERE app_trans_id='261121_t1_s'")
        other.execute("UPDATE payments SET message='noted', z_number=NULL "
                      "WHERE app_trans_id='261121_t1_f'")
    finally:
        other.close()
    assert journal.get("261121_t1_f").state is S.FAILED
    assert journal.get("261121_t1_s").state is S.REFUNDED


def _version_1_journal(path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A journal as pos-terminal wrote it before schema version 2, with settled rows."""
    from pos_terminal.journal import schema, store

    # The rows are written by today's code in a current journal, then copied column by column
    # into a version-1 file (today's code writes columns version 1 does not have).
    current = path.with_name("current.sqlite3")
    with Journal.open(current) as j:
        _settled(j)
    with monkeypatch.context() as m:
        m.setattr(store, "MIGRATIONS", schema.MIGRATIONS[:1])
        m.setattr(store, "SCHEMA_VERSION", 1)
        with Journal.open(path) as j:
            assert j.schema_version == 1
    raw = sqlite3.connect(path, isolation_level=None)
    raw.execute("ATTACH DATABASE ? AS cur", (str(current),))
    renamed = {"zp_trans_id": "provider_trans_id"}  # its name since version 13
    for table in ("payments", "refunds", "events"):
        names = [r[1] for r in raw.execute(f"PRAGMA main.table_info({table})")]
        cols = ", ".join(names)
        source = ", ".join(renamed.get(name, name) for name in names)
        raw.execute(f"INSERT INTO main.{table}({cols}) SELECT {source} FROM cur.{table}")
    raw.execute("DETACH DATABASE cur")
    # Version 1 stored a short code whole as its "last 4".
    raw.execute("UPDATE payments SET code_last4='123' WHERE app_trans_id='261121_t1_f'")
    raw.execute("UPDATE payments SET state='succeeded' WHERE app_trans_id='261121_t1_f'")
    raw.execute("UPDATE payments SET state='failed' WHERE app_trans_id='261121_t1_f'")
    raw.close()


def test_version_1_journal_is_migrated_to_protect_its_settled_rows(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "j.sqlite3"
    _version_1_journal(path, monkeypatch)  # version 1: the raw backward moves above went in
    with Journal.open(path) as journal:
        assert journal.schema_version == SCHEMA_VERSION == len(journal_schema.MIGRATIONS)
        failed = journal.get("261121_t1_f")
        assert (failed.state, failed.code_last4) == (S.FAILED, None)
        assert journal.get("261121_t1_s").refunded_amount == 10_000
        assert journal.get("261121_t1_s").code_last4 == "2222"
    raw = sqlite3.connect(path, isolation_level=None)
    try:
        with pytest.raises(sqlite3.IntegrityError, match="final state"):
            raw.execute("UPDATE payments SET state='failed' WHERE state='succeeded'")
    finally:
        raw.close()


@pytest.mark.parametrize(("code", "last4"), [
    ("123", None), ("1234567", None), ("12345678", "5678"), (CODE, "5678")])
def test_a_short_code_keeps_no_characters(journal: Journal, tmp_path: Path, code: str,
                                          last4: str | None) -> None:
    view = _intent(journal, code=code)
    assert view.code_last4 == last4
    assert [p.app_trans_id for p in journal.payments_with_code(code)] == [view.app_trans_id]
    raw = sqlite3.connect(tmp_path / "j.sqlite3")
    assert raw.execute("SELECT code_last4 FROM payments").fetchone()[0] == last4
    raw.close()


def test_journal_files_and_folder_are_private(tmp_path: Path) -> None:
    import os
    import stat

    path = tmp_path / "new" / "folder" / "j.sqlite3"
    old = os.umask(0o022)
    try:
        journal = Journal.open(path)
        _intent(journal)
        files = [path, Path(f"{path}-wal"), Path(f"{path}-shm")]
        modes = {f.name: stat.S_IMODE(f.stat().st_mode) for f in files}
        journal.close()
    finally:
        os.umask(old)
    assert modes == {"j.sqlite3": 0o600, "j.sqlite3-wal": 0o600, "j.sqlite3-shm": 0o600}
    assert stat.S_IMODE(path.parent.stat().st_mode) == 0o700


def test_x_report_of_a_day_with_no_payments_says_so(journal: Journal) -> None:
    x = journal.x_report()
    assert report_lines(x)[1] == (
        f"  no payments yet; as of {format_stamp(x.generated_ms)} (Vietnam time)")
    assert (x.sales_count, x.net_amount) == (0, 0)
