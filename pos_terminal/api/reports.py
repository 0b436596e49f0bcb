"""`/v1/reports` (X: the running day; Z: closes it) and `/v1/receipts/{id}`: a receipt's lines,
ready for the POS's own printer, in the shop's language or the one asked for."""

from __future__ import annotations

from typing import Any, Literal

from fastapi import APIRouter, Request

from pos_terminal.api.auth import Authorised
from pos_terminal.api.documented import ReceiptOut, ReportOut, responses
from pos_terminal.api.errors import ApiError
from pos_terminal.api.routing import StrictJsonRoute
from pos_terminal.api.terminal import terminal_of
from pos_terminal.counter.types import NoReceipt

router = APIRouter(tags=["reports and receipts"], route_class=StrictJsonRoute)


@router.get("/v1/reports/x", summary="X report: the day so far (closes nothing)",
            responses=responses("GET /v1/reports/x", ReportOut))
def x_report(request: Request, _token: Authorised) -> dict[str, Any]:
    return terminal_of(request).counter.reports.x().to_json()


@router.post("/v1/reports/z", summary="Z report: closes the day",
             responses=responses("POST /v1/reports/z", ReportOut))
def z_report(request: Request, _token: Authorised) -> dict[str, Any]:
    return terminal_of(request).counter.reports.z().to_json()


@router.get("/v1/receipts/{subject_id}", summary="The receipt of a payment or refund, as lines",
            responses=responses("GET /v1/receipts/{subject_id}", ReceiptOut))
def receipt(subject_id: str, request: Request, _token: Authorised,
            lang: Literal["vi", "en"] | None = None) -> dict[str, Any]:
    try:
        found = terminal_of(request).counter.receipts.lines(subject_id, lang)
    except LookupError as exc:
        raise ApiError("not_found", getattr(exc, "message", str(exc))) from None
    except NoReceipt as exc:
        raise ApiError("no_receipt", exc.message) from None
    return {"kind": found.kind, "subject_id": found.subject_id, "reprint": found.reprint,
            "lines": list(found.lines)}
