"""What /openapi.json says of each call: its success answer (a schema) and its own errors (the
codes of the one table, api/errors.py, that this call can answer), besides the refusals every
call can meet at the door (a foreign Host, a token missing or without the scope)."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from pos_terminal.api.errors import ERRORS
from pos_terminal.api.models import ErrorOut

#: every /v1 call: at the door (api/guard.py), the token (api/auth.py), the unexpected
AT_THE_DOOR = ("invalid_http", "unauthorized", "forbidden", "wrong_host", "internal")
#: the calls of a wallet, not of the POS: no token (its signature is checked instead)
NO_TOKEN = frozenset({"POST /v1/webhooks/{wallet}"})
#: every call with a JSON body (api/routing.py, api/limits.py)
WITH_A_BODY = ("invalid_json", "body_too_large", "invalid_request")

CALL_ERRORS: dict[str, tuple[str, ...]] = {
    "POST /v1/payments": (*WITH_A_BODY, "invalid_amount", "ref_conflict", "code_refused",
                          "scanner_busy", "no_scanner", "no_code_read", "aborted",
                          "journal_unavailable", "busy"),
    "GET /v1/payments": ("invalid_request", "not_found"),
    "GET /v1/payments/{app_trans_id}": ("not_found",),
    "POST /v1/payments/abort": (*WITH_A_BODY, "not_found"),
    "POST /v1/payments/{payment_id}/abort": ("not_found",),
    "POST /v1/refunds": (*WITH_A_BODY, "invalid_amount", "ref_conflict", "authority_required",
                         "authority_refused", "not_found", "refund_not_allowed",
                         "journal_unavailable", "busy"),
    "GET /v1/refunds": ("invalid_request", "not_found"),
    "GET /v1/refunds/{m_refund_id}": ("not_found",),
    "GET /v1/reports/x": (),
    "POST /v1/reports/z": ("journal_unavailable",),
    "GET /v1/receipts/{subject_id}": ("invalid_request", "not_found", "no_receipt"),
    "GET /v1/events": (),
    "POST /v1/webhooks/{wallet}": (*WITH_A_BODY, "not_found", "notice_refused"),
    "GET /display": (),
    "GET /display/events": (),
    "GET /display/qr/{app_trans_id}.svg": ("not_found",),
    "GET /display/static/{name}": ("not_found",),
}


class _Answer(BaseModel):
    model_config = ConfigDict(extra="allow")


class PaymentOut(_Answer):
    """A payment: the fields of `pay --json` (the journal's row and the outcome rule)."""

    state: str = Field(description="succeeded, failed, processing, unknown, ... "
                                   "(waiting_for_code, aborted: nothing recorded)")
    outcome: str = Field(description="of the latest state: paid (close the sale only on this), "
                                     "late (charged after the sale was given up: not its money, "
                                     "being returned), returned (all of it back with the "
                                     "customer), not_paid, unknown or needs_review (for these "
                                     "two never pay again)")
    paid: bool = Field(default=False, description="true only when outcome is paid")
    money: str = Field(default="unknown", description="where the money is now: shop, "
                                                      "customer, part (part of a shop QR's "
                                                      "transfer arrived: amount_paid) or "
                                                      "unknown")
    exit_code: int
    app_trans_id: str | None = None
    sale_ref: str | None = None
    amount: int | None = None
    message: str = ""
    return_code: int | None = None
    zp_trans_id: str | None = None
    needs_review: bool = False
    abandoned: bool = False
    late: bool = Field(default=False, description="charged after the sale was given up "
                                                   "(even once returned)")
    code_last4: str | None = None


class RefundOut(_Answer):
    """A refund (as `refund --json`)."""

    state: str = Field(description="refunded, refunding or failed")
    outcome: str = Field(description="refunded, not_refunded (no money moved), unknown or "
                                     "needs_review")
    exit_code: int
    m_refund_id: str
    app_trans_id: str
    refund_ref: str | None = None
    amount: int
    message: str = ""
    authorised_by: str | None = None
    cashier_id: str | None = None


class ReportOut(_Answer):
    """An X or Z report (as `report x|z --json`)."""


class NoticeOut(BaseModel):
    """A wallet's notice, checked: the payment it names (if this journal has it) was asked
    about once."""

    received: bool


class ReceiptOut(BaseModel):
    kind: str = Field(description="payment or refund")
    subject_id: str
    reprint: bool
    lines: list[str] = Field(description="lines of [printer] width, for the POS's printer")


def responses(call: str, answer: type[BaseModel] | None = None,
              description: str = "the answer") -> dict[int | str, dict[str, Any]]:
    """The responses of a call for FastAPI's decorators."""
    if call in NO_TOKEN:
        codes: tuple[str, ...] = ("invalid_http", "wrong_host", "internal", *CALL_ERRORS[call])
    elif call.split()[1].startswith("/v1"):
        codes = (*AT_THE_DOOR, *CALL_ERRORS[call])
    else:
        codes = ("wrong_host", "unauthorized", "forbidden", *CALL_ERRORS[call])
    by_status: dict[int, list[str]] = {}
    for code in dict.fromkeys(codes):
        by_status.setdefault(ERRORS[code][0], []).append(code)
    out: dict[int | str, dict[str, Any]] = {
        status: {"model": ErrorOut, "description": ", ".join(found)}
        for status, found in sorted(by_status.items())}
    if answer is not None:
        out[200] = {"model": answer, "description": description}
    return out
