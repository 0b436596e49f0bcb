"""Issue 32, item 9: the counter's words. docs/language.md has a glossary (one word for one
thing); every Vietnamese text the terminal shows or prints (both catalogs, the receipt labels)
is held to it: no word of its "never" column appears anywhere."""

from __future__ import annotations

import dataclasses
import re
from pathlib import Path

import pytest
from babel.messages.pofile import read_po

from pos_terminal.receipts.labels import VIETNAMESE

ROOT = Path(__file__).resolve().parents[2]
CATALOGS = sorted((ROOT / "pos_terminal/locale/vi/LC_MESSAGES").glob("*.po"))


def glossary() -> list[tuple[str, str, list[str]]]:
    """(the thing, the Vietnamese word, the words never used for it) from docs/language.md."""
    text = (ROOT / "docs/language.md").read_text("utf-8")
    table = text[text.index("## The counter's words (glossary)"):]
    rows = []
    lines = table.splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith("|"))
    for line in lines[start + 2:]:  # after the header and its rule
        if not line.startswith("|"):
            break
        thing, _english, vietnamese, never = (c.strip() for c in line.strip("|").split("|"))
        words = [w.split(" (")[0].strip() for w in never.split(",") if w.strip()]
        rows.append((thing, vietnamese, words))
    return rows


def vietnamese_texts() -> list[tuple[str, str]]:
    """(where, text) of every Vietnamese text: each msgstr, each receipt label."""
    out: list[tuple[str, str]] = []
    for catalog in CATALOGS:
        with catalog.open("rb") as handle:
            for message in read_po(handle):
                strings = message.string if isinstance(message.string, tuple) else (
                    message.string,)
                out += [(f"{catalog.name}: {message.id!r}", str(s)) for s in strings if s]
    for field in dataclasses.fields(VIETNAMESE):
        out += [(f"receipt label {field.name}", part)
                for part in _strings(getattr(VIETNAMESE, field.name))]
    return out


def _strings(value: object) -> list[str]:
    """The texts in a label: a string, or tuples of them (the wallets' printed names are pairs
    of a provider key and its name)."""
    if isinstance(value, str):
        return [value]
    if isinstance(value, tuple):
        return [text for part in value for text in _strings(part)]
    return []


def _uses(text: str, word: str) -> bool:
    for found in re.finditer(rf"(?<!\w){re.escape(word)}(?!\w)", text):
        if not text[found.end():].startswith(" lời"):  # "trả lời": to answer
            return True
    return False


def test_the_glossary_is_read() -> None:
    rows = glossary()
    assert len(rows) >= 10
    assert ("leaving the program (Ctrl+Q)", "Thoát", ["Tắt máy", "tắt máy"]) in rows


@pytest.mark.parametrize("thing,word,never", glossary(), ids=[r[0] for r in glossary()])
def test_every_catalog_keeps_to_the_glossary(thing: str, word: str, never: list[str]) -> None:
    texts = vietnamese_texts()
    assert len(texts) > 500
    offending = [(where, text) for where, text in texts for bad in never if _uses(text, bad)]
    assert not offending, f"{thing}: say {word!r}, not {never}: {offending[:5]}"


def test_the_footer_and_the_quit_question_say_the_same_word() -> None:
    words = dict(vietnamese_texts())
    assert words["tui.po: 'Quit'"] == "Thoát"
    assert words["tui.po: 'Close the terminal?'"].startswith("Thoát")
