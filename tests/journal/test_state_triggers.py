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

from pos_terminal.journal import IllegalTransition, Journal, schema
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


def _payment_moves_allowed(conn: sqlite3.Connection, prefix: str, update: str, *,
                           flagged: bool = False) -> set[tuple[PaymentState, PaymentState]]:
    """The (from, to) pairs the database lets `update` (its SET) make, from rows carrying
    `needs_review` or not."""
    allowed = set()
    for n, (source, target) in enumerate(itertools.product(PAYMENT_ROW_STATES, repeat=2)):
        if source is target:
            continue
        _payment(conn, f"{prefix}{n}", source)
        if flagged:
            conn.execute("UPDATE payments SET needs_review=1 WHERE app_trans_id=?",
                         (f"{prefix}{n}",))
        if _moves_allowed(conn, f"UPDATE payments SET {update} WHERE app_trans_id=?",
                          (target.value, f"{prefix}{n}")):
            allowed.add((source, target))
    return allowed


def test_payment_rows_make_exactly_the_moves_of_the_table(raw: sqlite3.Connection) -> None:
    table = {(m.source, m.target) for m in PAYMENT_MOVES
             if not m.own_writer and m.source is not m.target}
    late = {(m.source, m.target) for m in PAYMENT_MOVES if m.late_only}
    flagged = {(m.source, m.target) for m in PAYMENT_MOVES if m.flagged_only}
    assert late == flagged == {(S.FAILED, S.SUCCEEDED)}
    assert _payment_moves_allowed(raw, "p", "state=?") == table
    # `late` is set only by a late success (its own trigger refuses it with any other move)
    assert _payment_moves_allowed(raw, "l", "state=?, late=1") == late
    # a failed row flagged for review: a person's override to paid, which clears the flag
    assert _payment_moves_allowed(raw, "r", "state=?, needs_review=0", flagged=True) == (
        table | flagged)
    assert _payment_moves_allowed(raw, "k", "state=?", flagged=True) == table  # flag kept
    assert _payment_moves_allowed(raw, "u", "state=?, needs_review=0") == table  # not flagged
    assert table == {(s, t) for s, targets in PAYMENT_TRANSITIONS.items() for t in targets}


def test_a_failed_row_becomes_succeeded_by_hand_only_with_a_flag_of_the_table(
        raw: sqlite3.Connection) -> None:
    """Written with sqlite3: an ordinary failed row never becomes succeeded; only a late
    success (setting `late`) or the override of a row flagged for review (clearing the flag)
    does. The trigger sees the one UPDATE: the override's reason, who decided and its event are
    the journal writer's to check (`Journal.override`)."""
    _payment(raw, "plain", S.FAILED)
    with pytest.raises(sqlite3.IntegrityError, match="state machine forbids this move"):
        raw.execute("UPDATE payments SET state='succeeded' WHERE app_trans_id='plain'")
    with pytest.raises(sqlite3.IntegrityError, match="state machine forbids this move"):
        raw.execute("UPDATE payments SET state='succeeded', needs_review=0 "
                    "WHERE app_trans_id='plain'")
    assert raw.execute("SELECT state FROM payments WHERE app_trans_id='plain'").fetchone() == (
        "failed",)
    _payment(raw, "flagged", S.FAILED)
    raw.execute("UPDATE payments SET needs_review=1 WHERE app_trans_id='flagged'")
    raw.execute("UPDATE payments SET state='succeeded', needs_review=0 "
                "WHERE app_trans_id='flagged'")


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
            "90bfa3e5df8c79fb", "5c9e20a97ed0794e", "d7480cc22750ad24", "a5bce44f1ccf6bbe",
            "133f68118698ff61", "2e062a9ddff2554b", "ee5c646e30061f1c", "33a41c825b2a030d",
            "9b43f89e673de397", "4d44191d88c3b294")


def test_released_migrations_never_change() -> None:
    digests = tuple(hashlib.sha256(m.encode()).hexdigest()[:16] for m in schema.MIGRATIONS)
    assert digests[:len(RELEASED)] == RELEASED


def test_the_newest_triggers_are_the_ones_generated_from_the_table(raw: sqlite3.Connection
                                                                   ) -> None:
    stored = {name: sql for name, sql in raw.execute(
        "SELECT name, sql FROM sqlite_master WHERE type='trigger'")}
    assert "payments_final_state" not in stored and "refunds_final_state" not in stored
    generated = state_triggers_migration()
    assert schema.MIGRATIONS[13] == generated  # the newest one to make them (version 14)
    for name in ("payments_state_machine", "refunds_state_machine"):
        assert stored[name] in generated


def _journal_at(path: Path, version: int) -> sqlite3.Connection:
    """A journal as a release at schema `version` left it (a raw connection to write rows)."""
    conn = sqlite3.connect(path, isolation_level=None)
    for number in range(version):
        for statement in _split_sql(schema.MIGRATIONS[number]):
            conn.execute(statement)
    conn.execute(f"PRAGMA user_version={version}")
    conn.execute("INSERT INTO meta VALUES ('fingerprint_secret', x'00112233')")
    return conn


def test_a_version_13_journal_gets_the_override_of_a_flagged_failed_row(tmp_path: Path) -> None:
    """v13 -> v14: the triggers of version 6 are replaced; a failed row flagged for review
    written before can be settled by a person, an ordinary one still cannot."""
    path = tmp_path / "v13.sqlite3"
    conn = _journal_at(path, 13)
    _payment(conn, "flagged", S.FAILED)
    _payment(conn, "plain", S.FAILED)
    conn.execute("UPDATE payments SET needs_review=1 WHERE app_trans_id='flagged'")
    with pytest.raises(sqlite3.IntegrityError, match="state machine forbids this move"):
        conn.execute("UPDATE payments SET state='succeeded', needs_review=0 "
                     "WHERE app_trans_id='flagged'")  # version 13 refuses it
    conn.close()
    with Journal.open(path) as journal:
        assert journal.schema_version == len(schema.MIGRATIONS) >= 14
        view = journal.override("flagged", S.SUCCEEDED, reason="rest in cash", who="sup",
                                message="kept")
        assert (view.state, view.needs_review) == (S.SUCCEEDED, False)
        with pytest.raises(IllegalTransition):
            journal.override("plain", S.SUCCEEDED, reason="r", who="sup", message="x")
        assert journal.get("plain").state is S.FAILED


def test_a_version_5_journal_gets_the_state_machine_then_the_late_charge_columns(
        tmp_path: Path) -> None:
    """v5 -> v6 (generated state triggers) -> v7 (abandoned, auto): an open payment written
    before both can still be given up on, and the state machine still guards it."""
    path = tmp_path / "v5.sqlite3"
    conn = _journal_at(path, 5)
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
