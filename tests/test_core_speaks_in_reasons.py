"""Issue 22 item 1: the payment core (wallet, journal, checkout) records and returns reasons;
only pos_terminal.sentences (outside the core) words them, in the language being shown."""

from __future__ import annotations

import ast
import importlib
from pathlib import Path

import pytest

from pos_terminal.base.reasons import Reason

PACKAGE = Path(__file__).resolve().parent.parent / "pos_terminal"
CORE = ("wallet", "journal", "checkout")
GETTEXT_NAMES = {"_", "N_", "gettext", "ngettext", "translate_to"}


def _core_files() -> list[Path]:
    return sorted(p for name in CORE for p in (PACKAGE / name).rglob("*.py"))


@pytest.mark.parametrize("path", _core_files(), ids=lambda p: str(p.relative_to(PACKAGE)))
def test_the_core_marks_no_sentence_for_translation(path: Path) -> None:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    calls = [node.lineno for node in ast.walk(tree) if isinstance(node, ast.Call)
             and isinstance(node.func, ast.Name) and node.func.id in GETTEXT_NAMES]
    imports = [node.lineno for node in ast.walk(tree) if isinstance(node, ast.ImportFrom)
               and (node.module or "").startswith(("pos_terminal.base.i18n",
                                                    "pos_terminal.sentences"))]
    assert not calls and not imports, f"{path.name}: gettext at lines {calls + imports}"


def test_every_reason_the_core_can_give_has_a_sentence() -> None:
    """Each reason code written in the core is one the renderer words (no code left bare)."""
    sentences = importlib.import_module("pos_terminal.sentences")
    known = sentences.known_codes()
    found: set[str] = set()
    for path in _core_files():
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
                    and node.func.attr == "of" and isinstance(node.func.value, ast.Name)
                    and node.func.value.id == "Reason" and node.args
                    and isinstance(node.args[0], ast.Constant)):
                found.add(str(node.args[0].value))
    codes = importlib.import_module("pos_terminal.wallets.zalopay.returncodes")
    found |= set(codes.PAYMENT_REASONS.values()) | set(codes.REFUND_REASONS.values())
    found |= {codes.CODE_ALREADY_USED, codes.CODE_NOT_RECOGNISED, codes.RSA_KEY_MISMATCH}
    found |= {f"refused.code_{why}" for why in ("charged", "in_flight", "unresolved")}
    assert len(found) > 60
    assert found <= known, sorted(found - known)


def test_a_reason_survives_the_journal_and_reads_in_either_language() -> None:
    reason = Reason.of("late.returned", amount=25_000)
    back = Reason.loads(reason.dumps())
    assert back == reason
    sentences = importlib.import_module("pos_terminal.sentences")
    english = sentences.render(back, "en")
    assert english == ("Charged late and returned automatically (25.000 ₫): the customer has "
                       "the money back.")
    assert sentences.render(back, "vi") not in ("", english)
    assert Reason.loads("free text of an older row") == Reason.text("free text of an older row")
    assert sentences.render(Reason.of("a.code.from.a.newer.version", n=1)) == (
        "a.code.from.a.newer.version (n=1)")
