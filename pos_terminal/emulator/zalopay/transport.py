"""Reading a request's fields the way the real service does, whatever the client's transport.

Public clients send the same fields three ways: in the URL query string of a POST (the Node
demos, the v2 documentation samples), as an ``application/x-www-form-urlencoded`` body (the PHP,
Python, Go and C# demos, the seed spec) or as an ``application/json`` object (the current Node
SDK, the service's OpenAPI description). Every endpoint reads all three; the body wins over the
query string when a field is in both.

A JSON value becomes the text the client signed: strings as they are; a number as JavaScript's
``String(n)`` prints it (the JSON-sending clients are JavaScript), so ``50000``, ``50000.0`` and
``5e4`` all stand for ``"50000"``; a number with a fraction keeps its literal text (``"500.5"``),
which the amount and time checks then refuse. ``true``/``false``/``null``, arrays and objects are
refused: no client signs them, and no single text could be said to be what it signed.
"""

from __future__ import annotations

import json
from decimal import Decimal, InvalidOperation

from aiohttp import web

from pos_terminal.emulator.zalopay.verify import bad_data

FORM = "application/x-www-form-urlencoded"
JSON_TYPE = "application/json"
# Above this JavaScript prints integral numbers with an exponent (1e+21); we keep the literal.
_JS_PLAIN_LIMIT = Decimal(10) ** 21


class _Number(str):
    """A JSON number's literal text, kept apart from a JSON string until it is mapped."""


def number_text(literal: str) -> str:
    """The text a JavaScript client signs for the JSON number ``literal`` (see module doc)."""
    try:
        value = Decimal(literal)
    except InvalidOperation:  # pragma: no cover - json only hands us valid numbers
        return literal
    if value == value.to_integral_value() and abs(value) < _JS_PLAIN_LIMIT:
        return str(int(value))
    return literal


def json_fields(raw: bytes) -> dict[str, str]:
    """The fields of a JSON object body as signed text; Refused (-401) on anything else."""
    try:
        text = raw.decode("utf-8")
        data = json.loads(text, parse_int=_Number, parse_float=_Number,
                          parse_constant=lambda name: _Number(name))
    except (UnicodeDecodeError, ValueError):
        raise bad_data("body", "is not valid UTF-8 JSON") from None
    if not isinstance(data, dict):
        raise bad_data("body", "must be a JSON object of fields")
    fields: dict[str, str] = {}
    for name, value in data.items():
        if isinstance(value, _Number):
            fields[name] = number_text(str(value))
        elif isinstance(value, str):
            fields[name] = value
        else:
            kind = "null" if value is None else type(value).__name__.replace(
                "bool", "true/false").replace("dict", "an object").replace("list", "an array")
            raise bad_data(name, f"must be a JSON string or number, not {kind} (send "
                                 "embed_data and item as JSON text in a string)")
    return fields


async def read_fields(request: web.Request) -> dict[str, str]:
    """Query string, then the body (form or JSON object) over it. Raises Refused (-401)."""
    fields: dict[str, str] = {}
    for name in request.query:
        fields.setdefault(name, request.query[name])
    if request.method != "POST" or not request.can_read_body:
        return fields
    kind = request.content_type
    if kind in (FORM, "multipart/form-data"):
        body = await request.post()
        for name in body:
            value = body[name]
            if isinstance(value, str):
                fields[name] = value
        return fields
    raw = await request.read()
    if kind == JSON_TYPE or (kind.startswith("application/") and kind.endswith("+json")):
        fields.update(json_fields(raw))
        return fields
    if raw.strip():
        raise bad_data("body", f"has Content-Type {kind or 'none'}; send the fields as "
                               f"{FORM}, {JSON_TYPE} or in the query string")
    return fields
