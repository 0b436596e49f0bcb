"""The state table's picture in docs/architecture.md is generated from the table and current."""

from __future__ import annotations

import re
from pathlib import Path

from pos_terminal.journal.state_diagram import BEGIN, END, block
from pos_terminal.journal.states import (
    EVENTS,
    PAYMENT_MOVES,
    REFUND_MOVES,
    PaymentEvent,
    RefundEvent,
)

DOC = Path(__file__).resolve().parents[2] / "docs" / "architecture.md"


def test_the_diagram_in_the_docs_is_the_table() -> None:
    text = DOC.read_text(encoding="utf-8")
    start, end = text.index(BEGIN), text.index(END) + len(END)
    assert text[start:end] == block(), (
        "docs/architecture.md: regenerate with `python -m pos_terminal.journal.state_diagram`")


def test_every_move_is_drawn() -> None:
    drawn = block()
    for move in (*PAYMENT_MOVES, *REFUND_MOVES):
        assert move.event.value in drawn
        if move.guard:
            assert f"{move.event.value} [{move.guard}]" in drawn


def test_payments_and_refunds_are_drawn_apart_and_every_move_is_a_row() -> None:
    """"What happens to a payment when X" is one row: from, event, guard, to, sets, clears."""
    payments, refunds = block().split("**Refunds**")
    assert payments.count("```mermaid") == refunds.count("```mermaid") == 1
    assert "refunding" not in payments  # a payment is never "refunding"
    for moves, part in ((PAYMENT_MOVES, payments), (REFUND_MOVES, refunds)):
        for m in moves:
            sets = m.sets.value if m.sets is not None else ""
            clears = m.clears.value if m.clears is not None else ""
            assert (f"| {m.source.value} | `{m.event.value}` | {m.guard} | {m.target.value} | "
                    f"{sets} | {clears} |") in part


def test_every_event_says_when_it_happens() -> None:
    assert set(EVENTS) == {*PaymentEvent, *RefundEvent}
    drawn = block()
    for event, meaning in EVENTS.items():
        assert f"- `{event.value}`: {meaning}" in drawn


CITED = re.compile(r"`(\w+) --(\w+)--> (\w+)`")


def test_the_answers_in_the_docs_cite_moves_of_the_table() -> None:
    """"What happens to a payment when X", answered in the docs by rows of the table: each row
    cited (`from --event--> to`) is a move, so an answer cannot outlive the table."""
    text = DOC.read_text(encoding="utf-8")
    answers = text[text.index("#### Five questions"):]
    cited = CITED.findall(answers[:answers.index("\n### ")])
    assert len(cited) >= 20
    moves = {(m.source.value, m.event.value, m.target.value)
             for m in (*PAYMENT_MOVES, *REFUND_MOVES)}
    assert [row for row in cited if row not in moves] == []
