"""The journal's triggers allow exactly the moves of the state table, whoever writes.

Every (from, to) pair of states is tried with a raw UPDATE on a real journal file, for payment
rows and refund rows; the database must accept exactly the moves `journal/states.py` lists.
"""

from __future__ import annotations

import hashlib
import itertools
import sqlite3
from pathlib import Path

import pytest

from pos_terminal.journal import Journal, schema
from pos_terminal.journal.state_triggers import state_triggers_migration
from pos_terminal.journal.states import (
    PAYMENT_MOVES,
    PAYMENT_ROW_STATES,
    PAYMENT_TRANSITIONS,
    REFUND_MOVES,
    REFUND_ROW_STATES,
    PaymentState,
)
from pos_terminal.journal.store import _split_sql

S = PaymentState


@pytest.fixture
def raw(tmp_path: Path) -> sqlite3.Connection:
    path = tmp_path / "j.sqlite3"
    Journal.open(path).close()
    conn = sqlite3.connect(path, isolation_level=None)
    yield conn
    conn.close()


def _payment(conn: sqlite3.Connection, app_trans_id: str, state: PaymentState) -> None:
    conn.execute(
        "INSERT INTO payments(app_trans_id, kind, generation, state, amount, created_ms, "
        "updated_ms) VALUES (?, 'quick_pay', 'v2', ?, 1000, 1, 1)", (app_trans_id, state.value))


def _moves_allowed(conn: sqlite3.Connection, sql: str, args: tuple[object, ...]) -> bool:
    try:
        conn.execute(sql, args)
    except sqlite3.IntegrityError:
        return False
    return True


def test_payment_rows_make_exactly_the_moves_of_the_table(raw: sqlite3.Connection) -> None:
    table = {(m.source, m.target) for m in PAYMENT_MOVES
             if not m.late_only and m.source is not m.target}
    late = {(m.source, m.target) for m in PAYMENT_MOVES if m.late_only}
    allowed, allowed_late = set(), set()
    for n, (source, target) in enumerate(itertools.product(PAYMENT_ROW_STATES, repeat=2)):
        if source is target:
            continue
        _payment(raw, f"p{n}", source)
        if _moves_allowed(raw, "UPDATE payments SET state=? WHERE app_trans_id=?",
                          (target.value, f"p{n}")):
            allowed.add((source, target))
        _payment(raw, f"l{n}", source)
        if _moves_allowed(raw, "UPDATE payments SET state=?, late=1 WHERE app_trans_id=?",
                          (target.value, f"l{n}")):
            allowed_late.add((source, target))
    assert allowed == table
    assert allowed_late == late == {(S.FAILED, S.SUCCEEDED)}
    assert table == {(s, t) for s, targets in PAYMENT_TRANSITIONS.items() for t in targets}


def test_no_payment_row_ever_moves_into_a_refunds_state(raw: sqlite3.Connection) -> None:
    """The payments' CHECK still allows the old 'refunding' (schema version 1); no move of the
    table leads there, so the triggers refuse it from every state a payment row can hold."""
    assert "refunding" not in {s.value for s in PAYMENT_ROW_STATES}
    for n, source in enumerate(PAYMENT_ROW_STATES):
        _payment(raw, f"p{n}", source)
        assert not _moves_allowed(raw, "UPDATE payments SET state='refunding' "
                                       "WHERE app_trans_id=?", (f"p{n}",))


def test_refund_rows_make_exactly_the_moves_of_the_table(raw: sqlite3.Connection) -> None:
    _payment(raw, "p", S.SUCCEEDED)
    table = {(m.source, m.target) for m in REFUND_MOVES
             if m.source in REFUND_ROW_STATES and m.source is not m.target}
    allowed = set()
    for n, (source, target) in enumerate(itertools.product(REFUND_ROW_STATES, repeat=2)):
        if source is target:
            continue
        raw.execute("INSERT INTO refunds(m_refund_id, app_trans_id, amount, state, request_ms, "
                    "created_ms, updated_ms) VALUES (?, 'p', 10, ?, 1, 1, 1)",
                    (f"r{n}", source.value))
        if _moves_allowed(raw, "UPDATE refunds SET state=? WHERE m_refund_id=?",
                          (target.value, f"r{n}")):
            allowed.add((source, target))
    assert allowed == table


def test_a_refused_move_names_the_state_machine(raw: sqlite3.Connection) -> None:
    _payment(raw, "p", S.PROCESSING)
    with pytest.raises(sqlite3.IntegrityError, match="state machine forbids this move"):
        raw.execute("UPDATE payments SET state='submitting' WHERE app_trans_id='p'")


#: sha256 (first 16 hex digits) of each released migration. A released migration never
#: changes: a journal already at its version would not run it again. If the state table changed,
#: freeze the old text of its migration as a literal and append a new migration instead.
RELEASED = ("f00d3b2d0ae88eb7", "334efea60c031763", "9993affcbaa247ba", "6a60f9ce9e3f50c7",
            "90bfa3e5df8c79fb", "5c9e20a97ed0794e", "d7480cc22750ad24")


def test_released_migrations_never_change() -> None:
    digests = tuple(hashlib.sha256(m.encode()).hexdigest()[:16] for m in schema.MIGRATIONS)
    assert digests[:len(RELEASED)] == RELEASED


def test_the_newest_triggers_are_the_ones_generated_from_the_table(raw: sqlite3.Connection
                                                                   ) -> None:
    stored = {name: sql for name, sql in raw.execute(
        "SELECT name, sql FROM sqlite_master WHERE type='trigger'")}
    assert "payments_final_state" not in stored and "refunds_final_state" not in stored
    generated = state_triggers_migration()
    for name in ("payments_state_machine", "refunds_state_machine"):
        assert stored[name] in generated


def test_a_version_5_journal_gets_the_state_machine_then_the_late_charge_columns(
        tmp_path: Path) -> None:
    """v5 -> v6 (generated state triggers) -> v7 (abandoned, auto): an open payment written
    before both can still be given up on, and the state machine still guards it."""
    path = tmp_path / "v5.sqlite3"
    conn = sqlite3.connect(path, isolation_level=None)
    for number in range(5):
        for statement in _split_sql(schema.MIGRATIONS[number]):
            conn.execute(statement)
    conn.execute("PRAGMA user_version=5")
    conn.execute("INSERT INTO meta VALUES ('fingerprint_secret', x'00112233')")
    _payment(conn, "old", S.UNKNOWN)
    conn.close()
    with Journal.open(path) as journal:
        assert journal.schema_version == len(schema.MIGRATIONS) >= 7
        view = journal.mark_abandoned("old", "given up")
        assert (view.state, view.abandoned) == (S.UNKNOWN, True)
    raw = sqlite3.connect(path, isolation_level=None)
    with pytest.raises(sqlite3.IntegrityError, match="state machine forbids this move"):
        raw.execute("UPDATE payments SET state='submitting' WHERE app_trans_id='old'")
    with pytest.raises(sqlite3.IntegrityError, match="abandoned is set only"):
        raw.execute("UPDATE payments SET abandoned=0 WHERE app_trans_id='old'")
    raw.close()
