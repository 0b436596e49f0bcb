"""`/v1/refunds`: refunds under the sale system's `refund_ref` (idempotent), with the same
authority as every other path: once a supervisor exists, a supervisor's id and PIN (checked with
the book's attempts and lock-out), or a token the shop trusts (scope trusted-refund, granted by
a supervisor when the token was added; docs/security.md)."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Query, Request

from pos_terminal.api.auth import Authorised
from pos_terminal.api.documented import RefundOut, responses
from pos_terminal.api.errors import ApiError
from pos_terminal.api.models import REF, RefundIn
from pos_terminal.api.pools import run_in
from pos_terminal.api.routing import StrictJsonRoute
from pos_terminal.api.terminal import Terminal, terminal_of
from pos_terminal.base.amounts import check_refund_amount
from pos_terminal.base.i18n import _
from pos_terminal.base.money import format_vnd
from pos_terminal.base.reasons import Reason
from pos_terminal.counter import answers
from pos_terminal.counter.admin import ApiToken
from pos_terminal.counter.types import InvalidPayment, RefundRefTaken, RefundView

router = APIRouter(prefix="/v1/refunds", tags=["refunds"], route_class=StrictJsonRoute)


def _authorised_by(terminal: Terminal, token: ApiToken, body: RefundIn) -> str | None:
    if token.allows("trusted-refund"):
        return token.authorised_by
    return terminal.counter.cashiers.authorise(body.supervisor, body.pin)


def _same(refund: RefundView, body: RefundIn) -> RefundView:
    if (refund.app_trans_id, refund.amount) != (body.app_trans_id, body.amount):
        raise ApiError("ref_conflict", _("Refund reference {ref} already belongs to a refund of "
                                         "{amount} on {app_trans_id}: nothing more was "
                                         "refunded. Use a new refund_ref for a new refund.").format(
            ref=body.refund_ref, amount=format_vnd(refund.amount),
            app_trans_id=refund.app_trans_id))
    return refund


@router.post("", summary="Refund a payment (idempotent on refund_ref)",
             responses=responses("POST /v1/refunds", RefundOut))
async def refund(body: RefundIn, request: Request, token: Authorised) -> dict[str, Any]:
    # in the refunds' own pool (api/pools.py): a hanging wallet never starves look-ups
    return await run_in(request, "refunds", _refund, terminal_of(request), body, token)


def _refund(terminal: Terminal, body: RefundIn, token: ApiToken) -> dict[str, Any]:
    counter = terminal.counter
    refused = check_refund_amount(body.amount)  # the one rule of every front end
    if isinstance(refused, Reason):
        raise InvalidPayment("amount", refused)
    authorised_by = _authorised_by(terminal, token, body)
    existing = counter.refunds.find_by_ref(body.refund_ref)
    if existing is not None:
        return answers.refund_answer(_same(existing, body))
    try:
        # who asked: the payment's cashier (the POS names no cashier); who authorised: above
        view = counter.refunds.create(body.app_trans_id, body.amount, body.description,
                                      authorised_by=authorised_by, refund_ref=body.refund_ref)
    except RefundRefTaken as exc:  # the same refund_ref recorded meanwhile (a parallel retry)
        view = _same(counter.refunds.get(exc.m_refund_id), body)
    return answers.refund_answer(view)


@router.get("", summary="The refund under a refund_ref",
            responses=responses("GET /v1/refunds", RefundOut))
def by_ref(request: Request, _token: Authorised,
           refund_ref: str = Query(pattern=REF)) -> dict[str, Any]:
    found = terminal_of(request).counter.refunds.find_by_ref(refund_ref)
    if found is None:
        raise ApiError("not_found", _("No refund under {ref}: it was never made here.").format(
            ref=refund_ref))
    return answers.refund_answer(found)


@router.get("/{m_refund_id}", summary="A refund by its m_refund_id",
            responses=responses("GET /v1/refunds/{m_refund_id}", RefundOut))
def by_id(m_refund_id: str, request: Request,
          _token: Authorised) -> dict[str, Any]:
    return answers.refund_answer(terminal_of(request).counter.refunds.get(m_refund_id))
