"""payOS's signatures as the service makes and checks them, written from the spec, not the
client: HMAC-SHA256 with the checksum key, lowercase hex; a create over its five fields in a
fixed order, an answer's `data` over its keys sorted (null empty, lists compact sorted JSON)."""

from __future__ import annotations

import hashlib
import hmac
import json
from typing import Any

_CREATE_ORDER = ("amount", "cancelUrl", "description", "orderCode", "returnUrl")


def _text(value: Any) -> str:
    if value is None:
        return ""
    if value is True or value is False:
        return str(value).lower()
    if isinstance(value, list | dict):
        return json.dumps(value, ensure_ascii=False, sort_keys=True, separators=(",", ":"))
    return f"{value}"


def _sign(key: str, pairs: list[tuple[str, Any]]) -> str:
    message = "&".join(name + "=" + _text(value) for name, value in pairs)
    return hmac.new(key.encode(), message.encode(), hashlib.sha256).hexdigest()


def of_create(key: str, body: dict[str, Any]) -> str:
    return _sign(key, [(name, body.get(name)) for name in _CREATE_ORDER])


def of_data(key: str, data: dict[str, Any]) -> str:
    return _sign(key, sorted(data.items()))
