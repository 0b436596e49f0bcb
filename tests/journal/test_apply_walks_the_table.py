"""Issue 22 item 2: one `apply(subject, event, answer)` moves every row, by the table alone.

Every (state, event) the table lists makes exactly its move (its flag set, its guard kept);
every (state, event) it does not list is refused by `apply`, and the database's triggers refuse
the state change it would have made whoever writes it.
"""

from __future__ import annotations

import itertools
import sqlite3
from pathlib import Path

import pytest

from pos_terminal.base.reasons import Reason
from pos_terminal.journal import IllegalTransition, Journal, Refused
from pos_terminal.journal.machine import Answer
from pos_terminal.journal.states import (
    PAYMENT_EVENTS,
    PAYMENT_MOVES,
    PAYMENT_STATES,
    REFUND_EVENTS,
    REFUND_MOVES,
    REFUND_ROW_STATES,
    Flag,
    PaymentEvent,
    PaymentMove,
    PaymentState,
    RefundEvent,
    RefundMove,
    RefundState,
    move_for,
)
from pos_terminal.journal.views import PaymentView, RefundView

S, E, RS, RE = PaymentState, PaymentEvent, RefundState, RefundEvent
SAID = Reason.of("checking")
# made by the write that creates
CREATED: set[PaymentEvent | RefundEvent] = {E.INTENT, RE.INTENT, E.REFUNDED_IN_FULL,
                                             RE.BY_SHOP}


@pytest.fixture
def journal(tmp_path: Path) -> Journal:
    j = Journal.open(tmp_path / "j.sqlite3")
    yield j
    j.close()


def _raw(journal: Journal) -> sqlite3.Connection:
    return sqlite3.connect(journal.path, isolation_level=None)


def _payment(journal: Journal, key: str, state: PaymentState, **flags: int) -> str:
    columns = "".join(f", {flag}" for flag in flags)  # set as the row is born: no trigger
    with _raw(journal) as conn:
        conn.execute(
            "INSERT INTO payments(app_trans_id, kind, generation, state, amount, "
            "provider_trans_id, "
            f"created_ms, updated_ms{columns}) VALUES (?, 'quick_pay', 'v2', ?, 1000, '77', 1, "
            f"1{', ?' * len(flags)})", (key, state.value, *flags.values()))
    return key


def _refund(journal: Journal, key: str, state: RefundState, **flags: int) -> str:
    columns = "".join(f", {flag}" for flag in flags)
    with _raw(journal) as conn:
        conn.execute("INSERT OR IGNORE INTO payments(app_trans_id, kind, generation, state, "
                     "amount, provider_trans_id, created_ms, updated_ms) VALUES "
                     "('paid', 'quick_pay', 'v2', 'succeeded', 1000, '77', 1, 1)")
        conn.execute("INSERT INTO refunds(m_refund_id, app_trans_id, amount, state, request_ms, "
                     f"created_ms, updated_ms{columns}) VALUES (?, 'paid', 10, ?, 1, 1, 1"
                     f"{', ?' * len(flags)})", (key, state.value, *flags.values()))
    return key


def _satisfying(move: PaymentMove) -> dict[str, int]:
    """The row's flags that make the move's guard hold."""
    return {"left_for_review": {"needs_review": 1}, "review_by_a_person": {"needs_review": 1},
            "charged_late": {"abandoned": 1}}.get(move.guard, {})


@pytest.mark.parametrize("move", [m for m in PAYMENT_MOVES if m.event not in CREATED],
                         ids=lambda m: f"{m.source.value}-{m.event.value}")
def test_every_payment_move_of_the_table_is_made_by_apply(journal: Journal,
                                                          move: PaymentMove) -> None:
    key = _payment(journal, "p", move.source, **_satisfying(move))
    view = journal.apply(key, move.event, Answer(1, 1, "ok", "77"), message=SAID,
                         reason="checked the portal", who="Lan")
    assert view.state is move.target
    if move.sets is not None:
        assert getattr(view, move.sets.value) is True
    assert view.why == SAID
    if move.sets is not Flag.NEEDS_REVIEW and move.target in (S.SUCCEEDED, S.FAILED):
        assert view.needs_review is False


@pytest.mark.parametrize("move", [m for m in REFUND_MOVES if m.event not in CREATED],
                         ids=lambda m: f"{m.source.value}-{m.event.value}")
def test_every_refund_move_of_the_table_is_made_by_apply(journal: Journal,
                                                         move: RefundMove) -> None:
    _refund(journal, "r", move.source)
    view = journal.apply(journal.get_refund("r"), move.event, message=SAID)
    assert view.state is move.target
    if move.sets is not None:
        assert getattr(view, move.sets.value) is True


@pytest.mark.parametrize("move", [m for m in (*PAYMENT_MOVES, *REFUND_MOVES)
                                  if m.event not in CREATED and m.sets is not Flag.NEEDS_REVIEW
                                  and m.guard not in ("left_for_review", "review_by_a_person",
                                                      "not_flagged")],
                         ids=lambda m: f"{m.source.value}-{m.event.value}")
def test_a_row_waiting_for_a_person_keeps_the_flag_unless_the_move_clears_it(
        journal: Journal, move: PaymentMove | RefundMove) -> None:
    """The table's `clears` column is what the journal's writers do: a verdict clears
    needs_review, every other move leaves it."""
    if isinstance(move.source, RefundState):
        _refund(journal, "r", move.source, needs_review=1)
        view: PaymentView | RefundView = journal.apply(journal.get_refund("r"), move.event,
                                                       message=SAID)
    else:
        flags = {**_satisfying(move), "needs_review": 1}
        view = journal.apply(_payment(journal, "p", move.source, **flags), move.event,
                             Answer(1, 1, "ok", "77"), message=SAID, reason="checked", who="Lan")
    assert view.needs_review is (move.clears is not Flag.NEEDS_REVIEW)


@pytest.mark.parametrize("guard", ["not_late", "not_abandoned", "not_flagged",
                                   "left_for_review", "review_by_a_person", "charged_late"])
def test_a_move_whose_guard_fails_is_refused_and_changes_nothing(
        journal: Journal, guard: str) -> None:
    move = next(m for m in PAYMENT_MOVES if m.guard == guard)
    breaking = {"not_late": {"late": 1}, "not_abandoned": {"abandoned": 1},
                "not_flagged": {"needs_review": 1}}.get(guard, {})
    key = _payment(journal, "p", move.source, **breaking)
    before = journal.get(key)
    with pytest.raises(Refused) as refused:
        journal.apply(key, move.event, message=SAID, reason="r", who="w")
    assert refused.value.guard == guard
    assert journal.get(key) == before


def _targets(event: PaymentEvent | RefundEvent,
             moves: tuple[PaymentMove, ...] | tuple[RefundMove, ...]) -> set[str]:
    return {m.target for m in moves if m.event is event}


def test_every_state_event_pair_outside_the_table_is_refused_by_apply_and_the_triggers(
        journal: Journal) -> None:
    moving_pairs = {(m.source, m.target) for m in PAYMENT_MOVES if m.source is not m.target}
    refused_by_apply = refused_by_triggers = 0
    for n, (state, event) in enumerate(itertools.product(PAYMENT_STATES[1:], PAYMENT_EVENTS)):
        if move_for(state, event) is not None and event not in CREATED:
            continue
        key = _payment(journal, f"x{n}", state)
        before = journal.get(key)
        with pytest.raises(IllegalTransition):
            journal.apply(key, event, message=SAID, reason="r", who="w", grace_s=0.0)
        assert journal.get(key) == before, (state, event)
        refused_by_apply += 1
        for target in _targets(event, PAYMENT_MOVES) - {state}:
            if (state, target) in moving_pairs:
                continue  # another event makes this change of state: the database allows it
            with _raw(journal) as conn, pytest.raises(sqlite3.IntegrityError,
                                                      match="state machine forbids"):
                conn.execute("UPDATE payments SET state=? WHERE app_trans_id=?",
                             (target.value, key))
            refused_by_triggers += 1
    assert refused_by_apply > 50 and refused_by_triggers > 20


def test_every_refund_state_event_pair_outside_the_table_is_refused(journal: Journal) -> None:
    moving_pairs = {(m.source, m.target) for m in REFUND_MOVES if m.source is not m.target}
    for n, (state, event) in enumerate(itertools.product(REFUND_ROW_STATES, REFUND_EVENTS)):
        if move_for(state, event) is not None and event not in CREATED:
            continue
        _refund(journal, f"r{n}", state)
        before = journal.get_refund(f"r{n}")
        with pytest.raises(IllegalTransition):
            journal.apply(before, event, message=SAID)
        assert journal.get_refund(f"r{n}") == before
        for target in _targets(event, REFUND_MOVES) - {state}:
            if (state, target) in moving_pairs:
                continue
            with _raw(journal) as conn, pytest.raises(sqlite3.IntegrityError):
                conn.execute("UPDATE refunds SET state=? WHERE m_refund_id=?",
                             (target.value, f"r{n}"))


def test_payments_and_refunds_have_their_own_states_and_events() -> None:
    assert [s.value for s in PaymentState] == [
        "new", "submitting", "processing", "succeeded", "failed", "unknown", "refunded"]
    assert [s.value for s in RefundState] == ["new", "refunding", "refunded", "failed"]
    assert {e.value for e in PaymentEvent}.isdisjoint(e.value for e in RefundEvent)
    for m in PAYMENT_MOVES:
        assert isinstance(m.source, PaymentState) and isinstance(m.target, PaymentState)
        assert isinstance(m.event, PaymentEvent)
    for r in REFUND_MOVES:
        assert isinstance(r.source, RefundState) and isinstance(r.target, RefundState)
        assert isinstance(r.event, RefundEvent)
    assert {m.target for m in REFUND_MOVES} == {RS.REFUNDING, RS.REFUNDED, RS.FAILED}
    flags = {(m.event, m.sets) for m in PAYMENT_MOVES if m.sets is not None}
    assert {f for _, f in flags} == set(Flag)  # late, abandoned, needs_review: named here


def test_the_table_has_no_move_for_an_event_of_the_other_kind(journal: Journal) -> None:
    """Even with the types bypassed (a plain string, `cast`), a refund's event never moves a
    payment and a payment's event never moves a refund: 'failed' is a state of both."""
    for state, event in itertools.product(PAYMENT_STATES, REFUND_EVENTS):
        assert move_for(state, event) is None  # type: ignore[call-overload]
    for refund_state, payment_event in itertools.product(RefundState, PAYMENT_EVENTS):
        assert move_for(refund_state, payment_event) is None  # type: ignore[call-overload]
    key = _payment(journal, "p", S.SUCCEEDED, needs_review=0)
    before = journal.get(key)
    for refund_event in (RE.DONE, RE.FAILED, RE.PENDING):
        with pytest.raises(IllegalTransition, match="no move"):
            journal.apply(key, refund_event, message=SAID)  # type: ignore[call-overload]
    assert journal.get(key) == before
    _refund(journal, "r", RS.REFUNDING)
    refund = journal.get_refund("r")
    for payment_event in (E.PAID, E.DECLINED, E.NO_ANSWER, E.TOO_OLD):
        with pytest.raises(IllegalTransition, match="no move"):
            journal.apply(refund, payment_event, message=SAID)  # type: ignore[call-overload]
    assert journal.get_refund("r") == refund


def test_a_refund_move_whose_guard_fails_is_refused_and_changes_nothing(
        journal: Journal) -> None:
    move = next(m for m in REFUND_MOVES if m.guard == "not_flagged")
    _refund(journal, "r", move.source, needs_review=1)
    before = journal.get_refund("r")
    with pytest.raises(Refused) as refused:
        journal.apply(before, move.event, message=SAID)
    assert refused.value.guard == "not_flagged"
    assert journal.get_refund("r") == before
