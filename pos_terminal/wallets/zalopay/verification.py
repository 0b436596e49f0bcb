"""Checking what the service sends to the merchant: gateway redirects and callbacks (key2)."""

from __future__ import annotations

from collections.abc import Mapping
from urllib.parse import parse_qs, urlsplit

from . import signing
from .answers import loads_strict
from .fields import CALLBACK_DATA, CALLBACK_MAC, CALLBACK_TYPE, REDIRECT_CHECKSUM, REDIRECT_FIELDS
from .results import CallbackResult, RedirectResult

_INT_FIELDS = ("appid", "pmcid", "amount", "discountamount", "status")

CALLBACK_ACCEPTED: Mapping[str, object] = {"return_code": 1, "return_message": "success"}
CALLBACK_BAD_MAC: Mapping[str, object] = {"return_code": -1, "return_message": "mac not equal"}


def _query_pairs(query: str | Mapping[str, str]) -> dict[str, str] | str:
    """The redirect's parameters, or the reason they cannot be read."""
    if isinstance(query, Mapping):
        return {str(k): str(v) for k, v in query.items()}
    text = query.strip()
    if "?" in text or "://" in text:
        text = urlsplit(text).query
    text = text.lstrip("?")
    if not text:
        return "the redirect carries no query string"
    parsed = parse_qs(text, keep_blank_values=True)
    twice = sorted(k for k, values in parsed.items() if len(values) > 1)
    if twice:
        return f"{twice[0]} appears more than once"
    return {k: values[0] for k, values in parsed.items()}


def verify_redirect(
    query: str | Mapping[str, str], key2: str, app_id: int | None = None
) -> RedirectResult:
    """Verify a gateway redirect (a full URL, its query string, or parsed parameters).

    Invalid means: answer 400 Bad Request and trust nothing in it."""
    pairs = _query_pairs(query)
    if isinstance(pairs, str):
        return RedirectResult(valid=False, reason=pairs)
    for name in (*REDIRECT_FIELDS, REDIRECT_CHECKSUM):
        if name not in pairs:
            return RedirectResult(valid=False, reason=f"missing field: {name}")
    expected = signing.redirect_checksum(key2, *(pairs[name] for name in REDIRECT_FIELDS))
    if not signing.verify(expected, pairs[REDIRECT_CHECKSUM]):
        return RedirectResult(valid=False, reason="bad checksum: not signed with this key2")
    numbers: dict[str, int] = {}
    for name in _INT_FIELDS:
        try:
            if len(pairs[name]) > 40:  # no field is that long (int() refuses 4300+ digits)
                raise ValueError(name)
            numbers[name] = int(pairs[name])
        except ValueError:
            return RedirectResult(valid=False, reason=f"{name} is not a whole number")
    if app_id is not None and numbers["appid"] != app_id:
        return RedirectResult(
            valid=False,
            reason=f"appid {numbers['appid']} is not this terminal's application ({app_id})",
        )
    return RedirectResult(
        valid=True,
        reason="",
        appid=numbers["appid"],
        apptransid=pairs["apptransid"],
        pmcid=numbers["pmcid"],
        bankcode=pairs["bankcode"],
        amount=numbers["amount"],
        discountamount=numbers["discountamount"],
        status=numbers["status"],
    )


def _invalid_callback(reason: str) -> CallbackResult:
    return CallbackResult(valid=False, reason=reason, data=None, type=None, reply=CALLBACK_BAD_MAC)


def verify_callback(
    body: bytes | str | Mapping[str, object], key2: str, app_id: int | None = None
) -> CallbackResult:
    """Verify a server-to-server callback ``{"data": "<json>", "mac": "...", "type": 1}``;
    mac = HMAC-SHA256(key2, data exactly as received). ``reply`` is what to answer.

    With ``app_id``, data naming another application (``app_id`` / ``appid``) is invalid too."""
    envelope: object
    if isinstance(body, Mapping):
        envelope = body
    else:
        try:
            envelope = loads_strict(body)
        except (ValueError, UnicodeDecodeError, RecursionError):
            return _invalid_callback("the callback body is not JSON")
    if not isinstance(envelope, Mapping):
        return _invalid_callback("the callback body is not a JSON object")
    data_text = envelope.get(CALLBACK_DATA)
    given_mac = envelope.get(CALLBACK_MAC)
    if not isinstance(data_text, str):
        return _invalid_callback("missing field: data")
    if not isinstance(given_mac, str):
        return _invalid_callback("missing field: mac")
    if not signing.verify(signing.callback_mac(key2, data_text), given_mac):
        return _invalid_callback("bad mac: not signed with this key2")
    try:
        data = loads_strict(data_text)
    except (ValueError, RecursionError):
        return _invalid_callback("data is not JSON (or is ambiguous: a key twice, NaN)")
    if not isinstance(data, Mapping):
        return _invalid_callback("data is not a JSON object")
    named = data.get("app_id", data.get("appid"))
    if app_id is not None and named is not None and str(named) != str(app_id):
        return _invalid_callback(
            f"app_id {named} is not this terminal's application ({app_id})")
    kind = envelope.get(CALLBACK_TYPE)
    kind_int = kind if isinstance(kind, int) and not isinstance(kind, bool) else None
    return CallbackResult(
        valid=True, reason="", data=dict(data), type=kind_int, reply=CALLBACK_ACCEPTED
    )
