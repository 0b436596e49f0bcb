"""ShopeePay's request signature as the service checks it, written from the spec, not the
client: ``X-Airpay-Req-H`` is base64(HMAC-SHA256(secret key, the raw body bytes)), beside
``X-Airpay-ClientId``."""

from __future__ import annotations

import base64
import hashlib
import hmac

CLIENT_HEADER = "X-Airpay-ClientId"
SIGNATURE_HEADER = "X-Airpay-Req-H"


def valid(secret_key: str, body: bytes, given: str | None) -> bool:
    expected = base64.b64encode(
        hmac.new(secret_key.encode("utf-8"), body, hashlib.sha256).digest()).decode("ascii")
    return given is not None and hmac.compare_digest(expected, given)
