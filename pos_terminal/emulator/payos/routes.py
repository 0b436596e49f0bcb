"""payOS's part of the emulator: its API (``x-client-id`` and ``x-api-key`` checked on every
call, HTTP 401 otherwise; fault endpoints ``payos_create``, ``payos_get``, ``payos_cancel``,
``refuse`` answering any code asked for) and the "bank app": a page listing the requests shown,
each payable in full, in part, late (after it closed) or left to expire. Mounted from payOS's
declaration (`PART`).

``POST /confirm-webhook`` registers the merchant's webhook (webhooks.py): every transfer of the
bank app is then POSTed there as a signed notice.

Control API: ``GET /_emulator/payos/requests``; ``POST /_emulator/payos/requests/<id>/pay``
(body ``{"amount": N}``, or none: all that is missing); ``POST .../<id>/expire``;
``GET /_emulator/payos/webhooks`` (the registered URL, every notice sent and its answer)."""

from __future__ import annotations

import asyncio
import hmac
import json
from collections.abc import Awaitable, Callable
from typing import Any

from aiohttp import web

from pos_terminal.emulator.json_part import JsonRoutes, before_commit, drop
from pos_terminal.emulator.parts import PartContext, PartService
from pos_terminal.emulator.payos.page import page
from pos_terminal.emulator.payos.service import JSON, PayOSService, envelope

BASE = "/v2/payment-requests"
CONTROL = "/_emulator/payos/requests"
Handler = Callable[[web.Request, JSON], JSON]


def _refusal(_body: JSON, code: int) -> JSON:
    return envelope(f"{code:02d}", "emulator fault")


async def _body(request: web.Request) -> JSON | None:
    raw = await request.read()
    if not raw:
        return {}
    try:
        body: Any = json.loads(raw)
    except (ValueError, UnicodeDecodeError):
        return None
    return body if isinstance(body, dict) else None


def _keys_match(request: web.Request, service: PayOSService) -> bool:
    return (hmac.compare_digest(request.headers.get("x-client-id", "").encode(),
                                service.client_id.encode())
            and hmac.compare_digest(request.headers.get("x-api-key", "").encode(),
                                    service.api_key.encode()))


def _unauthorized() -> web.Response:
    return web.json_response({"code": "401", "desc": "Unauthorized", "data": None}, status=401)


def _confirm_webhook(service: PayOSService
                     ) -> Callable[[web.Request], Awaitable[web.StreamResponse]]:
    async def confirm(request: web.Request) -> web.StreamResponse:
        if not _keys_match(request, service):
            return _unauthorized()
        body = await _body(request)
        if body is None:
            return web.json_response(envelope("20", "the body must be a JSON object"))
        # the sample notice is POSTed to the URL first: off the event loop
        return web.json_response(await asyncio.to_thread(service.confirm_webhook, body))

    return confirm


def _endpoint(service: PayOSService, context: PartContext, name: str,
              handler: Handler) -> Callable[[web.Request], Awaitable[web.StreamResponse]]:
    routes = JsonRoutes(wallet="payos", paths={}, handlers=lambda _s: {}, refusal=_refusal,
                        bad_body=envelope("20", "the body must be a JSON object"),
                        other_amount=lambda _a: None, other_id=lambda a: a)

    async def endpoint(request: web.Request) -> web.StreamResponse:
        if not _keys_match(request, service):
            return _unauthorized()
        body = await _body(request)
        if body is None:
            return web.json_response(routes.bad_body)
        rule = context.faults.take(name, None)
        if rule is not None and not rule.commits:
            return before_commit(request, routes, rule, body)
        answer = handler(request, body)
        if rule is not None and rule.mode == "drop_after_commit":
            return drop(request)
        if rule is not None and rule.mode == "garbage":
            return web.Response(body=b"\x00not json", content_type="application/json")
        return web.json_response(answer)

    return endpoint


class PayOSPart:
    def mount(self, app: web.Application, context: PartContext) -> PartService:
        service = PayOSService(context.options.callback_hosts)

        def ident(request: web.Request) -> str:
            return request.match_info["ident"]

        app.router.add_post(BASE, _endpoint(
            service, context, "payos_create", lambda _r, body: service.create(body)))
        app.router.add_get(BASE + "/{ident}", _endpoint(
            service, context, "payos_get", lambda r, _b: service.get(ident(r))))
        app.router.add_post(BASE + "/{ident}/cancel", _endpoint(
            service, context, "payos_cancel", lambda r, body: service.cancel(ident(r), body)))

        app.router.add_post("/confirm-webhook", _confirm_webhook(service))

        async def listed(request: web.Request) -> web.Response:
            return web.json_response({"requests": service.requests_json()})

        async def pay(request: web.Request) -> web.Response:
            body = await _body(request) or {}
            amount = body.get("amount")
            if amount is not None and (isinstance(amount, bool) or not isinstance(amount, int)
                                       or amount <= 0):
                return web.json_response({"error": "amount: a positive integer"}, status=400)
            found = service.pay(ident(request), amount)
            return _found(found, request)

        async def expire(request: web.Request) -> web.Response:
            return _found(service.expire(ident(request)), request)

        async def bank_app(request: web.Request) -> web.Response:
            return web.Response(text=page(service.requests_json()), content_type="text/html")

        async def webhooks(request: web.Request) -> web.Response:
            return web.json_response({"url": service.webhooks.url,
                                      "deliveries": service.webhooks.deliveries()})

        app.router.add_get(CONTROL, listed)
        app.router.add_get("/_emulator/payos/webhooks", webhooks)
        app.router.add_post(CONTROL + "/{ident}/pay", pay)
        app.router.add_post(CONTROL + "/{ident}/expire", expire)
        app.router.add_get("/_emulator/payos/bank", bank_app)
        # the demo names it: short enough to read whole in a notice on an 80-column screen
        app.router.add_get("/payos/bank", bank_app)
        return service


def _found(data: JSON | None, request: web.Request) -> web.Response:
    if data is None:
        return web.json_response(
            {"error": f"no payment request {request.match_info['ident']!r}"}, status=404)
    return web.json_response(data)


PART = PayOSPart()
