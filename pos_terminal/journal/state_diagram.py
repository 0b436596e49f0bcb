"""The state table (journal/states.py) as a Mermaid state diagram, for docs/architecture.md.

tests/journal/test_state_diagram.py checks that the diagram in the docs is this one, so the
picture never drifts from the table the journal and its triggers obey.
"""

from __future__ import annotations

from collections.abc import Iterable

from pos_terminal.journal.states import PAYMENT_MOVES, REFUND_MOVES, Move, PaymentState

BEGIN = "<!-- state diagram: generated from journal/states.py (journal/state_diagram.py) -->"
END = "<!-- end of the generated state diagram -->"


def _label(moves: list[Move]) -> str:
    parts = []
    for m in moves:
        text = m.event.value
        if m.guard:
            text += f" [{m.guard}]"
        if m.sets is not None:
            text += f" / {m.sets.value}"
        parts.append(text)
    return ", ".join(parts)


def _lines(moves: Iterable[Move], prefix: str) -> list[str]:
    edges: dict[tuple[PaymentState, PaymentState], list[Move]] = {}
    for m in moves:
        edges.setdefault((m.source, m.target), []).append(m)
    out = []
    for (source, target), group in edges.items():
        a = "[*]" if source is PaymentState.NEW else f"{prefix}{source.value}"
        b = f"{prefix}{target.value}"
        out.append(f"    {a} --> {b}: {_label(group)}")
    return out


def mermaid() -> str:
    """Both tables: payments, then refunds (states prefixed ``refund_``)."""
    lines = ["```mermaid", "stateDiagram-v2", "    %% payments"]
    lines += _lines(PAYMENT_MOVES, "")
    lines += ["    %% refunds (their own rows and states)"]
    lines += _lines(REFUND_MOVES, "refund_")
    lines += ["```"]
    return "\n".join(lines)


def block() -> str:
    """What docs/architecture.md holds between its markers."""
    return f"{BEGIN}\n{mermaid()}\n{END}"


if __name__ == "__main__":
    print(block())
