"""Checks the service applies to every request: app id, mac, limits, formats, payment code.

Each failed check raises :class:`Refused` carrying the return code and a message that names the
wire field of the generation in use.
"""

from __future__ import annotations

import base64
import binascii
import functools
import hashlib
import hmac
import ipaddress
import json
import re
from collections.abc import Mapping
from dataclasses import dataclass

from cryptography.hazmat.primitives.asymmetric import rsa

from pos_terminal.base import clock
from pos_terminal.emulator.pkcs1 import decrypt_v15
from pos_terminal.emulator.zalopay import wire

VN_OFFSET_S = 7 * 3600  # Vietnam keeps GMT+7 all year (pos_terminal.base.clock)
_DIGITS = re.compile(r"[0-9]+")
_TRANS_ID = re.compile(r"([0-9]{6})_([A-Za-z0-9_.\-]+)")
_UNIQUE = re.compile(r"[A-Za-z0-9_.\-]+")
_B64_STANDARD = re.compile(r"[A-Za-z0-9+/]+={0,2}")
_B64_URLSAFE = re.compile(r"[A-Za-z0-9\-_]+={0,2}")
_PRINTABLE = re.compile(r"[\x21-\x7e]+")


class Refused(Exception):
    """The request is refused with ``code``; ``message`` names the field."""

    def __init__(self, code: int, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


def bad_data(field: str, why: str) -> Refused:
    return Refused(wire.BAD_DATA, f"invalid request data: {field} {why}")


def bad_signature(field: str) -> Refused:
    return Refused(wire.BAD_SIGNATURE, f"invalid app or signature: {field}")


def hmac_sha256_hex(key: str, data: str) -> str:
    return hmac.new(key.encode("utf-8"), data.encode("utf-8"), hashlib.sha256).hexdigest()


@functools.lru_cache(maxsize=8)
def _vn_day(day_number: int) -> str:
    return clock.yymmdd(day_number * 86_400_000)  # 07:00 of that Vietnam day


def vn_today(now: float) -> str:
    """yymmdd of the service clock in Vietnam time (GMT+7, no daylight saving)."""
    return _vn_day(int((now + VN_OFFSET_S) // 86400))


@dataclass(frozen=True)
class Form:
    """The fields of one request, and the generation whose names they use."""

    fields: Mapping[str, str]
    generation: wire.Generation

    @property
    def names(self) -> wire.Names:
        return wire.NAMES[self.generation]

    def required(self, name: str) -> str:
        value = self.fields.get(name)
        if value is None:
            raise bad_data(name, "is missing")
        return value

    def optional(self, name: str, default: str = "") -> str:
        return self.fields.get(name, default)


def check_app_id(form: Form, field: str, app_id: int) -> None:
    value = form.required(field)
    if value != str(app_id):
        raise bad_signature(field)


def check_mac(form: Form, key1: str, parts: list[str]) -> None:
    given = form.required("mac")
    expected = hmac_sha256_hex(key1, "|".join(parts))
    # compare_digest on equal-length ASCII; a malformed mac fails the same way as a wrong one.
    if not hmac.compare_digest(expected.encode("ascii"), given.encode("utf-8", "replace")):
        raise bad_signature("mac")


def check_length(field: str, value: str, limit: int, *, allow_empty: bool = True) -> None:
    if len(value) > limit:
        raise bad_data(field, f"is longer than {limit} characters ({len(value)})")
    if not allow_empty and not value:
        raise bad_data(field, "is empty")


def parse_amount(field: str, value: str) -> int:
    if not _DIGITS.fullmatch(value) or value != str(int(value)):
        raise bad_data(field, f"must be a whole number of VND without sign or decimals: {value!r}")
    amount = int(value)
    if amount <= 0:
        raise bad_data(field, "must be positive")
    if amount > 9_223_372_036_854_775_807:
        raise bad_data(field, "is too large")
    return amount


def parse_millis(field: str, value: str, now: float, tolerance_s: float) -> int:
    if not _DIGITS.fullmatch(value) or len(value) > 15:
        raise bad_data(field, f"must be Unix time in milliseconds: {value!r}")
    millis = int(value)
    if abs(millis / 1000.0 - now) > tolerance_s:
        raise bad_data(
            field, f"is more than {tolerance_s / 60:g} minutes away from the service clock")
    return millis


def check_trans_id(field: str, value: str, now: float, limit: int) -> None:
    check_length(field, value, limit)
    match = _TRANS_ID.fullmatch(value)
    if match is None:
        raise Refused(wire.BAD_TRANS_ID,
                      f"invalid {field}: must be yymmdd_<unique> (letters, digits, _ . -)")
    today = vn_today(now)
    if match.group(1) != today:
        raise Refused(wire.BAD_TRANS_ID,
                      f"invalid {field}: date {match.group(1)} is not today in GMT+7 ({today})")


def check_user_ip(form: Form) -> str:
    """Quick pay's optional ``userip`` (the spec's table spells it ``userIP``): not in the mac;
    when sent, it must be an IP address."""
    name = next((n for n in wire.USER_IP_NAMES if n in form.fields), wire.USER_IP_NAMES[0])
    value = form.optional(name).strip()
    if not value:
        return ""
    try:
        return str(ipaddress.ip_address(value))
    except ValueError:
        raise bad_data(name, f"must be the user's IP address: {value[:50]!r}") from None


def check_refund_id(field: str, value: str, now: float, app_id: int) -> None:
    check_length(field, value, wire.M_REFUND_ID_MAX)
    prefix = f"{vn_today(now)}_{app_id}_"
    rest = value[len(prefix):]
    if not value.startswith(prefix) or not _UNIQUE.fullmatch(rest):
        raise bad_data(
            field, f"must be yymmdd_appid_<unique> with today's GMT+7 date ({prefix}...)")


def check_embed_data(field: str, value: str, limit: int,
                     empty_array_ok: bool = False) -> dict[str, object]:
    """A JSON object. ``empty_array_ok``: "[]" stands for no data (legacy samples send it)."""
    check_length(field, value, limit)
    try:
        parsed = json.loads(value)
    except ValueError:
        raise bad_data(field, "is not valid JSON (send \"{}\" when empty)") from None
    if empty_array_ok and parsed == []:
        return {}
    if not isinstance(parsed, dict):
        raise bad_data(field, "must be a JSON object")
    return parsed


def check_items(field: str, value: str, limit: int) -> list[object]:
    """A JSON array of objects; "" stands for no items (samples send it)."""
    check_length(field, value, limit)
    if value == "":
        return []
    try:
        parsed = json.loads(value)
    except ValueError:
        raise bad_data(field, "is not valid JSON (send \"[]\" when empty)") from None
    if not isinstance(parsed, list) or not all(isinstance(entry, dict) for entry in parsed):
        raise bad_data(field, "must be a JSON array of objects")
    return parsed


def decrypt_payment_code(field: str, value: str, key: rsa.RSAPrivateKey) -> str:
    """Base64 (either alphabet) of a PKCS#1 v1.5 ciphertext -> the raw payment code."""
    if _B64_STANDARD.fullmatch(value):
        altchars = b"+/"
    elif _B64_URLSAFE.fullmatch(value):
        altchars = b"-_"
    else:
        raise bad_data(field, "is not base64 (standard or URL-safe alphabet)")
    try:
        blob = base64.b64decode(value + "=" * (-len(value) % 4), altchars=altchars, validate=True)
    except binascii.Error:
        raise bad_data(field, "is not base64 (standard or URL-safe alphabet)") from None
    size = (key.key_size + 7) // 8
    if len(blob) != size:
        raise bad_data(field, f"cannot be decrypted: ciphertext is {len(blob)} bytes, "
                              f"the key needs {size}")
    try:
        plain = decrypt_v15(key, blob)
    except ValueError:
        raise bad_data(field, "cannot be decrypted with the application's key") from None
    try:
        code = plain.decode("ascii")
    except UnicodeDecodeError:
        raise bad_data(field, "decrypts to something that is not a payment code") from None
    if not _PRINTABLE.fullmatch(code):
        raise bad_data(field, "decrypts to something that is not a payment code")
    return code


