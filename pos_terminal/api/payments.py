"""`/v1/payments`: charge under the sale system's `sale_ref` (idempotent), look a payment up by
`sale_ref` or `app_trans_id`, abort.

A payment blocks its request until final or the deadline, as `pay` does, in a thread of the
payments' own pool (api/pools.py), and goes on to the end when the client hangs up, so a retry
with the same sale_ref gets its answer. Look-ups and aborts are plain functions in FastAPI's
shared pool, which no payment occupies."""

from __future__ import annotations

import threading
from typing import Any

from fastapi import APIRouter, Query, Request

from pos_terminal.api.auth import Authorised
from pos_terminal.api.documented import PaymentOut, responses
from pos_terminal.api.errors import ApiError
from pos_terminal.api.models import REF, AbortIn, PaymentIn
from pos_terminal.api.pools import run_in
from pos_terminal.api.routing import StrictJsonRoute
from pos_terminal.api.terminal import Terminal, terminal_of
from pos_terminal.base.i18n import _
from pos_terminal.counter import UNRESOLVED, SaleLine, answers
from pos_terminal.counter.qr_sales import shop_qr_wallet
from pos_terminal.counter.types import PaymentView, check_code_format

router = APIRouter(prefix="/v1/payments", tags=["payments"], route_class=StrictJsonRoute)


def payment_answer(view: PaymentView) -> dict[str, Any]:
    """The same fields as `pay --json` (sale_ref among them)."""
    return answers.payment_answer(view)


def _waiting_answer(terminal: Terminal, sale_ref: str) -> dict[str, Any] | None:
    """A sale of this process whose payment is not recorded yet (waiting for a scan)."""
    waiting = terminal.desk.waiting(sale_ref)
    if waiting is None:
        return None
    return answers.contract(_("Waiting for the customer's payment code; nothing is charged "
                              "yet. Do not start another payment for this sale."), waiting[0],
                            state="waiting_for_code", verdict=answers.Verdict.UNKNOWN,
                            sale_ref=sale_ref)


@router.post("", summary="Charge a sale (idempotent on sale_ref)",
             responses=responses("POST /v1/payments", PaymentOut))
async def pay(body: PaymentIn, request: Request,
              _token: Authorised) -> dict[str, Any]:
    terminal = terminal_of(request)
    if body.method == "qr":
        return await _qr(body, request, terminal)
    code = body.payment_code
    if code is not None:
        check_code_format(code, terminal.settings.scanner, field="payment_code",
                          alphabet=terminal.settings.scan_alphabet)
    lines = [SaleLine(i.name, i.price, i.quantity) for i in body.items]
    # in the payments' own pool (api/pools.py): a hanging wallet never starves look-ups
    view = await run_in(request, "payments", terminal.desk.pay, body.sale_ref, body.amount,
                        code, description=body.description, items=lines,
                        provider=body.provider)
    return payment_answer(view)


async def _qr(body: PaymentIn, request: Request, terminal: Terminal) -> dict[str, Any]:
    """The shop's QR for the sale: answered once it is shown (its row, `qr_content`); the sale
    goes on in a thread of its own until final or the deadline (SaleDesk.qr)."""
    if body.payment_code is not None or body.items:
        raise ApiError("invalid_request", _("A QR payment takes no payment_code and no items. "
                                            "Nothing was charged."))
    wallet = shop_qr_wallet(terminal.desk.counter.payments.wallets, body.provider)
    if wallet is None:
        raise ApiError("invalid_request", _("no wallet of this counter shows a QR for the "
                                            "customer: nothing was charged"))
    shown = threading.Event()
    failed: list[BaseException] = []

    def sale() -> None:
        try:
            terminal.desk.qr(body.sale_ref, body.amount, provider=wallet,
                             description=body.description, on_shown=lambda _qr: shown.set())
        except BaseException as exc:  # told to the request still waiting, if any
            failed.append(exc)
        finally:
            shown.set()

    threading.Thread(target=sale, name=f"qr-sale-{body.sale_ref}", daemon=True).start()
    await run_in(request, "payments", shown.wait)
    view = terminal.desk.counter.payments.find_by_sale_ref(body.sale_ref)
    if view is None:
        if failed:
            raise failed[0]
        raise ApiError("internal", _("The QR could not be shown: nothing was charged."))
    return {**payment_answer(view), "qr_content": view.qr_code or view.order_url}


@router.get("", summary="The payment of a sale (by sale_ref)",
            responses=responses("GET /v1/payments", PaymentOut))
def by_sale_ref(request: Request, _token: Authorised,
                sale_ref: str = Query(pattern=REF)) -> dict[str, Any]:
    terminal = terminal_of(request)
    view = terminal.counter.payments.find_by_sale_ref(sale_ref)
    if view is None:
        waiting = _waiting_answer(terminal, sale_ref)
        if waiting is not None:
            return waiting
        raise ApiError("not_found", _("No payment for sale {sale_ref}: it was never charged "
                                      "here (a new POST with it charges it).").format(
                                          sale_ref=sale_ref))
    if view.state in UNRESOLVED and terminal.desk.waiting(sale_ref) is None:
        view = terminal.counter.payments.status(view.app_trans_id)
    return payment_answer(view)


@router.get("/{app_trans_id}", summary="A payment by its app_trans_id",
            responses=responses("GET /v1/payments/{app_trans_id}", PaymentOut))
def by_id(app_trans_id: str, request: Request,
          _token: Authorised) -> dict[str, Any]:
    return payment_answer(terminal_of(request).counter.payments.status(app_trans_id))


def _aborted(terminal: Terminal, sale_ref: str | None = None,
             app_trans_id: str | None = None) -> dict[str, Any]:
    try:
        view = terminal.desk.abort(sale_ref=sale_ref, app_trans_id=app_trans_id)
    except KeyError:
        raise ApiError("not_found", _("No payment for sale {sale_ref}: nothing to "
                                      "abort.").format(sale_ref=sale_ref)) from None
    if view is None:
        return answers.contract(_("Aborted before a payment code was read: nothing was "
                                  "charged."), None, state="aborted", sale_ref=sale_ref)
    return payment_answer(view)


@router.post("/abort", summary="Abort the payment of a sale (by sale_ref)",
             responses=responses("POST /v1/payments/abort", PaymentOut))
def abort_sale(body: AbortIn, request: Request,
               _token: Authorised) -> dict[str, Any]:
    return _aborted(terminal_of(request), sale_ref=body.sale_ref)


@router.post("/{payment_id}/abort", summary="Abort a payment (app_trans_id or sale_ref): stop "
             "waiting for its scan, or stop following it",
             responses=responses("POST /v1/payments/{payment_id}/abort", PaymentOut))
def abort_payment(payment_id: str, request: Request, _token: Authorised) -> dict[str, Any]:
    terminal = terminal_of(request)
    if terminal.counter.payments.find(payment_id) is not None:
        return _aborted(terminal, app_trans_id=payment_id)
    return _aborted(terminal, sale_ref=payment_id)  # waiting for a scan: no app_trans_id yet
