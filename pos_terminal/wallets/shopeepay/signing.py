"""ShopeePay's request signature: ``X-Airpay-Req-H`` = base64(HMAC-SHA256(secret key, the raw
body bytes)), over exactly the bytes sent (shared/spec/shopeepay.md, "Every call")."""

from __future__ import annotations

import base64
import hashlib
import hmac

CLIENT_HEADER = "X-Airpay-ClientId"
SIGNATURE_HEADER = "X-Airpay-Req-H"


def signature(secret_key: str, body: bytes) -> str:
    digest = hmac.new(secret_key.encode("utf-8"), body, hashlib.sha256).digest()
    return base64.b64encode(digest).decode("ascii")


def headers(client_id: str, secret_key: str, body: bytes) -> dict[str, str]:
    """The headers that sign `body` (what the shared transport's `sign` hands back)."""
    return {CLIENT_HEADER: client_id, SIGNATURE_HEADER: signature(secret_key, body)}


def valid(secret_key: str, body: bytes, given: str | None) -> bool:
    return given is not None and hmac.compare_digest(signature(secret_key, body), given)
