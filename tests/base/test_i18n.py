"""The language switch and the catalogs read from the .po files."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from babel.messages.pofile import read_po

from pos_terminal.base import i18n


@pytest.fixture(autouse=True)
def _restore_language() -> Iterator[None]:
    before = i18n._language
    yield
    i18n._language = before


def test_language_from_environment() -> None:
    assert i18n.language_from_environment({"LANG": "vi_VN.UTF-8"}) == "vi"
    assert i18n.language_from_environment({"LC_ALL": "en_US.UTF-8", "LANG": "vi_VN"}) == "en"
    assert i18n.language_from_environment({}) == "en"


def test_the_demo_is_vietnamese_unless_the_locale_names_a_language() -> None:
    """`pos-terminal demo` starts in Vietnamese when the locale names none (issue 21, 8)."""
    assert i18n.locale_language({}) is None
    assert i18n.locale_language({"LANG": "C.UTF-8"}) is None
    assert i18n.locale_language({"LC_ALL": "POSIX"}) is None
    assert i18n.locale_language({"LANG": "en_US.UTF-8"}) == "en"
    assert i18n.locale_language({"LANG": "vi_VN.UTF-8"}) == "vi"


def test_plurals_in_english_and_vietnamese() -> None:
    i18n.set_language("en")
    assert i18n.ngettext("{count} refund", "{count} refunds", 1).format(count=1) == "1 refund"
    assert i18n.ngettext("{count} refund", "{count} refunds", 2).format(count=2) == "2 refunds"
    i18n.set_language("vi")
    assert i18n.ngettext("{count} refund", "{count} refunds", 2).format(count=2) == (
        "2 lần hoàn tiền")


def test_normalise_refuses_languages_we_do_not_ship() -> None:
    assert i18n.normalise("vi_VN.UTF-8") == "vi"
    assert i18n.normalise("EN") == "en"
    with pytest.raises(ValueError, match="use one of: vi, en"):
        i18n.normalise("fr")


def test_every_catalog_parses_and_keeps_placeholders() -> None:
    """A translation that drops or renames a {placeholder} would crash at .format() time."""
    import re

    for path in sorted(Path(i18n.LOCALE_DIR).glob("*/LC_MESSAGES/*.po")):
        with path.open("rb") as handle:
            catalog = read_po(handle)
        for message in catalog:
            if not message.id or not message.string:
                continue
            wanted = sorted(re.findall(r"\{[a-z_0-9]*\}", str(message.id)))
            got = sorted(re.findall(r"\{[a-z_0-9]*\}", str(message.string)))
            assert wanted == got, f"{path.name}: {message.id!r}"


def test_gettext_follows_the_current_language(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(i18n._catalogs, "vi", {"Paid": "Đã thanh toán"})
    i18n.set_language("vi")
    assert i18n._("Paid") == "Đã thanh toán"
    assert i18n._("no such message") == "no such message"
    assert i18n.translate_to("en", "Paid") == "Paid"
    i18n.set_language("en")
    assert i18n._("Paid") == "Paid"
    assert i18n.translate_to("vi", "Paid") == "Đã thanh toán"


def test_every_marked_string_has_a_vietnamese_translation() -> None:
    """Every `_()` / `N_()` string in the code has a Vietnamese msgstr, with the msgid's
    placeholders; run scripts/extract-messages, then translate what --check lists."""
    from pos_terminal.base import catalogs

    found = catalogs.extract()
    assert len({f.msgid for f in found}) > 250  # the extractor really sees the code
    problems = catalogs.problems(found)
    assert problems == [], "\n".join(problems[:40])


def test_the_catalog_check_finds_what_is_missing() -> None:
    """The check above can fail: a string with no translation, and a translation that lost a
    placeholder, are both reported."""
    from pos_terminal.base import catalogs

    stray = catalogs.Found("A sentence nobody translated {amount}.", "tui", "x.py:1")
    [line] = catalogs.problems([stray])
    assert "no vi translation in tui.po" in line and "x.py:1" in line
    assert catalogs.placeholders("Paid {amount} at %s") == ["%s", "{amount}"]
    assert catalogs.placeholders("Đã trả {amount}") != catalogs.placeholders("Paid {amount} %s")


def test_translations_follow_set_language() -> None:
    i18n.set_language("vi")
    assert i18n._("NOT PAID") == "CHƯA THANH TOÁN"
    assert i18n.translate_to("en", "NOT PAID") == "NOT PAID"
    i18n.set_language("en")
    assert i18n._("NOT PAID") == "NOT PAID"
    assert i18n.translate_to("vi", "PAID") == "ĐÃ THANH TOÁN"
