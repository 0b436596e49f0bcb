"""Every mac of the wallet service: HMAC-SHA256, lowercase hex, over ``|``-joined strings.

Pure functions. Values go into the mac exactly as they go on the wire: integers as plain
digits (``50000``, never ``50000.0``), JSON strings exactly as serialised and sent.
"""

from __future__ import annotations

import hashlib
import hmac


def _text(value: int | str) -> str:
    # bool is an int subclass and float would print as 50000.0: both would sign the wrong text.
    if isinstance(value, bool) or not isinstance(value, int | str):
        raise TypeError(f"mac input must be int or str, not {type(value).__name__}")
    return str(value)


def _join(*parts: int | str) -> str:
    return "|".join(_text(p) for p in parts)


def hmac_hex(key: str, data: str) -> str:
    """HMAC-SHA256 of ``data`` under ``key`` (both UTF-8), as lowercase hex."""
    return hmac.new(key.encode("utf-8"), data.encode("utf-8"), hashlib.sha256).hexdigest()


def quick_pay_mac(
    key1: str,
    app_id: int | str,
    app_trans_id: str,
    app_user: str,
    amount: int,
    app_time: int,
    embed_data: str,
    item: str,
    raw_code: str,
) -> str:
    """Quick pay (both generations); signed over the RAW payment code, not the ciphertext."""
    return hmac_hex(
        key1, _join(app_id, app_trans_id, app_user, amount, app_time, embed_data, item, raw_code)
    )


def query_mac(key1: str, app_id: int | str, app_trans_id: str) -> str:
    """Order status query: ``app_id|app_trans_id|key1`` (the key is also the third segment)."""
    return hmac_hex(key1, _join(app_id, app_trans_id, key1))


def bank_list_mac(key1: str, app_id: int | str, reqtime: int | str) -> str:
    """Bank list: ``appid|reqtime``."""
    return hmac_hex(key1, _join(app_id, reqtime))


def create_order_mac(
    key1: str,
    app_id: int | str,
    app_trans_id: str,
    app_user: str,
    amount: int,
    app_time: int,
    embed_data: str,
    item: str,
) -> str:
    """Gateway order creation (both generations)."""
    return hmac_hex(key1, _join(app_id, app_trans_id, app_user, amount, app_time, embed_data, item))


def refund_mac(
    key1: str,
    app_id: int | str,
    zp_trans_id: int | str,
    amount: int,
    description: str,
    timestamp: int,
) -> str:
    """Refund (both generations): ``app_id|zp_trans_id|amount|description|timestamp``."""
    return hmac_hex(key1, _join(app_id, zp_trans_id, amount, description, timestamp))


def refund_status_mac(key1: str, app_id: int | str, m_refund_id: str, timestamp: int) -> str:
    """Refund status (both generations): ``app_id|m_refund_id|timestamp``."""
    return hmac_hex(key1, _join(app_id, m_refund_id, timestamp))


def redirect_checksum(
    key2: str,
    appid: int | str,
    apptransid: str,
    pmcid: int | str,
    bankcode: str,
    amount: int | str,
    discountamount: int | str,
    status: int | str,
) -> str:
    """Gateway redirect checksum (key2), over the values exactly as received."""
    return hmac_hex(key2, _join(appid, apptransid, pmcid, bankcode, amount, discountamount, status))


def callback_mac(key2: str, data: str) -> str:
    """Server-to-server callback (key2), over the ``data`` string exactly as received."""
    return hmac_hex(key2, data)


def verify(expected_hex: str, given: str) -> bool:
    """Constant-time comparison of a computed mac with a received one (hex, any case)."""
    try:
        given_bytes = given.strip().lower().encode("ascii")
    except UnicodeEncodeError:
        return False
    return hmac.compare_digest(expected_hex.lower().encode("ascii"), given_bytes)
