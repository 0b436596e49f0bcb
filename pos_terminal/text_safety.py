"""Text from the service or from a person, made safe for a terminal, a screen and a CSV file.

- ``clean(text)``: terminal escape sequences (CSI, OSC, two-character ESC) and every control or
  format character removed; tabs and line breaks become spaces (``newlines=True`` keeps "\\n"
  for text that is meant to be several lines). What is left is printable and cannot move the
  cursor, clear the screen, change colours or set the window title.
- ``csv_cell(value)``: ``clean`` for text, and a cell that a spreadsheet would run as a formula
  (starting with = + - @, a tab or a carriage return, also after leading spaces) is prefixed
  with an apostrophe, as OWASP recommends.
- ``control_character(text)``: the first control or format character of a text a person typed
  (a cashier's name, a shop's address), as U+XXXX, so it can be refused with a sentence.
- ``bounded_int(literal)`` (``json.loads(..., parse_int=bounded_int)``): an integer of outside
  data read only when it has at most 40 digits; a longer one raises ``AbsurdNumber`` (a
  ValueError) at once, instead of Python's int() refusing 4300+ digits somewhere later.
- ``json_line(obj)``: JSON whose strings carry no raw control, format or separator character
  (escaped as \\uXXXX: the same JSON for a program, nothing a terminal would act on).

Rich markup (``[bold]``, ``[/]``) is not touched here: it is only meaningful to Rich, so the UI
renders such text as ``rich.text.Text`` (or with ``markup=False``) instead of escaping it.
Imports nothing of pos_terminal: every layer may use it.
"""

from __future__ import annotations

import json
import re
import unicodedata
from typing import Any

_ESCAPE_SEQUENCE = re.compile(
    r"\x1b\[[0-?]*[ -/]*[@-~]"                 # CSI: colours, cursor moves, clear screen
    r"|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)?"    # OSC: window title, hyperlinks
    r"|\x1b[PX^_][^\x1b]*(?:\x1b\\)?"         # DCS, SOS, PM, APC strings
    r"|\x1b[ -/]*[0-~]?"                       # any other ESC sequence (or a lone ESC)
    r"|\x9b[0-?]*[ -/]*[@-~]"                  # 8-bit CSI
)
#: Control (Cc), format (Cf: bidi overrides, zero-width), surrogate, private-use and line/
#: paragraph separator characters: never shown.
_HIDDEN = frozenset({"Cc", "Cf", "Cs", "Co", "Zl", "Zp"})
_FORMULA_START = ("=", "+", "-", "@", "\t", "\r")
#: Characters json.dumps leaves raw that json_line escapes: DEL, C1 controls, format characters and
#: separators (C0 controls in strings are escaped by json.dumps itself; the newlines of `indent`
#: are structure, not text).
_JSON_HIDDEN = re.compile("[\x7f-\x9f\u00ad\u061c\u180e\u200b-\u200f\u2028-\u202e"
                          "\u2060-\u206f\ufeff\ufff9-\ufffb]")


def clean(text: str, *, newlines: bool = False) -> str:
    """``text`` without escape sequences or control characters (see the module doc)."""
    text = _ESCAPE_SEQUENCE.sub("", text)
    if text.isascii() and text.isprintable():
        return text
    out: list[str] = []
    for ch in text:
        if ch == "\n" and newlines:
            out.append(ch)
        elif ch in "\t\n\r\v\f\x85\u2028\u2029":
            out.append(" ")
        elif unicodedata.category(ch) not in _HIDDEN:
            out.append(ch)
    return "".join(out)


def csv_cell(value: object) -> object:
    """A value for a CSV export: text cleaned and never a formula; numbers unchanged."""
    if not isinstance(value, str):
        return value
    text = clean(value)
    # A tab or CR at the start (turned into a space by clean) and leading spaces are what some
    # spreadsheets skip before they look for "=": judge the cell by its first visible character.
    if value.startswith(_FORMULA_START) or text.lstrip(" ").startswith(_FORMULA_START):
        return "'" + text
    return text


def control_character(text: str) -> str | None:
    """The first control or format character of `text` (see ``clean``), as U+XXXX, or None."""
    if text.isascii() and text.isprintable():
        return None
    for ch in text:
        if unicodedata.category(ch) in _HIDDEN:
            return f"U+{ord(ch):04X}"
    return None


#: No number this project reads (amounts, codes, ids) has more digits; 2**63 has 19.
MAX_INT_DIGITS = 40


class AbsurdNumber(ValueError):
    def __init__(self, digits: int) -> None:
        super().__init__(f"a number of {digits:,} digits")
        self.digits = digits


def bounded_int(literal: str) -> int:
    digits = len(literal.lstrip("+-"))
    if digits > MAX_INT_DIGITS:
        raise AbsurdNumber(digits)
    return int(literal)


def json_line(obj: object, **dumps: Any) -> str:
    """``json.dumps(obj, ensure_ascii=False)`` with every invisible character escaped."""
    text = json.dumps(obj, ensure_ascii=False, **dumps)
    return _JSON_HIDDEN.sub(lambda m: f"\\u{ord(m.group()):04x}", text)
