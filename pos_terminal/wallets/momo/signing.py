"""MoMo's signatures: HMAC-SHA256 with the secret key, lowercase hex, over MoMo's raw strings.

Each call signs ``key=value`` pairs joined by ``&`` in the order MoMo lists them (alphabetical),
the values as sent, nothing escaped; the ``accessKey`` is always signed. A payment signs the
payment code as sent: RSA-encrypted and base64, never the raw code.
"""

from __future__ import annotations

import hashlib
import hmac
from collections.abc import Mapping

PAY_FIELDS = ("accessKey", "amount", "extraData", "orderId", "orderInfo", "partnerCode",
              "paymentCode", "requestId")
QUERY_FIELDS = ("accessKey", "orderId", "partnerCode", "requestId")
CONFIRM_FIELDS = ("accessKey", "amount", "description", "orderId", "partnerCode", "requestId",
                  "requestType")
REFUND_FIELDS = ("accessKey", "amount", "description", "orderId", "partnerCode", "requestId",
                 "transId")


def raw_string(fields: tuple[str, ...], values: Mapping[str, object]) -> str:
    """MoMo's string to sign: ``accessKey=..&amount=..``, in `fields`' order."""
    return "&".join(f"{name}={_text(values[name])}" for name in fields)


def _text(value: object) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def sign(secret_key: str, raw: str) -> str:
    return hmac.new(secret_key.encode("utf-8"), raw.encode("utf-8"), hashlib.sha256).hexdigest()


def signed(fields: tuple[str, ...], body: Mapping[str, object], access_key: str,
           secret_key: str) -> str:
    """The signature of `body` (which does not hold the access key) for a call of `fields`."""
    return sign(secret_key, raw_string(fields, {**body, "accessKey": access_key}))

