"""MoMo's paths on the emulator's HTTP server, with the same faults as the ZaloPay part
(faults.py: endpoints ``momo_pay``, ``momo_query``, ``momo_refund``, ``momo_confirm``; a rule
may name a MoMo customer as its wallet; ``refuse`` answers the ``return_code`` asked for, any
MoMo result code, nothing committed; ``answer_amount`` and ``answer_other_id`` alter a processed
request's answer) and its control routes."""

from __future__ import annotations

import asyncio
import json
import time
from typing import Any

from aiohttp import web

from pos_terminal.emulator.faults import FaultBook, FaultRule
from pos_terminal.emulator.momo.customers import CUSTOMER_IDS
from pos_terminal.emulator.momo.service import JSON, MomoService

PATHS: dict[str, str] = {
    "/v2/gateway/api/pos": "momo_pay",
    "/v2/gateway/api/query": "momo_query",
    "/v2/gateway/api/refund": "momo_refund",
    "/v2/gateway/api/confirm": "momo_confirm",
}
ENDPOINT_NAMES = tuple(PATHS.values())
MOMO_KEY: web.AppKey[MomoService] = web.AppKey("momo", MomoService)
_GARBAGE = b"\x00\xffnot json <<<"


def _drop(request: web.Request) -> web.StreamResponse:
    if request.transport is not None:
        request.transport.close()
    raise asyncio.CancelledError


def _before_commit(request: web.Request, rule: FaultRule, body: JSON) -> web.StreamResponse:
    if rule.mode == "drop":
        return _drop(request)
    if rule.mode == "refuse":  # a result code on demand
        return web.json_response({"partnerCode": body.get("partnerCode"),
                                  "orderId": body.get("orderId"),
                                  "requestId": body.get("requestId"),
                                  "resultCode": rule.return_code,
                                  "message": f"result {rule.return_code} (emulator fault)",
                                  "responseTime": int(time.time() * 1000)})
    if rule.mode == "http500":
        return web.Response(status=500, text="500 Internal Server Error")
    return web.Response(status=rule.status, content_type="text/html",
                        text=f"<html><body><h1>{rule.status}</h1></body></html>")


async def _endpoint(request: web.Request, faults: FaultBook) -> web.StreamResponse:
    momo = request.app[MOMO_KEY]
    name = PATHS[request.path]
    try:
        body: Any = json.loads(await request.read())
    except (ValueError, UnicodeDecodeError):
        body = None
    if not isinstance(body, dict):
        return web.json_response({"resultCode": 20, "message": "the body must be a JSON object"})
    endpoint_rule = faults.take(name, None)
    if endpoint_rule is not None and endpoint_rule.mode == "delay_before_commit":
        await asyncio.sleep(endpoint_rule.delay_s)
    elif endpoint_rule is not None and not endpoint_rule.commits:
        return _before_commit(request, endpoint_rule, body)
    taken: list[FaultRule] = []

    def customer_fault(customer_id: str) -> bool:
        found = faults.take(name, customer_id)
        if found is None:
            return False
        taken.append(found)
        return found.stops_before_commit

    handler = {"momo_pay": momo.pay, "momo_query": momo.query, "momo_refund": momo.refund,
               "momo_confirm": momo.confirm}[name]
    answer = handler(body, time.time(), customer_fault)
    rule = taken[0] if taken else endpoint_rule
    if answer is None and rule is not None and rule.mode == "delay_before_commit":
        await asyncio.sleep(rule.delay_s)
        answer = handler(body, time.time(), lambda _customer: False)
    if answer is None:
        assert rule is not None
        return _before_commit(request, rule, body)
    if rule is not None and rule.mode == "delay":
        await asyncio.sleep(rule.delay_s)
    if rule is not None and rule.mode == "drop_after_commit":
        return _drop(request)
    if rule is not None and rule.mode == "answer_amount" and isinstance(answer.get("amount"), int):
        answer = {**answer, "amount": answer["amount"] + 1_000}  # an answer not to believe
    if rule is not None and rule.mode == "answer_other_id":
        answer = {**answer, "orderId": f"{answer.get('orderId')}-other"}
    text = json.dumps(answer, ensure_ascii=False).encode("utf-8")
    if rule is not None and rule.mode == "garbage":
        return web.Response(body=_GARBAGE, content_type="application/json")
    if rule is not None and rule.mode == "truncated":
        return web.Response(body=text[: len(text) // 2], content_type="application/json")
    return web.Response(body=text, content_type="application/json")


async def _customers(request: web.Request) -> web.Response:
    return web.json_response({"customers": request.app[MOMO_KEY].customers_json()})


async def _new_code(request: web.Request) -> web.Response:
    customer = request.match_info["customer"]
    if customer not in CUSTOMER_IDS:
        return web.json_response({"error": f"unknown MoMo customer {customer!r}; customers: "
                                           f"{', '.join(CUSTOMER_IDS)}"}, status=404)
    return web.json_response({"customer": customer,
                              "code": request.app[MOMO_KEY].issue_code(customer)})


def add_routes(app: web.Application, momo: MomoService, faults: FaultBook) -> None:
    app[MOMO_KEY] = momo

    async def endpoint(request: web.Request) -> web.StreamResponse:
        return await _endpoint(request, faults)

    for path in PATHS:
        app.router.add_post(path, endpoint)
    app.router.add_get("/_emulator/momo/customers", _customers)
    app.router.add_post("/_emulator/momo/customers/{customer}/code", _new_code)
