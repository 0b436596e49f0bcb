"""The HTTP client of the wallet service: one Session, form bodies, verified TLS, typed errors.

A charge is never retried, neither here nor by urllib3 underneath: a second send could charge
the customer twice. Read-only calls (status query, bank list, refund status) may retry with
backoff, and only when no answer or an unreadable one came back.
"""

from __future__ import annotations

import hashlib
import http.client
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from types import TracebackType
from typing import TYPE_CHECKING, TypeVar
from urllib.parse import urlencode, urlsplit

import requests
from tenacity import Retrying, retry_if_exception_type, stop_after_attempt, wait_exponential
from urllib3.exceptions import (
    HTTPError,
    ReadTimeoutError,
)

from pos_terminal.wallets.code_table import Operation
from pos_terminal.wallets.crypto import encrypt_payment_code, load_public_key
from pos_terminal.wallets.errors import NoAnswer, NotSent, UnreadableAnswer
from pos_terminal.wallets.transport import (
    MAX_ANSWER_BYTES,
    Deadline,
    TooLarge,
    no_retry_adapter,
    not_connected_cause,
    read_bounded,
)

from . import answers, messages, verification
from .fields import BANK_LIST_PATH, wire
from .ids import current_ms
from .results import (
    BankList,
    CallbackResult,
    GatewayOrderResult,
    PaymentResult,
    RedirectResult,
    RefundResult,
)
from .userip import terminal_address

if TYPE_CHECKING:
    from pos_terminal.config import ServiceSettings

T = TypeVar("T")

FORM_CONTENT_TYPE = "application/x-www-form-urlencoded"
USER_AGENT = "pos-terminal"




@dataclass(frozen=True)
class PreparedQuickPay:
    """A validated, signed, encrypted quick pay, ready for its single send.

    ``payload_hash`` (sha256 of the exact body) goes into the journal's intent before sending.
    The raw payment code is not in here except inside the RSA ciphertext."""

    app_trans_id: str
    amount: int
    generation: str
    url: str
    form: Mapping[str, str] = field(repr=False)
    body: str = field(repr=False)
    payload_hash: str = ""


class WalletClient:
    def __init__(
        self,
        service: ServiceSettings,
        session: requests.Session | None = None,
        *,
        retry_attempts: int = 3,
        retry_wait_s: float = 0.2,
        clock_ms: Callable[[], int] = current_ms,
        user_ip: str | None = None,
    ) -> None:
        """``user_ip``: sent as ``userip`` on quick pay; None finds the terminal's own address
        (towards the service host, without network traffic) at the first quick pay."""
        self.service = service
        self.generation: str = service.generation
        self._spec = wire(service.generation)
        self._public_key = load_public_key(service.rsa_public_key)
        # Asked for only where a request is signed or an answer checked: nowhere else in text.
        self._key1 = service.key1.get_secret_value()
        self._key2 = service.key2.get_secret_value()
        self._urlsafe = service.payment_code_base64 == "urlsafe"
        self._owns_session = session is None
        self._session = session if session is not None else requests.Session()
        self._session.verify = True
        self._session.headers["User-Agent"] = USER_AGENT
        for prefix in ("http://", "https://"):
            self._session.mount(prefix, no_retry_adapter())
        self._timeout = (service.connect_timeout_s, service.timeout_s)
        self._retry_attempts = max(1, retry_attempts)
        self._retry_wait_s = retry_wait_s
        self._clock_ms = clock_ms
        self._user_ip = user_ip

    # --- plumbing -------------------------------------------------------------------------

    def _url(self, base: str, path: str) -> str:
        return base.rstrip("/") + path

    def _post(self, url: str, body: str, operation: str) -> dict[str, object]:
        """One POST, bounded: ``timeout_s`` for the whole request (connect, headers and body
        together, not per read) and MAX_ANSWER_BYTES for the answer."""
        host = urlsplit(url).netloc
        connect_s, read_s = self._timeout
        late = f"no answer to the {operation}: {host} did not answer within {read_s:g} s"
        with Deadline(read_s) as deadline:
            try:
                response = self._session.post(
                    url,
                    data=body.encode("utf-8"),
                    headers={"Content-Type": FORM_CONTENT_TYPE, "Accept": "application/json",
                             # never a compressed answer: nothing to inflate, no bomb
                             "Accept-Encoding": "identity"},
                    timeout=self._timeout,
                    allow_redirects=False,
                    stream=True,
                )
            except requests.exceptions.ConnectTimeout as exc:
                cause = f"no connection within {connect_s:g} s"
                raise NotSent(
                    f"no answer to the {operation}: could not connect to {host} ({cause}); "
                    "nothing was sent",
                    cause,
                ) from exc
            except requests.exceptions.ConnectionError as exc:
                why = not_connected_cause(exc)
                if why is not None:
                    raise NotSent(
                        f"no answer to the {operation}: could not connect to {host} ({why}); "
                        "nothing was sent",
                        why,
                    ) from exc
                if deadline.expired or isinstance(exc, requests.exceptions.ReadTimeout):
                    raise NoAnswer(late) from exc
                if isinstance(exc, requests.exceptions.SSLError):
                    raise NoAnswer(
                        f"no answer to the {operation}: the TLS connection to {host} failed "
                        "after the request was sent"
                    ) from exc
                raise NoAnswer(
                    f"no answer to the {operation}: the connection to {host} failed or was "
                    "dropped (network, DNS or service down)"
                ) from exc
            except requests.exceptions.RequestException as exc:
                if deadline.expired or isinstance(exc, requests.exceptions.ReadTimeout):
                    raise NoAnswer(late) from exc
                raise NoAnswer(
                    f"no answer to the {operation}: {type(exc).__name__} talking to {host}"
                ) from exc
            try:
                content = self._read_answer(response, deadline, operation, host, late)
            finally:
                response.close()
        status = response.status_code
        if status != 200:
            raise UnreadableAnswer(
                f"unreadable answer to the {operation}: {host} answered HTTP {status}", status
            )
        try:
            return answers.parse_json_body(content, status)
        except UnreadableAnswer as exc:
            raise UnreadableAnswer(f"unreadable answer to the {operation}: {exc.message}",
                                   status) from None

    def _read_answer(self, response: requests.Response, deadline: Deadline, operation: str,
                     host: str, late: str) -> bytes:
        """The body, read within the deadline and the size limit, never inflated."""
        status = response.status_code
        encoding = response.headers.get("Content-Encoding", "").strip().lower()
        if encoding not in ("", "identity"):
            raise UnreadableAnswer(
                f"unreadable answer to the {operation}: {host} sent a compressed answer "
                f"({encoding}) although none was asked for; it is not inflated", status)
        length = response.headers.get("Content-Length", "").strip()
        # (a length of thousands of digits is refused before int(), which would raise)
        if length.isdigit() and length.isascii() and (
                len(length) > 18 or int(length) > MAX_ANSWER_BYTES):
            announced = f"{int(length):,}" if len(length) <= 18 else f"a {len(length)}-digit"
            raise UnreadableAnswer(
                f"unreadable answer to the {operation}: {host} announced {announced} "
                f"bytes, more than the {MAX_ANSWER_BYTES:,} an answer may have", status)
        try:
            content = read_bounded(response.raw, MAX_ANSWER_BYTES, deadline)
        except TooLarge:
            raise UnreadableAnswer(
                f"unreadable answer to the {operation}: {host} sent more than "
                f"{MAX_ANSWER_BYTES:,} bytes; reading stopped there", status) from None
        except (TimeoutError, OSError, HTTPError, http.client.HTTPException,
                requests.exceptions.RequestException) as exc:
            if deadline.expired or isinstance(exc, TimeoutError | ReadTimeoutError):
                raise NoAnswer(late) from exc
            raise NoAnswer(
                f"no answer to the {operation}: the connection to {host} dropped mid-answer"
            ) from exc
        # Fully read within the deadline: the connection may serve the next request.
        response.raw.release_conn()
        return content

    def _retrying(self, call: Callable[[], T]) -> T:
        retrying = Retrying(
            stop=stop_after_attempt(self._retry_attempts),
            wait=wait_exponential(multiplier=self._retry_wait_s, max=2.0),
            retry=retry_if_exception_type((NoAnswer, NotSent, UnreadableAnswer)),
            reraise=True,
        )
        return retrying(call)

    @property
    def user_ip(self) -> str:
        """The ``userip`` this client sends on quick pay."""
        if self._user_ip is None:
            self._user_ip = terminal_address(self.service.base_url)
        return self._user_ip

    # --- quick pay: build (no I/O) and send (once) ------------------------------------------

    def build_quick_pay(
        self, order: messages.QuickPayOrder, payment_code: str
    ) -> PreparedQuickPay:
        """Validate, sign and encrypt; no I/O. Raises FieldError or RsaKeyError."""
        names = self._spec.names
        order.validate(self.generation)
        messages.check_payment_code(names.payment_code, payment_code)
        encrypted = encrypt_payment_code(payment_code, self._public_key, urlsafe=self._urlsafe)
        form = messages.quick_pay_form(
            order, self.generation, self.service.app_id, self._key1, payment_code, encrypted,
            self.user_ip,
        )
        body = urlencode(form)
        return PreparedQuickPay(
            app_trans_id=order.app_trans_id,
            amount=order.amount,
            generation=self.generation,
            url=self._url(self.service.base_url, self._spec.paths.quick_pay),
            form=form,
            body=body,
            payload_hash=hashlib.sha256(body.encode("utf-8")).hexdigest(),
        )

    def send_quick_pay(self, prepared: PreparedQuickPay) -> PaymentResult:
        """The single send of a charge. NoAnswer / UnreadableAnswer mean "outcome unknown"."""
        if prepared.generation != self.generation:
            raise ValueError("this quick pay was prepared for another API generation")
        data = self._post(prepared.url, prepared.body, "quick pay")
        return answers.payment_result(data, self.generation, prepared.app_trans_id,
                                      operation=Operation.QUICK_PAY)

    def quick_pay(self, order: messages.QuickPayOrder, payment_code: str) -> PaymentResult:
        return self.send_quick_pay(self.build_quick_pay(order, payment_code))

    # --- read-only calls (retried) ----------------------------------------------------------

    def query_status(self, app_trans_id: str) -> PaymentResult:
        form = messages.query_form(
            self.generation, self.service.app_id, self._key1, app_trans_id
        )
        url = self._url(self.service.base_url, self._spec.paths.query)
        body = urlencode(form)

        def attempt() -> PaymentResult:
            data = self._post(url, body, "status query")
            return answers.payment_result(data, self.generation, app_trans_id,
                                          operation=Operation.STATUS)

        return self._retrying(attempt)

    def list_banks(self) -> BankList:
        url = self._url(self.service.gateway_url, BANK_LIST_PATH)

        def attempt() -> BankList:
            form = messages.bank_list_form(
                self.service.app_id, self._key1, self._clock_ms()
            )
            return answers.bank_list(self._post(url, urlencode(form), "bank list"))

        return self._retrying(attempt)

    def query_refund(self, m_refund_id: str) -> RefundResult:
        url = self._url(self.service.base_url, self._spec.paths.query_refund)

        def attempt() -> RefundResult:
            form = messages.refund_status_form(
                self.generation, self.service.app_id, self._key1, m_refund_id,
                self._clock_ms(),
            )
            data = self._post(url, urlencode(form), "refund status query")
            return answers.refund_result(data, self.generation, m_refund_id,
                                         operation=Operation.REFUND_STATUS)

        return self._retrying(attempt)

    # --- calls that create something (never retried) ----------------------------------------

    def create_order(self, order: messages.GatewayOrder) -> GatewayOrderResult:
        form = messages.create_order_form(
            order, self.generation, self.service.app_id, self._key1
        )
        url = self._url(self.service.base_url, self._spec.paths.create)
        data = self._post(url, urlencode(form), "gateway order")
        return answers.gateway_order_result(data, self.generation, order.app_trans_id)

    def refund(self, req: messages.RefundRequest) -> RefundResult:
        form = messages.refund_form(req, self.generation, self.service.app_id, self._key1)
        url = self._url(self.service.base_url, self._spec.paths.refund)
        data = self._post(url, urlencode(form), "refund")
        return answers.refund_result(data, self.generation, req.m_refund_id,
                                     operation=Operation.REFUND)

    # --- what the service sends to the merchant (key2) --------------------------------------

    def verify_redirect(self, query: str | Mapping[str, str]) -> RedirectResult:
        return verification.verify_redirect(query, self._key2, self.service.app_id)

    def verify_callback(self, body: bytes | str | Mapping[str, object]) -> CallbackResult:
        return verification.verify_callback(body, self._key2, self.service.app_id)

    # --- lifetime ---------------------------------------------------------------------------

    def close(self) -> None:
        if self._owns_session:
            self._session.close()

    def __enter__(self) -> WalletClient:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.close()
