"""payOS's signatures: HMAC-SHA256 with the checksum key, lowercase hex (shared/spec/payos.md,
"Signatures"). A create signs five fields in a fixed order; an answer's `data` (and a webhook's)
is signed over its keys sorted, ``key=value`` joined by ``&``."""

from __future__ import annotations

import hashlib
import hmac
import json
from collections.abc import Mapping

CLIENT_HEADER = "x-client-id"
API_KEY_HEADER = "x-api-key"
CREATE_FIELDS = ("amount", "cancelUrl", "description", "orderCode", "returnUrl")


def _hmac(key: str, text: str) -> str:
    return hmac.new(key.encode("utf-8"), text.encode("utf-8"), hashlib.sha256).hexdigest()


def _value(value: object) -> str:
    if value is None:
        return ""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, list | dict):
        return json.dumps(value, separators=(",", ":"), ensure_ascii=False, sort_keys=True)
    return str(value)


def create_signature(key: str, body: Mapping[str, object]) -> str:
    """The signature of a create: exactly its five fields, the values as sent."""
    return _hmac(key, "&".join(f"{name}={_value(body[name])}" for name in CREATE_FIELDS))


def data_signature(key: str, data: Mapping[str, object]) -> str:
    """The signature of an answer's (or a webhook's) `data`: its keys sorted."""
    return _hmac(key, "&".join(f"{name}={_value(data[name])}" for name in sorted(data)))


def valid_data(key: str, data: Mapping[str, object], given: object) -> bool:
    """Whether `given` is `data`'s signature (compared as bytes, in constant time: a signature
    that is not ASCII hex is simply not it)."""
    return isinstance(given, str) and hmac.compare_digest(
        data_signature(key, data).encode("ascii"), given.encode("utf-8", "replace"))
