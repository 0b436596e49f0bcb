"""`POST /v1/webhooks/{wallet}`: a wallet's notice (its webhook), for a wallet whose
declaration names one (`WalletDeclaration.webhook`).

No bearer token (the wallet cannot send one): the wallet's signature, checked by the wallet's
own function, is the authentication. The body is at most 16 kB (api/limits.py's SMALLER) and
strict JSON; it is never echoed nor logged. A notice is never believed: it only makes the
counter ask the wallet about that payment once (counter/notices.py), so a forged one changes
nothing and one sent again changes nothing the status query does not. Answered 200
``{"received": true}`` once checked, for a payment this journal knows or not (the wallet's test
notice when its webhook is registered names an order no journal has)."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Path, Request
from starlette.concurrency import run_in_threadpool

from pos_terminal.api.documented import NoticeOut, responses
from pos_terminal.api.errors import ApiError, not_json
from pos_terminal.api.models import PROVIDER
from pos_terminal.api.terminal import terminal_of
from pos_terminal.base import strict_json
from pos_terminal.base.wallet_errors import NoticeRefused

router = APIRouter(prefix="/v1/webhooks", tags=["webhooks"])

#: what each refusal answers (api/errors.py's table)
_CODES = {"no_webhook": "not_found", "signature": "notice_refused", "form": "invalid_request"}


@router.post("/{wallet}", summary="A wallet's notice (its webhook): no token, its signature",
             responses=responses("POST /v1/webhooks/{wallet}", NoticeOut),
             openapi_extra={"requestBody": {"required": True, "content": {"application/json": {
                 "schema": {"type": "object", "description": "the wallet's notice as it sends "
                            "it, its signature inside"}}}}})
async def notice(request: Request,
                 wallet: str = Path(pattern=PROVIDER, max_length=32)) -> dict[str, Any]:
    body = await request.body()
    try:
        strict_json.loads(body)
    except strict_json.StrictJsonError as exc:
        raise ApiError("invalid_json", not_json(exc.reason)) from None
    terminal = terminal_of(request)
    # a status query may wait for the wallet: the shared pool (no payment waits there)
    try:
        await run_in_threadpool(terminal.counter.payments.take_notice, wallet, body)
    except NoticeRefused as exc:
        raise ApiError(_CODES.get(exc.problem, "invalid_request"), exc.message) from None
    return {"received": True}
