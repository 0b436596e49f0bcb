"""Lines broken between phrases (issue 43): a Vietnamese word is syllables with spaces between
them, so a line broken at any space can cut one ("thất / bại")."""

from __future__ import annotations

from rich.cells import cell_len

from pos_terminal.tui.widgets.phrases import shorten, wrap_phrases

TOTALS = "Tổng: 14 thành công 1.180.000 ₫ · đã hoàn 120.000 ₫ · thực thu 1.060.000 ₫ · 5 thất bại"


def test_a_line_breaks_after_a_separator_never_inside_a_phrase() -> None:
    assert wrap_phrases(TOTALS, 78) == [
        "Tổng: 14 thành công 1.180.000 ₫ · đã hoàn 120.000 ₫ · thực thu 1.060.000 ₫ ·",
        "5 thất bại"]


def test_a_phrase_wider_than_the_line_breaks_at_its_spaces_a_word_at_the_width() -> None:
    lines = wrap_phrases("một cụm từ rất dài không có dấu ngắt nào cả", 12)
    assert all(cell_len(line) <= 12 for line in lines)
    assert " ".join(lines) == "một cụm từ rất dài không có dấu ngắt nào cả"
    assert wrap_phrases("x" * 25, 10) == ["x" * 10, "x" * 10, "x" * 5]


def test_shorten_ends_between_phrases_or_after_a_sentence() -> None:
    assert shorten("Ngân hàng từ chối, thử lại sau · thu ngân lan", 34) == (
        "Ngân hàng từ chối, thử lại sau…")
    assert shorten("Ngân hàng từ chối, thử lại sau · thu ngân lan", 30) == "Ngân hàng từ chối…"
    assert shorten("The balance is too low. Ask the customer to top up.", 30) == (
        "The balance is too low. …")
    assert shorten("short", 30) == "short"
