"""ShopeePay's CPM calls over HTTP: create a payment, check a payment or a refund, refund.

Every request is JSON signed over its exact bytes (signing.py) through the shared transport
(wallets/http_json.py). A create is sent once: every doubt is settled by checks on its
reference, never by a second create; a refund repeats the same body (ShopeePay acts on it once).
Amounts travel ×100 ("inflated by a factor of 100"): 50,000 VND is 5000000.
"""

from __future__ import annotations

import hashlib
import json
import secrets
from collections.abc import Mapping
from dataclasses import dataclass, field

import requests

from pos_terminal.base.wallet_errors import UnreadableAnswer
from pos_terminal.wallets import request_fields
from pos_terminal.wallets.answer_fields import AnswerFields
from pos_terminal.wallets.errors import FieldError
from pos_terminal.wallets.http_json import new_session, post_json

from . import codes, signing

WALLET_NAME = "ShopeePay"
PAY_PATH = "/v3/merchant-host/transaction/payment/create"
CHECK_PATH = "/v3/merchant-host/transaction/check"
REFUND_PATH = "/v3/merchant-host/transaction/refund/create-new"
ID_MAX = 64
#: No VND minimum or maximum is published: a whole, positive amount that fits int64 ×100.
LIMITS = (1, (2**63 - 1) // 100)
_FIELDS = AnswerFields(WALLET_NAME)


@dataclass(frozen=True)
class Account:
    """A merchant's store at ShopeePay (from `[providers.shopeepay]`)."""

    base_url: str
    client_id: str
    secret_key: str = field(repr=False)
    merchant_ext_id: str
    store_ext_id: str
    timeout_s: float = 20.0
    connect_timeout_s: float = 5.0


@dataclass(frozen=True)
class ShopeePayAnswer:
    """An answer: its errcode and words, and its transaction (if it names one)."""

    errcode: int
    message: str
    reference_id: str
    status: int | None
    amount: int | None  # VND
    transaction_sn: str | None


@dataclass(frozen=True)
class PreparedPay:
    reference_id: str
    amount: int
    body: Mapping[str, object] = field(repr=False)
    payload_hash: str = ""


def to_wire(amount: int) -> int:
    return amount * 100


def read_answer(data: Mapping[str, object], reference_id: str,
                also: str = "") -> ShopeePayAnswer:
    """The answer to a request about `reference_id` (tied to it when it names none, or when it
    names `also`: a refund's answer may name its payment)."""
    errcode = _FIELDS.required_integer(data, "errcode")
    transaction = _FIELDS.object(data, "transaction")
    listed = data.get("transaction_list")
    if transaction is None and isinstance(listed, list) and listed:
        transaction = _FIELDS.object({"transaction": listed[0]}, "transaction")
    named, status, amount, serial = "", None, None, None
    if transaction is not None:
        named = _FIELDS.text(transaction, "reference_id")
        status = _FIELDS.integer(transaction, "status")
        wire_amount = _FIELDS.integer(transaction, "amount")
        if wire_amount is not None:
            if wire_amount % 100:
                raise UnreadableAnswer(f"{WALLET_NAME}'s answer has an amount that is not "
                                       "whole dong (×100)")
            amount = wire_amount // 100
        serial = _FIELDS.text(transaction, "transaction_sn") or None
    if also and named == also:
        named = reference_id
    return ShopeePayAnswer(errcode, _FIELDS.text(data, "debug_msg"),
                           _FIELDS.tie(named, reference_id), status, amount, serial)


def check_reference(name: str, reference: str) -> None:
    if not (0 < len(reference) <= ID_MAX and reference.isascii() and reference.isprintable()):
        raise FieldError(name, f"{name} {reference!r} is not one {WALLET_NAME} accepts "
                               f"(printable ASCII, at most {ID_MAX} characters)")


def new_request_id(reference: str) -> str:
    return f"{reference}-{secrets.token_hex(4)}"[-ID_MAX:]


class ShopeePayClient:
    """ShopeePay's calls for one store (its own Session)."""

    def __init__(self, account: Account, session: requests.Session | None = None) -> None:
        self.account = account
        self._owns_session = session is None
        self._session = session if session is not None else new_session()

    def _post(self, path: str, body: Mapping[str, object], operation: str,
              reference_id: str, also: str = "") -> ShopeePayAnswer:
        account = self.account
        data = post_json(
            self._session, account.base_url.rstrip("/") + path, body, operation,
            wallet=WALLET_NAME, connect_s=account.connect_timeout_s, total_s=account.timeout_s,
            sign=lambda raw: signing.headers(account.client_id, account.secret_key, raw))
        return read_answer(data, reference_id, also)

    def _store(self) -> dict[str, object]:
        return {"merchant_ext_id": self.account.merchant_ext_id,
                "store_ext_id": self.account.store_ext_id}

    def prepare_pay(self, reference_id: str, amount: int, payment_code: str) -> PreparedPay:
        """Check and build a create; no I/O. Raises FieldError."""
        check_reference("payment_reference_id", reference_id)
        request_fields.check_amount(WALLET_NAME, "payment", amount, LIMITS)
        request_fields.check_printable_code("payment_code", payment_code)
        body = {"request_id": new_request_id(reference_id),
                "payment_reference_id": reference_id, **self._store(),
                "amount": to_wire(amount), "currency": "VND", "payment_code": payment_code}
        text = json.dumps(body, sort_keys=True, ensure_ascii=False)
        return PreparedPay(reference_id, amount, body,
                           hashlib.sha256(text.encode("utf-8")).hexdigest())

    def send_pay(self, prepared: PreparedPay) -> ShopeePayAnswer:
        """The single send of a create. NoAnswer / UnreadableAnswer: outcome unknown."""
        return self._post(PAY_PATH, prepared.body, "payment", prepared.reference_id)

    def check(self, reference_id: str, transaction_type: int, amount: int) -> ShopeePayAnswer:
        """A payment's (type 13) or a refund's (type 15) status; `amount` the original one."""
        body = {"request_id": new_request_id(reference_id), "reference_id": reference_id,
                "transaction_type": transaction_type, **self._store(),
                "amount": to_wire(amount)}
        return self._post(CHECK_PATH, body, "status check", reference_id)

    @staticmethod
    def check_refund(payment_reference: str, refund_reference: str, amount: int) -> None:
        check_reference("reference_id", payment_reference)
        check_reference("refund_reference_id", refund_reference)
        request_fields.check_amount(WALLET_NAME, "refund", amount, LIMITS)

    def refund(self, payment_reference: str, refund_reference: str,
               amount: int) -> ShopeePayAnswer:
        """A refund of `amount` from the payment `payment_reference`, under its own new
        reference; its request_id is that reference: a repeat is the same request."""
        self.check_refund(payment_reference, refund_reference, amount)
        body = {"request_id": refund_reference, "reference_id": payment_reference,
                "transaction_type": codes.PAYMENT_TYPE,
                "refund_reference_id": refund_reference, **self._store(),
                "amount": to_wire(amount)}
        return self._post(REFUND_PATH, body, "refund", refund_reference, payment_reference)

    def close(self) -> None:
        if self._owns_session:
            self._session.close()
