"""A wallet service's answer as JSON, read strictly (any provider): one object, no repeated key,
no NaN, no absurd number; anything else is UnreadableAnswer ("outcome unknown")."""

from __future__ import annotations

import json

from pos_terminal.text_safety import AbsurdNumber, bounded_int
from pos_terminal.wallets.errors import UnreadableAnswer


class _Ambiguous(ValueError):
    """JSON that Python would read one way and another parser another way."""


def _unique_keys(pairs: list[tuple[str, object]]) -> dict[str, object]:
    data: dict[str, object] = {}
    for key, value in pairs:
        if key in data:  # which one counts differs between parsers: trust neither
            raise _Ambiguous(f"the key {key!r} appears twice")
        data[key] = value
    return data


def _no_constant(name: str) -> object:
    raise _Ambiguous(f"{name} is not a JSON number")


def loads_strict(text: str | bytes) -> object:
    """json.loads refusing a repeated key, NaN/Infinity and absurdly long integers (ValueError,
    as json.loads)."""
    return json.loads(text, object_pairs_hook=_unique_keys, parse_constant=_no_constant,
                      parse_int=bounded_int)


def parse_json_body(body: bytes, http_status: int | None = None) -> dict[str, object]:
    """The answer's JSON object, or UnreadableAnswer saying what came instead."""
    text = body.decode("utf-8", errors="replace").strip()
    if not text:
        raise UnreadableAnswer("the service answered with an empty body", http_status)
    if text.startswith("<"):
        raise UnreadableAnswer("the service answered with an HTML page instead of JSON",
                               http_status)
    try:
        data = loads_strict(text)
    except json.JSONDecodeError:
        raise UnreadableAnswer(
            "the service's answer is not valid JSON (garbled or cut short)", http_status
        ) from None
    except _Ambiguous as exc:
        raise UnreadableAnswer(f"the service's answer is ambiguous JSON: {exc}",
                               http_status) from None
    except AbsurdNumber as exc:
        raise UnreadableAnswer(f"the service's answer holds an absurd number ({exc})",
                               http_status) from None
    except RecursionError:
        raise UnreadableAnswer("the service's answer is JSON nested too deeply",
                               http_status) from None
    if not isinstance(data, dict):
        raise UnreadableAnswer("the service's answer is JSON but not an object", http_status)
    return data


__all__ = ["loads_strict", "parse_json_body"]
