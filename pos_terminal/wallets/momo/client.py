"""MoMo's POS API over HTTP: payment, status query, refund, confirm (capture / cancel).

A payment is sent once (its requestId is its orderId: a repeat is MoMo's to recognise, never a
second charge); a status query may be retried, each time as a new request. Every request is
signed over MoMo's raw string (signing.py); the payment code leaves only RSA-encrypted, and that
ciphertext is what is signed.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping
from dataclasses import dataclass, field

import requests
from cryptography.hazmat.primitives.asymmetric.rsa import RSAPublicKey
from tenacity import Retrying, retry_if_exception_type, stop_after_attempt, wait_exponential

from pos_terminal.base.wallet_errors import NoAnswer, NotSent, UnreadableAnswer
from pos_terminal.wallets.answer_fields import AnswerFields
from pos_terminal.wallets.crypto import encrypt_payment_code, load_public_key
from pos_terminal.wallets.http_json import new_session, post_json

from . import fields, signing
from .account import MomoAccount

PAY_PATH = "/v2/gateway/api/pos"
QUERY_PATH = "/v2/gateway/api/query"
REFUND_PATH = "/v2/gateway/api/refund"
CONFIRM_PATH = "/v2/gateway/api/confirm"


@dataclass(frozen=True)
class RefundTrans:
    """One refund of an order, as its status query lists it."""

    order_id: str
    amount: int | None
    result_code: int
    trans_id: str | None


@dataclass(frozen=True)
class MomoAnswer:
    """What MoMo answered: its result code and words, the order, MoMo's transaction id."""

    result_code: int
    message: str
    order_id: str
    request_id: str
    amount: int | None
    trans_id: str | None
    refund_trans: tuple[RefundTrans, ...] = ()


@dataclass(frozen=True)
class PreparedPay:
    """A signed payment with its code sealed; ``payload_hash`` goes into the journal's intent."""

    order_id: str
    amount: int
    body: Mapping[str, object] = field(repr=False)
    payload_hash: str = ""


_FIELDS = AnswerFields(fields.WALLET_NAME)


def read_answer(data: Mapping[str, object], order_id: str) -> MomoAnswer:
    """MoMo's answer to a request about `order_id`; MismatchedAnswer if it names another order.
    One that names none (a refusal) is about the request sent (answer_fields.tie)."""
    code = _FIELDS.required_integer(data, "resultCode")
    named = _FIELDS.tie(_FIELDS.text(data, "orderId"), order_id)
    refunds: list[RefundTrans] = []
    raw_refunds = data.get("refundTrans") or []
    if not isinstance(raw_refunds, list):
        raise UnreadableAnswer("MoMo's answer has a refundTrans that is not a list")
    for item in raw_refunds:
        if not isinstance(item, dict):
            raise UnreadableAnswer("MoMo's answer has a refundTrans entry that is not an object")
        refunds.append(RefundTrans(
            _FIELDS.text(item, "orderId"), _FIELDS.integer(item, "amount"),
            _FIELDS.required_integer(item, "resultCode"), _FIELDS.positive_id(item, "transId")))
    return MomoAnswer(result_code=code, message=_FIELDS.text(data, "message"), order_id=named,
                      request_id=_FIELDS.text(data, "requestId"),
                      amount=_FIELDS.integer(data, "amount"),
                      trans_id=_FIELDS.positive_id(data, "transId"),
                      refund_trans=tuple(refunds))


class MomoClient:
    """MoMo's calls for one merchant account (its own Session: one per client)."""

    def __init__(self, account: MomoAccount, session: requests.Session | None = None, *,
                 retry_attempts: int = 3, retry_wait_s: float = 0.2) -> None:
        self.account = account
        self._public_key: RSAPublicKey = load_public_key(account.public_key)
        self._owns_session = session is None
        self._session = session if session is not None else new_session()
        self._retry_attempts = max(1, retry_attempts)
        self._retry_wait_s = retry_wait_s

    # --- plumbing ---------------------------------------------------------------------------
    def _url(self, path: str) -> str:
        return self.account.base_url.rstrip("/") + path

    def _signed(self, names: tuple[str, ...], body: dict[str, object]) -> dict[str, object]:
        body["signature"] = signing.signed(names, body, self.account.access_key,
                                           self.account.secret_key)
        return body

    def _post(self, path: str, body: Mapping[str, object], operation: str) -> dict[str, object]:
        return post_json(self._session, self._url(path), body, operation,
                         wallet=fields.WALLET_NAME, connect_s=self.account.connect_timeout_s,
                         total_s=self.account.timeout_s)

    def _base(self, request_id: str, order_id: str) -> dict[str, object]:
        return {"partnerCode": self.account.partner_code, "requestId": request_id,
                "orderId": order_id, "lang": self.account.lang}

    # --- payment ----------------------------------------------------------------------------
    def prepare_pay(self, order_id: str, amount: int, order_info: str,
                    payment_code: str) -> PreparedPay:
        """Check, encrypt the code, sign; no I/O. Raises MomoFieldError or RsaKeyError."""
        fields.check_order_id(order_id)
        fields.check_amount("payment", amount, fields.PAYMENT_LIMITS)
        fields.check_text("orderInfo", order_info)
        fields.check_code(payment_code)
        sealed = encrypt_payment_code(payment_code, self._public_key)
        body = self._base(order_id, order_id)  # the payment's requestId is its orderId
        body.update({"storeId": self.account.store_id, "storeName": self.account.store_name,
                     "amount": amount, "orderInfo": order_info, "paymentCode": sealed,
                     "extraData": "", "autoCapture": self.account.auto_capture})
        self._signed(signing.PAY_FIELDS, body)
        text = json.dumps(body, sort_keys=True, ensure_ascii=False)
        return PreparedPay(order_id, amount, body,
                           hashlib.sha256(text.encode("utf-8")).hexdigest())

    def send_pay(self, prepared: PreparedPay) -> MomoAnswer:
        """The single send of a payment. NoAnswer / UnreadableAnswer: outcome unknown."""
        return read_answer(self._post(PAY_PATH, prepared.body, "payment"), prepared.order_id)

    # --- status (read-only: retried, each attempt a new request) ----------------------------
    def query(self, order_id: str) -> MomoAnswer:
        def attempt() -> MomoAnswer:
            body = self._signed(signing.QUERY_FIELDS,
                                self._base(fields.new_request_id(order_id), order_id))
            return read_answer(self._post(QUERY_PATH, body, "status query"), order_id)

        retrying = Retrying(
            stop=stop_after_attempt(self._retry_attempts),
            wait=wait_exponential(multiplier=self._retry_wait_s, max=2.0),
            retry=retry_if_exception_type((NoAnswer, NotSent)) , reraise=True)
        return retrying(attempt)

    # --- confirm (two-step) -----------------------------------------------------------------
    def confirm(self, order_id: str, amount: int, request_type: str,
                description: str = "") -> MomoAnswer:
        """Capture or cancel the authorised payment `order_id`; always the same requestId for
        it (fields.confirm_request_id), so a repeat after a lost answer is the same request."""
        if request_type not in (fields.CAPTURE, fields.CANCEL):
            raise ValueError(f"requestType must be capture or cancel, not {request_type!r}")
        body = self._base(fields.confirm_request_id(order_id, request_type), order_id)
        body.update({"requestType": request_type, "amount": amount,
                     "description": fields.check_text("description", description)})
        self._signed(signing.CONFIRM_FIELDS, body)
        return read_answer(self._post(CONFIRM_PATH, body, request_type), order_id)

    # --- refund -----------------------------------------------------------------------------
    @staticmethod
    def check_refund(refund_id: str, trans_id: str, amount: int, description: str) -> None:
        fields.check_order_id(refund_id)
        fields.check_amount("refund", amount, fields.REFUND_LIMITS)
        fields.check_text("description", description)
        if not (trans_id.isascii() and trans_id.isdigit()):
            raise fields.MomoFieldError("transId", f"transId {trans_id!r} is not MoMo's")

    def refund(self, refund_id: str, trans_id: str, amount: int, description: str) -> MomoAnswer:
        """A refund of `amount` from payment `trans_id`, under its own new orderId (its
        requestId too: a repeat of the same refund is the same request)."""
        self.check_refund(refund_id, trans_id, amount, description)
        body = self._base(refund_id, refund_id)
        body.update({"amount": amount, "transId": int(trans_id), "description": description})
        self._signed(signing.REFUND_FIELDS, body)
        return read_answer(self._post(REFUND_PATH, body, "refund"), refund_id)

    def close(self) -> None:
        if self._owns_session:
            self._session.close()
