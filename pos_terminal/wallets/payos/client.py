"""payOS's payment-request calls over HTTP: create, get, cancel (shared/spec/payos.md).

Every call carries ``x-client-id`` and ``x-api-key``; a create is signed with the checksum key
and every answer's `data` must carry payOS's signature (else it says nothing). Sent through the
shared transport (wallets/http_json.py): a request that may have left is never "not sent", and
nothing is re-sent here. The order id is the request's `orderCode`: an integer, so payOS's order
ids are digits (`new_order_code`).
"""

from __future__ import annotations

import secrets
from collections.abc import Mapping
from dataclasses import dataclass, field

import requests

from pos_terminal.base.wallet_errors import UnreadableAnswer
from pos_terminal.wallets.http_json import new_session, post_json

from . import signing

WALLET_NAME = "payOS"
CREATE_PATH = "/v2/payment-requests"
WEBHOOK_PATH = "/confirm-webhook"
#: payOS asks for valid browser redirect URLs; a counter's customer never follows them.
RETURN_URL = "https://pos-terminal.invalid/payos/return"
CANCEL_URL = "https://pos-terminal.invalid/payos/cancel"
SUCCESS = "00"
INVALID_DATA = "20"
#: the largest orderCode integrators keep to (JavaScript's safe integers), unconfirmed
ORDER_CODE_MAX = 2**53 - 1


@dataclass(frozen=True)
class Account:
    """A merchant's payOS channel (from `[providers.payos]`)."""

    base_url: str
    client_id: str = field(repr=False)
    api_key: str = field(repr=False)
    checksum_key: str = field(repr=False)
    timeout_s: float = 20.0
    connect_timeout_s: float = 5.0
    expire_s: int = 900


@dataclass(frozen=True)
class PayOSAnswer:
    """payOS's envelope: its code and words, and its `data` (signature checked) if any."""

    code: str
    desc: str
    data: Mapping[str, object] | None


def new_order_code(now_ms: int) -> str:
    """An orderCode: the milliseconds and three random digits (16 digits, below 2^53)."""
    return str(now_ms * 1000 + secrets.randbelow(1000))


def description_of(order_code: str) -> str:
    """The transfer content: at most 9 ASCII letters and digits (payOS's documented cap)."""
    return f"POS{order_code[-6:]}"


class PayOSClient:
    """payOS's calls for one merchant channel (its own Session)."""

    def __init__(self, account: Account, session: requests.Session | None = None) -> None:
        self.account = account
        self._session = session if session is not None else new_session()

    def _headers(self, _raw: bytes) -> dict[str, str]:
        return {signing.CLIENT_HEADER: self.account.client_id,
                signing.API_KEY_HEADER: self.account.api_key}

    def _call(self, path: str, body: Mapping[str, object] | None, operation: str,
              method: str = "POST") -> PayOSAnswer:
        account = self.account
        answer = post_json(
            self._session, account.base_url.rstrip("/") + path, body, operation,
            wallet=WALLET_NAME, connect_s=account.connect_timeout_s, total_s=account.timeout_s,
            sign=self._headers, method=method)
        return read_answer(answer, account.checksum_key, operation)

    def create(self, order_code: str, amount: int, expired_at_s: int) -> PayOSAnswer:
        body: dict[str, object] = {
            "orderCode": int(order_code), "amount": amount,
            "description": description_of(order_code), "cancelUrl": CANCEL_URL,
            "returnUrl": RETURN_URL, "expiredAt": expired_at_s}
        body["signature"] = signing.create_signature(self.account.checksum_key, body)
        return self._call(CREATE_PATH, body, "payment request")

    def get(self, order_code: str) -> PayOSAnswer:
        return self._call(f"{CREATE_PATH}/{int(order_code)}", None, "status check", "GET")

    def cancel(self, order_code: str, reason: str = "") -> PayOSAnswer:
        body = {"cancellationReason": reason} if reason else {}
        return self._call(f"{CREATE_PATH}/{int(order_code)}/cancel", body, "cancel")

    def confirm_webhook(self, url: str) -> PayOSAnswer:
        """Register `url` as the merchant's webhook (payOS first POSTs a sample there). Its
        answer says nothing about money: the SDK checks no signature on it, nor does this."""
        account = self.account
        answer = post_json(
            self._session, account.base_url.rstrip("/") + WEBHOOK_PATH, {"webhookUrl": url},
            "webhook registration", wallet=WALLET_NAME, connect_s=account.connect_timeout_s,
            total_s=account.timeout_s, sign=self._headers)
        return read_answer(answer, account.checksum_key, "webhook registration", signed=False)

    def close(self) -> None:
        self._session.close()


def read_answer(answer: Mapping[str, object], checksum_key: str, operation: str, *,
                signed: bool = True) -> PayOSAnswer:
    """The envelope; its `data` only with payOS's signature over it (a success without a valid
    one is unreadable: it says nothing), unless the operation's answer is not `signed`."""
    code, desc, data = answer.get("code"), answer.get("desc"), answer.get("data")
    if not isinstance(code, str):
        raise UnreadableAnswer(f"unreadable answer to the {WALLET_NAME} {operation}: no code")
    said = desc if isinstance(desc, str) else ""
    if code != SUCCESS:
        return PayOSAnswer(code, said, None)
    if not isinstance(data, dict) or (signed and not signing.valid_data(
            checksum_key, data, answer.get("signature"))):
        raise UnreadableAnswer(f"unreadable answer to the {WALLET_NAME} {operation}: its "
                               "data is missing or its signature is wrong")
    return PayOSAnswer(code, said, data)
