"""Text from the service or from a person, made safe for a terminal, a screen and a CSV file.

- ``clean(text)``: terminal escape sequences (CSI, OSC, two-character ESC) and every control or
  format character removed; tabs and line breaks become spaces (``newlines=True`` keeps "\\n"
  for text that is meant to be several lines). What is left is printable and cannot move the
  cursor, clear the screen, change colours or set the window title.
- ``csv_cell(value)``: ``clean`` for text, and a cell that a spreadsheet would run as a formula
  (starting with = + - @ tab CR, or spaces and then one of them) is prefixed with an
  apostrophe, as OWASP recommends.

Rich markup (``[bold]``, ``[/]``) is not touched here: it is only meaningful to Rich, so the UI
renders such text as ``rich.text.Text`` (or with ``markup=False``) instead of escaping it.
Imports nothing of pos_terminal: every layer may use it.
"""

from __future__ import annotations

import re
import unicodedata

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
    # A tab or CR before the formula (OWASP), or spaces, which some spreadsheets skip.
    if value.startswith(_FORMULA_START) or text.lstrip().startswith(_FORMULA_START):
        return "'" + text
    return text
