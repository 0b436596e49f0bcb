"""Issue 22 item 8: "outcome" means one thing. No class or module of pos_terminal is named plain
`Outcome`/`outcome` (the wallet's reading is `AnswerStatus`, the Result screen's `ResultSummary`,
the front ends' answers `counter/answers.py`), and every `*Outcome` class that remains is in the
glossary of docs/architecture.md with its own meaning."""

from __future__ import annotations

import ast
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "pos_terminal"
GLOSSARY = ROOT / "docs" / "architecture.md"


def _classes() -> dict[str, list[str]]:
    found: dict[str, list[str]] = {}
    for path in PACKAGE.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ClassDef):
                found.setdefault(node.name, []).append(str(path.relative_to(ROOT)))
    return found


def test_no_class_or_module_is_plainly_named_outcome() -> None:
    classes = _classes()
    assert "Outcome" not in classes, classes.get("Outcome")
    assert not [p for p in PACKAGE.rglob("outcome.py")]


def test_every_outcome_class_left_is_in_the_glossary() -> None:
    text = GLOSSARY.read_text(encoding="utf-8")
    glossary = text[text.index('### Words with one meaning: "outcome"'):]
    names = [n for n in _classes() if re.fullmatch(r"\w*Outcome", n)]
    assert names
    for name in names:
        assert f"`{name}`" in glossary, name
