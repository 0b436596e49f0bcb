"""The journal's state-machine triggers, generated from the table in journal/states.py.

A released migration's text never changes (a journal already at that version would keep the old
triggers): tests/journal/test_state_triggers.py pins it and tries every (from, to) pair on a real
journal. After changing the table, freeze the old text of the last migration made by
`state_triggers_migration()` as a literal in schema.py (`STATE_TRIGGERS_V6`) and append a
new one (version 6 created the triggers; version 14 replaced them, adding the override of a failed
row flagged for review).

A trigger sees one UPDATE: the row before and after. It allows a plain (from, to) pair of the
table whatever the flags, and a move out of a final state only with its flag: a late success only
while setting `late`, the override of a failed row only from a row flagged `needs_review` and
clearing it. What a guard asks beyond that (a reason and who decided, with an `override` event on
the record) is checked by the journal's writer (`Journal.override`), not by the database.
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
                    if not m.own_writer and m.source is not m.target})
    rows = ",\n".join(f"            ('{a}', '{b}')" for a, b in pairs)
    clauses = [f"(OLD.state, NEW.state) IN (VALUES\n{rows})"]
    clauses += [f"(OLD.state = '{m.source}' AND NEW.state = '{m.target}'"
                " AND OLD.late = 0 AND NEW.late = 1)" for m in moves if m.late_only]
    clauses += [f"(OLD.state = '{m.source}' AND NEW.state = '{m.target}' AND OLD.{m.needs} = 1"
                + (f" AND NEW.{m.needs} = 0)" if m.clears is m.needs else ")")
                for m in moves if m.flagged_only]
    return "\n        OR ".join(clauses)


def _trigger(table: str, row: str, moves: Sequence[PaymentMove] | Sequence[RefundMove],
             finals: Iterable[str]) -> str:
    return (
        f"DROP TRIGGER IF EXISTS {table}_final_state;\n"
        f"DROP TRIGGER IF EXISTS {table}_state_machine;\n"
        f"CREATE TRIGGER {table}_state_machine BEFORE UPDATE OF state ON {table}\n"
        f"    WHEN NEW.state IS NOT OLD.state\n"
        f"    AND NOT ({_allowed(moves)})\n"
        f"BEGIN SELECT RAISE(ABORT, 'the state machine forbids this move of a {row} (one in a "
        f"final state: {', '.join(sorted(finals))}, leaves it only by a move of the state "
        f"table)'); END;\n"
    )


def state_triggers_migration() -> str:
    """Drop the hand-written final-state triggers (or the generated ones of an older table) and
    create the generated ones."""
    return (_trigger("payments", "payment", PAYMENT_MOVES, FINAL_STATES)
            + _trigger("refunds", "refund", REFUND_MOVES, REFUND_FINAL_STATES))
