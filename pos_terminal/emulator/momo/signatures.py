"""MoMo's signatures as the service checks them: HMAC-SHA256 (secret key, hex) over the raw
string of the call's fields, alphabetical, the accessKey among them, values exactly as sent
(the payment code as the encrypted base64 text). Written from the spec, not the client."""

from __future__ import annotations

import hashlib
import hmac
from collections.abc import Mapping

SIGNED: dict[str, tuple[str, ...]] = {
    "pay": ("amount", "extraData", "orderId", "orderInfo", "partnerCode", "paymentCode",
            "requestId"),
    "query": ("orderId", "partnerCode", "requestId"),
    "confirm": ("amount", "description", "orderId", "partnerCode", "requestId", "requestType"),
    "refund": ("amount", "description", "orderId", "partnerCode", "requestId", "transId"),
}


def _wire(value: object) -> str:
    if value is True:
        return "true"
    if value is False:
        return "false"
    return "" if value is None else str(value)


def expected(call: str, body: Mapping[str, object], access_key: str, secret_key: str) -> str:
    pairs = {name: _wire(body.get(name)) for name in SIGNED[call]}
    pairs["accessKey"] = access_key
    text = "&".join(f"{name}={pairs[name]}" for name in sorted(pairs))
    return hmac.new(secret_key.encode(), text.encode(), hashlib.sha256).hexdigest()


def valid(call: str, body: Mapping[str, object], access_key: str, secret_key: str) -> bool:
    given = body.get("signature")
    return isinstance(given, str) and hmac.compare_digest(
        given, expected(call, body, access_key, secret_key))
