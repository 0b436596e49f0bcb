"""The journal's state-machine triggers, generated from the table in journal/states.py.

A released migration's text never changes (a journal already at that version would keep the old
triggers): tests/journal/test_state_triggers.py pins it and tries every (from, to) pair on a real
journal. After changing the table, freeze the old text of migration 6 as a literal in schema.py
and append a new migration with `state_triggers_migration()`.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from pos_terminal.journal.states import (
    FINAL_STATES,
    PAYMENT_MOVES,
    REFUND_FINAL_STATES,
    REFUND_MOVES,
    PaymentMove,
    RefundMove,
)


def _names(states: Iterable[str]) -> str:
    return "(" + ", ".join(f"'{s}'" for s in sorted(states)) + ")"


def _allowed(moves: Sequence[PaymentMove] | Sequence[RefundMove]) -> str:
    """SQL true exactly for the moves listed (OLD and NEW of an UPDATE), one move a line."""
    pairs = sorted({(m.source.value, m.target.value) for m in moves
                    if not m.late_only and m.source is not m.target})
    rows = ",\n".join(f"            ('{a}', '{b}')" for a, b in pairs)
    clauses = [f"(OLD.state, NEW.state) IN (VALUES\n{rows})"]
    clauses += [f"(OLD.state = '{m.source}' AND NEW.state = '{m.target}'"
                " AND OLD.late = 0 AND NEW.late = 1)" for m in moves if m.late_only]
    return "\n        OR ".join(clauses)


def _trigger(table: str, row: str, moves: Sequence[PaymentMove] | Sequence[RefundMove],
             finals: Iterable[str]) -> str:
    return (
        f"DROP TRIGGER IF EXISTS {table}_final_state;\n"
        f"CREATE TRIGGER {table}_state_machine BEFORE UPDATE OF state ON {table}\n"
        f"    WHEN NEW.state IS NOT OLD.state\n"
        f"    AND NOT ({_allowed(moves)})\n"
        f"BEGIN SELECT RAISE(ABORT, 'the state machine forbids this move of a {row} (one in a "
        f"final state: {', '.join(sorted(finals))}, never changes state)'); END;\n"
    )


def state_triggers_migration() -> str:
    """Drop the hand-written final-state triggers and create the generated ones."""
    return (_trigger("payments", "payment", PAYMENT_MOVES, FINAL_STATES)
            + _trigger("refunds", "refund", REFUND_MOVES, REFUND_FINAL_STATES))
