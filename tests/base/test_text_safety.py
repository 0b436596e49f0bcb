"""pos_terminal.text_safety: what every printed, exported or JSON text goes through."""

from __future__ import annotations

import json

import pytest

from pos_terminal.text_safety import (
    AbsurdNumber,
    bounded_int,
    clean,
    control_character,
    csv_cell,
    json_line,
)

HOSTILE = "a\x1b]0;title\x07b\x1b[2Jc\x9b6nd\u202ee\u2028f\x85g\x00h"


@pytest.mark.parametrize("start", ["=", "+", "-", "@", "\t", "\r", " =", "  @", "\t="])
def test_a_cell_a_spreadsheet_would_run_is_text(start: str) -> None:
    cell = csv_cell(f"{start}HYPERLINK(\"http://x\")")
    assert isinstance(cell, str) and cell.startswith("'")
    assert "\t" not in cell and "\r" not in cell


@pytest.mark.parametrize("value", ["Tea", "a=b", "100", 15000, -15000, None])
def test_plain_cells_and_numbers_are_kept(value: object) -> None:
    assert csv_cell(value) == value


def test_json_line_escapes_every_invisible_character_and_stays_the_same_json() -> None:
    line = json_line({"message": HOSTILE, "amount": 1})
    assert line.isprintable()
    for ch in ("\x1b", "\x07", "\x9b", "\u202e", "\u2028", "\x85", "\x00"):
        assert ch not in line
    assert json.loads(line) == {"message": HOSTILE, "amount": 1}
    assert json_line({"name": "Cà phê"}) == '{"name": "Cà phê"}'  # letters stay letters


def test_control_character_names_the_first_one() -> None:
    assert control_character("Nguyễn Lan") is None
    assert control_character("Lan\x1bp") == "U+001B"
    assert control_character("Lan\u202e") == "U+202E"
    assert clean(HOSTILE) == "abcde f gh"


def test_bounded_int_refuses_thousands_of_digits_before_int_does() -> None:
    assert json.loads('{"a": -123}', parse_int=bounded_int) == {"a": -123}
    with pytest.raises(AbsurdNumber) as info:
        json.loads('{"a": ' + "9" * 5000 + "}", parse_int=bounded_int)
    assert info.value.digits == 5000 and isinstance(info.value, ValueError)


def test_json_line_with_indent_is_still_json() -> None:
    data = {"payments": [{"description": HOSTILE, "amount": 1}]}
    text = json_line(data, indent=2)
    assert json.loads(text) == data and "\n  " in text
