"""Issue 22 item 2: every state-writing call of the checkout goes through `journal.apply`."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

CHECKOUT = Path(__file__).resolve().parents[2] / "pos_terminal" / "checkout"
#: The journal's writers `apply` dispatches to: the checkout never calls them itself.
WRITERS = {"transition", "flag_answer", "mark_abandoned", "record_late_success", "override",
           "flag_for_review", "conclude_never_arrived", "refund_transition",
           "flag_refund_for_review"}


@pytest.mark.parametrize("path", sorted(CHECKOUT.glob("*.py")), ids=lambda p: p.name)
def test_the_checkout_moves_rows_only_by_apply(path: Path) -> None:
    calls = [f"{node.lineno}: {node.func.attr}" for node in ast.walk(ast.parse(path.read_text()))
             if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
             and node.func.attr in WRITERS
             and not (isinstance(node.func.value, ast.Name) and node.func.value.id == "self")]
    assert not calls, calls
