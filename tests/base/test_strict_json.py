"""The one strict JSON reader: what json.loads lets through, it refuses, with a reason code and
never the body's text."""

from __future__ import annotations

import json

import pytest

from pos_terminal.base import strict_json
from pos_terminal.base.strict_json import StrictJsonError


@pytest.mark.parametrize(("body", "reason"), [
    (b'{"amount": 1000, "amount": 9000000}', strict_json.DUPLICATE_KEY),
    (b'{"a": {"b": 1, "b": 2}}', strict_json.DUPLICATE_KEY),
    (b'[{"x": 1, "x": 1}]', strict_json.DUPLICATE_KEY),
    ('{"a": 1}'.encode("utf-16"), strict_json.NOT_UTF8),
    ('{"a": 1}'.encode("utf-16-le"), strict_json.NOT_UTF8),
    ('{"a": 1}'.encode("utf-32-be"), strict_json.NOT_UTF8),
    ('{"a": 1}'.encode("utf-8-sig"), strict_json.NOT_UTF8),
    (b'{"a": "\xff"}', strict_json.NOT_UTF8),
    (b'{"a": NaN}', strict_json.NOT_A_NUMBER),
    (b'{"a": -Infinity}', strict_json.NOT_A_NUMBER),
    (b"[" * 33 + b"]" * 33, strict_json.TOO_DEEP),
    (b"[" * 100000, strict_json.TOO_DEEP),
    (b'{"a": 1', strict_json.SYNTAX),
    (b"", strict_json.SYNTAX),
])
def test_what_json_loads_takes_is_refused(body: bytes, reason: str) -> None:
    with pytest.raises(StrictJsonError) as caught:
        strict_json.loads(body)
    assert caught.value.reason == reason
    assert isinstance(caught.value, json.JSONDecodeError)  # frameworks see unreadable JSON
    assert caught.value.doc == ""  # the body is never kept in the error


def test_plain_json_reads_as_json_loads_does() -> None:
    body = '{"amount": 1000, "note": "trà đá [{", "items": [{"a": 1}], "x": 1.5e3}'
    assert strict_json.loads(body.encode()) == json.loads(body)
    assert strict_json.loads(b"[" * 32 + b"]" * 32) == json.loads("[" * 32 + "]" * 32)
    assert strict_json.loads(b'{"a": "[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[["}')["a"]
