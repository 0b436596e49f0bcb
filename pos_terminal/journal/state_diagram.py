"""The state table (journal/states.py) as pictures and tables, for docs/architecture.md.

One Mermaid state diagram for payments and one for refunds (their own states), each followed by
every move of its table as a Markdown row (from, event, guard, to, flag set, flag cleared), then
what each event and each guard means.
tests/journal/test_state_diagram.py checks that the docs hold exactly this, so the picture never
drifts from the table the journal and its triggers obey.
"""

from __future__ import annotations

from collections.abc import Sequence

from pos_terminal.journal.states import (
    EVENTS,
    GUARDS,
    PAYMENT_MOVES,
    REFUND_MOVES,
    PaymentMove,
    PaymentState,
    RefundMove,
)

BEGIN = "<!-- state diagram: generated from journal/states.py (journal/state_diagram.py) -->"
END = "<!-- end of the generated state diagram -->"

Moves = Sequence[PaymentMove] | Sequence[RefundMove]


def _label(move: PaymentMove | RefundMove) -> str:
    """`event [guard] / flag it sets` (the flags a move clears are in its table's row)."""
    text = move.event.value
    if move.guard:
        text += f" [{move.guard}]"
    if move.sets is not None:
        text += f" / {move.sets.value}"
    return text


def mermaid(moves: Moves) -> str:
    """One kind's moves as a state diagram (NEW, before the intent, is the start: [*])."""
    edges: dict[tuple[str, str], list[str]] = {}
    for m in moves:
        edges.setdefault((m.source.value, m.target.value), []).append(_label(m))
    lines = ["```mermaid", "stateDiagram-v2"]
    for (source, target), labels in edges.items():
        start = "[*]" if source == PaymentState.NEW.value else source
        lines.append(f"    {start} --> {target}: {', '.join(labels)}")
    lines.append("```")
    return "\n".join(lines)


def _order(move: PaymentMove | RefundMove) -> tuple[int, int]:
    """By source state, then event, in the order their enums list them."""
    states: list[str] = list(type(move.source))
    events: list[str] = list(type(move.event))
    return states.index(move.source), events.index(move.event)


def table(moves: Moves) -> str:
    """One kind's moves, one Markdown row each, by source state then event."""
    lines = ["| from | event | guard | to | sets | clears |", "|---|---|---|---|---|---|"]
    for m in sorted(moves, key=_order):
        lines.append(" | ".join((
            f"| {m.source.value}", f"`{m.event.value}`", m.guard, m.target.value,
            m.sets.value if m.sets is not None else "",
            m.clears.value if m.clears is not None else "")) + " |")
    return "\n".join(lines)


def events() -> str:
    return "\n".join(f"- `{event.value}`: {meaning}" for event, meaning in EVENTS.items())


def guards() -> str:
    return "\n".join(f"- `{name}`: {meaning}" for name, meaning in GUARDS.items())


def block() -> str:
    """What docs/architecture.md holds between its markers."""
    return "\n\n".join((
        BEGIN, "**Payments** (`PaymentState`, `PaymentEvent`, `PAYMENT_MOVES`)",
        mermaid(PAYMENT_MOVES), table(PAYMENT_MOVES),
        "**Refunds** (`RefundState`, `RefundEvent`, `REFUND_MOVES`: a refund row's own states)",
        mermaid(REFUND_MOVES), table(REFUND_MOVES),
        "**Events** (`states.EVENTS`: when each happens)", events(),
        "**Guards** (`states.GUARDS`)", guards(), END))


if __name__ == "__main__":
    print(block())
