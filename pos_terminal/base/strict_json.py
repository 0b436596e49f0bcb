"""The one strict JSON reader of every door that takes a JSON body (the Terminal API, the
emulator's control routes).

Python's `json.loads` is lenient where a payment door must not be: it reads UTF-16 and UTF-32
(and a UTF-8 BOM) from bytes, keeps the LAST of two equal keys (`{"amount": 1000, "amount":
9000000}` would charge 9,000,000), takes `NaN` and `Infinity`, and nests until the interpreter's
recursion limit. A body is ambiguous or foreign in any of these cases: it is refused whole, with
a reason (a code, never the body's text: a payment code may ride in it)."""

from __future__ import annotations

import json
from typing import Any

#: deeper than any body a door takes (a payment with items is 3 levels)
MAX_DEPTH = 32

#: the reasons a body is refused, as codes (the doors put them in sentences)
NOT_UTF8 = "not_utf8"
DUPLICATE_KEY = "duplicate_key"
NOT_A_NUMBER = "not_a_number"
TOO_DEEP = "too_deep"
SYNTAX = "syntax"


class StrictJsonError(json.JSONDecodeError):
    """A body refused by `loads`; `reason` is one of the codes above. A JSONDecodeError, so a
    framework that catches those (FastAPI, aiohttp's callers) treats it as unreadable JSON."""

    def __init__(self, reason: str, pos: int = 0) -> None:
        # the document is never kept: the error must not carry what the body said
        super().__init__(reason, "", 0)
        self.reason = reason
        self.pos = pos


def _no_duplicates(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    result: dict[str, Any] = {}
    for key, value in pairs:
        if key in result:
            raise StrictJsonError(DUPLICATE_KEY)
        result[key] = value
    return result


def _no_constant(_name: str) -> Any:
    raise StrictJsonError(NOT_A_NUMBER)


def _depth_within(text: str, limit: int) -> bool:
    """Whether no array or object nests deeper than `limit` (brackets inside strings do not
    count). Checked before parsing, so a deep body never reaches the recursive parser."""
    if text.count("[") + text.count("{") <= limit:
        return True
    depth = 0
    in_string = escaped = False
    for char in text:
        if in_string:
            if escaped:
                escaped = False
            elif char == "\\":
                escaped = True
            elif char == '"':
                in_string = False
        elif char == '"':
            in_string = True
        elif char in "[{":
            depth += 1
            if depth > limit:
                return False
        elif char in "]}":
            depth -= 1
    return True


def decode_utf8(body: bytes) -> str:
    """The body as text: UTF-8 only (no BOM, so no UTF-16/UTF-32 either)."""
    # a BOM, or a NUL (never raw in JSON text: the mark of UTF-16 and UTF-32)
    if body.startswith(b"\xef\xbb\xbf") or b"\x00" in body:
        raise StrictJsonError(NOT_UTF8)
    try:
        return body.decode("utf-8", errors="strict")
    except UnicodeDecodeError:
        raise StrictJsonError(NOT_UTF8) from None


def loads(body: bytes | str, *, max_depth: int = MAX_DEPTH) -> Any:
    """The JSON value of `body`, or StrictJsonError: not UTF-8 (or a BOM), a duplicate key at
    any level, NaN/Infinity, nesting deeper than `max_depth`, or not JSON at all."""
    text = decode_utf8(body) if isinstance(body, bytes) else body
    if text.startswith("\ufeff"):
        raise StrictJsonError(NOT_UTF8)
    if not _depth_within(text, max_depth):
        raise StrictJsonError(TOO_DEEP)
    try:
        return json.loads(text, object_pairs_hook=_no_duplicates, parse_constant=_no_constant)
    except StrictJsonError:
        raise
    except RecursionError:
        raise StrictJsonError(TOO_DEEP) from None
    except json.JSONDecodeError as exc:
        raise StrictJsonError(SYNTAX, exc.pos) from None
