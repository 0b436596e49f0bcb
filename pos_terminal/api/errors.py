"""The Terminal API's one error table: every refusal is `{"error": {"code", "message"}}` with
the status below, and nothing was charged by the refused request (docs/terminal-api.md).

A request's body is never echoed in an error: a payment code or a PIN sent in the wrong field
must not come back in an answer or reach a log."""

from __future__ import annotations

import logging
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from starlette.exceptions import HTTPException as StarletteHTTPException

from pos_terminal.base import strict_json
from pos_terminal.base.errors import PosError
from pos_terminal.base.i18n import N_, _
from pos_terminal.counter.admin import CashierError
from pos_terminal.counter.cashiers import AuthorityRequired
from pos_terminal.counter.sales import SaleRefused
from pos_terminal.counter.types import (
    CodeRefused,
    FieldError,
    InvalidPayment,
    JournalError,
    RefundNotAllowed,
    UnknownPayment,
    UnknownProvider,
    UnknownRefund,
    WalletChoiceNeeded,
    intent_of,
    refund_of,
)

log = logging.getLogger(__name__)

#: code -> (HTTP status, when). The table of docs/terminal-api.md is this one.
ERRORS: dict[str, tuple[int, str]] = {
    "invalid_json": (400, "the body is not one JSON object in UTF-8 (a key twice, NaN, "
                          "UTF-16/UTF-32, too deep: refused whole)"),
    "invalid_http": (400, "the request is framed two ways (Content-Length and "
                          "Transfer-Encoding): refused, the connection closed"),
    "unauthorized": (401, "no bearer token, or not an active one"),
    "forbidden": (403, "the token lacks the scope this call needs"),
    "authority_required": (403, "a refund without a supervisor's id and PIN once a supervisor "
                                "exists (and no trusted-refund scope)"),
    "authority_refused": (403, "the supervisor's PIN is wrong, the id is locked, or not a "
                               "supervisor"),
    "notice_refused": (403, "a wallet's notice without its valid signature (made with this "
                            "counter's key): nothing changed"),
    "not_found": (404, "no such payment, sale_ref, refund, receipt or path; a wallet this "
                       "counter does not take, or that sends no notices"),
    "method_not_allowed": (405, "the path exists, not with this method"),
    "ref_conflict": (409, "this sale_ref / refund_ref already belongs to another request "
                          "(another amount, code or payment)"),
    "code_refused": (409, "the payment code was already charged, or is being charged for "
                          "another sale"),
    "scanner_busy": (409, "the counter's scanner already waits for another sale's code"),
    "no_scanner": (409, "no payment_code and no scanner at this counter"),
    "no_code_read": (409, "no payment code was read in time"),
    "aborted": (409, "aborted before anything was recorded"),
    "no_receipt": (409, "this payment or refund did not move money: no receipt"),
    "body_too_large": (413, "the body is over 64 kB (16 kB for a wallet's notice)"),
    "wrong_host": (421, "the Host header names another machine (not this one's names nor "
                        "[api] allowed_hosts)"),
    "invalid_request": (422, "wrong type, unknown or missing field, bad reference"),
    "wallet_choice_needed": (422, "the payment code matches no wallet of this counter, or "
                                  "several: name one in \"provider\""),
    "invalid_amount": (422, "an amount that is not a whole number of VND within the limits"),
    "refund_not_allowed": (422, "the payment cannot be refunded (state, or more than is left)"),
    "internal": (500, "an unexpected error (the payment, if any, is in the journal)"),
    "journal_unavailable": (503, "the journal cannot record: nothing new is charged"),
    "busy": (503, "[api] max_payments payments (or refunds) are under way: nothing was "
                  "charged, try again"),
}


class ApiError(Exception):
    def __init__(self, code: str, message: str, **extra: Any) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.extra = extra

    @property
    def status(self) -> int:
        return ERRORS[self.code][0]


def error_body(code: str, message: str, **extra: Any) -> dict[str, Any]:
    return {"error": {"code": code, "message": message, **extra}}


def error_response(code: str, message: str, **extra: Any) -> JSONResponse:
    headers = {"WWW-Authenticate": "Bearer"} if code == "unauthorized" else None
    return JSONResponse(error_body(code, message, **extra), status_code=ERRORS[code][0],
                        headers=headers)


def code_of(exc: PosError) -> str:
    """The table's code for an error the counter raised."""
    if isinstance(exc, SaleRefused):
        return exc.code
    if isinstance(exc, AuthorityRequired):
        return "authority_required"
    if isinstance(exc, CashierError):
        return "authority_refused"
    if isinstance(exc, (UnknownPayment, UnknownRefund)):
        return "not_found"
    if isinstance(exc, CodeRefused):
        return "code_refused"
    if isinstance(exc, WalletChoiceNeeded):
        return "wallet_choice_needed"
    if isinstance(exc, UnknownProvider):
        return "invalid_request"
    if isinstance(exc, InvalidPayment):
        return "invalid_amount" if exc.field == "amount" else "invalid_request"
    if isinstance(exc, FieldError):
        return "invalid_request"
    if isinstance(exc, RefundNotAllowed):
        return "refund_not_allowed"
    if isinstance(exc, JournalError):
        return "journal_unavailable"
    return "internal"


def _field(loc: tuple[Any, ...]) -> str:
    parts = [str(p) for p in loc if p != "body"]
    return ".".join(parts) or "body"


MSG_NOT_JSON = N_("The body is not valid JSON: send one JSON object (Content-Type: "
                  "application/json). Nothing was charged.")


#: why a body was refused by the strict reader (pos_terminal/base/strict_json.py)
MSG_STRICT = {
    strict_json.NOT_UTF8: N_("The body is not UTF-8 JSON (UTF-16, UTF-32 or a byte order mark "
                             "are refused): send it as UTF-8. Nothing was charged."),
    strict_json.DUPLICATE_KEY: N_("The body names the same key twice: it is ambiguous, so it "
                                  "is refused whole. Nothing was charged."),
    strict_json.NOT_A_NUMBER: N_("The body holds NaN or Infinity, which JSON does not have. "
                                 "Nothing was charged."),
    strict_json.TOO_DEEP: N_("The body nests arrays or objects too deeply. Nothing was "
                             "charged."),
}


def not_json(reason: object) -> str:
    """The sentence for a body the strict reader refused (its reason code)."""
    return _(MSG_STRICT.get(str(reason), MSG_NOT_JSON))


def _validation_message(exc: RequestValidationError) -> tuple[str, str]:
    """(code, one sentence) for a body that failed its model; never the value sent."""
    errors = exc.errors()
    first = errors[0] if errors else {}
    kind = str(first.get("type", ""))
    if kind.startswith("json"):
        return "invalid_json", not_json((first.get("ctx") or {}).get("error"))
    field = _field(tuple(first.get("loc", ())))
    if kind == "model_attributes_type" or (kind == "dict_type" and field == "body"):
        return "invalid_json", _(MSG_NOT_JSON)
    if kind == "extra_forbidden":
        sentence = _("Unknown field {field}: nothing was charged; see /openapi.json for the "
                     "fields of this call.")
    elif kind == "missing":
        sentence = _("Missing field {field}: nothing was charged.")
    elif field == "amount" or field.endswith(".price"):
        sentence = _("{field} must be a whole number of VND (a JSON integer, not a string or a "
                     "decimal), within the terminal's limits: nothing was charged.")
    else:
        sentence = _("{field} has the wrong type or form ({problem}): nothing was charged.")
    code = "invalid_amount" if field == "amount" else "invalid_request"
    return code, sentence.format(field=field, problem=str(first.get("msg", ""))[:120])


def _payment_of(exc: Exception) -> dict[str, Any]:
    """The payment (or refund) an error happened to after its intent was recorded: the error's
    own (never another request's, however many are paid or refunded in parallel)."""
    app_trans_id, m_refund_id = intent_of(exc), refund_of(exc)
    return ({} if app_trans_id is None else {"app_trans_id": app_trans_id}) | (
        {} if m_refund_id is None else {"m_refund_id": m_refund_id})


def install(app: FastAPI) -> None:
    """Every error, the framework's own included, answers by the table."""

    @app.exception_handler(RequestValidationError)
    async def _invalid(_request: Request, exc: RequestValidationError) -> JSONResponse:
        code, message = _validation_message(exc)
        return error_response(code, message)

    @app.exception_handler(StarletteHTTPException)
    async def _http(_request: Request, exc: StarletteHTTPException) -> JSONResponse:
        if exc.status_code == 404:
            return error_response("not_found", _("No such path: see /openapi.json."))
        if exc.status_code == 400:  # a body the framework could not even parse
            return error_response("invalid_json", _(MSG_NOT_JSON))
        if exc.status_code == 405:
            return error_response("method_not_allowed", _("This path does not take this "
                                                          "method: see /openapi.json."))
        return error_response("invalid_request", str(exc.detail)[:200])

    @app.exception_handler(ApiError)
    async def _api(_request: Request, exc: ApiError) -> JSONResponse:
        return error_response(exc.code, exc.message, **exc.extra)

    @app.exception_handler(PosError)
    async def _pos(_request: Request, exc: PosError) -> JSONResponse:
        code = code_of(exc)
        if code == "internal":
            log.error("unexpected %s in the Terminal API", type(exc).__name__)
        return error_response(code, exc.message or type(exc).__name__, **_payment_of(exc))

    @app.exception_handler(Exception)
    async def _unexpected(_request: Request, exc: Exception) -> JSONResponse:
        # the type only: an exception's text could carry what a request sent
        log.error("unexpected %s in the Terminal API", type(exc).__name__)
        return error_response("internal", _("Unexpected error ({error}). If a payment was "
                                            "under way, ask for it by its sale_ref: never "
                                            "charge again.").format(error=type(exc).__name__),
                              **_payment_of(exc))
