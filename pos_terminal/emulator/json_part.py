"""The routing every JSON wallet's emulator part shares, written once: each POST endpoint
takes the fault book's rules (faults.py) by its endpoint name and by customer, then answers
with its wallet's own handler; `drop`, `before_commit` and the answer alterations are the same
for every wallet. A wallet gives a `JsonRoutes`: its paths, its handlers, the answer a
``refuse`` fault gives (any of its own result codes), and where its answers hold the amount and
the order id; and, if its requests are signed in headers, `check_request`.

Its demo customers' routes come with it: ``GET /_emulator/<wallet>/customers`` and
``POST /_emulator/<wallet>/customers/<id>/code`` (a fresh code).
"""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from aiohttp import web

from pos_terminal.emulator.faults import FaultBook, FaultRule
from pos_terminal.emulator.parts import JSON, PartContext, PartService

CustomerFault = Callable[[str], bool]
Handler = Callable[[JSON, float, CustomerFault], "JSON | None"]
_GARBAGE = b"\x00\xffnot json <<<"


def drop(request: web.Request) -> web.StreamResponse:
    """Close the connection without a byte: the client gets no answer."""
    if request.transport is not None:
        request.transport.close()
    # aiohttp treats a cancelled handler as a lost connection: nothing written, nothing logged
    raise asyncio.CancelledError


@dataclass(frozen=True)
class JsonRoutes:
    """One JSON wallet's endpoints (see the module's docstring)."""

    wallet: str
    #: path -> the endpoint's name a fault rule uses
    paths: Mapping[str, str]
    #: the part's service -> endpoint name -> handler (body, now, customer fault) -> answer,
    #: None when a customer's fault stopped it before anything was committed
    handlers: Callable[[Any], Mapping[str, Handler]]
    #: the answer a ``refuse`` fault gives to `body` with `code`
    refusal: Callable[[JSON, int], JSON]
    #: the answer to a body that is not a JSON object
    bad_body: JSON
    #: an answer with another amount (``answer_amount``), None if it holds none
    other_amount: Callable[[JSON], JSON | None]
    #: an answer about another order (``answer_other_id``)
    other_id: Callable[[JSON], JSON]
    #: (raw body, headers) -> the answer refusing it (a bad signature), or None
    check_request: Callable[[bytes, Mapping[str, str]], JSON | None] | None = None

    @property
    def endpoint_names(self) -> tuple[str, ...]:
        return tuple(self.paths.values())


def before_commit(request: web.Request, routes: JsonRoutes, rule: FaultRule,
                  body: JSON) -> web.StreamResponse:
    """A fault that stops the request before the wallet commits anything."""
    if rule.mode == "drop":
        return drop(request)
    if rule.mode == "refuse":  # a result code on demand
        return web.json_response(routes.refusal(body, rule.return_code))
    if rule.mode == "http500":
        return web.Response(status=500, text="500 Internal Server Error")
    return web.Response(status=rule.status, content_type="text/html",
                        text=f"<html><body><h1>{rule.status}</h1></body></html>")


async def _endpoint(request: web.Request, routes: JsonRoutes, service: Any,
                    faults: FaultBook) -> web.StreamResponse:
    name = routes.paths[request.path]
    raw = await request.read()
    try:
        body: Any = json.loads(raw)
    except (ValueError, UnicodeDecodeError):
        body = None
    if not isinstance(body, dict):
        return web.json_response(routes.bad_body)
    if routes.check_request is not None:
        refused = routes.check_request(raw, request.headers)
        if refused is not None:
            return web.json_response(refused)
    endpoint_rule = faults.take(name, None)
    if endpoint_rule is not None and endpoint_rule.mode == "delay_before_commit":
        await asyncio.sleep(endpoint_rule.delay_s)
    elif endpoint_rule is not None and not endpoint_rule.commits:
        return before_commit(request, routes, endpoint_rule, body)
    taken: list[FaultRule] = []

    def customer_fault(customer_id: str) -> bool:
        found = faults.take(name, customer_id)
        if found is None:
            return False
        taken.append(found)
        return found.stops_before_commit

    handler = routes.handlers(service)[name]
    answer = handler(body, _now(), customer_fault)
    rule = taken[0] if taken else endpoint_rule
    if answer is None and rule is not None and rule.mode == "delay_before_commit":
        await asyncio.sleep(rule.delay_s)
        answer = handler(body, _now(), lambda _customer: False)
    if answer is None:
        assert rule is not None
        return before_commit(request, routes, rule, body)
    return await _after_commit(request, routes, rule, answer)


async def _after_commit(request: web.Request, routes: JsonRoutes, rule: FaultRule | None,
                        answer: JSON) -> web.StreamResponse:
    if rule is not None and rule.mode == "delay":
        await asyncio.sleep(rule.delay_s)
    if rule is not None and rule.mode == "drop_after_commit":
        return drop(request)
    if rule is not None and rule.mode == "answer_amount":
        answer = routes.other_amount(answer) or answer  # an answer not to believe
    if rule is not None and rule.mode == "answer_other_id":
        answer = routes.other_id(answer)
    text = json.dumps(answer, ensure_ascii=False).encode("utf-8")
    if rule is not None and rule.mode == "garbage":
        return web.Response(body=_GARBAGE, content_type="application/json")
    if rule is not None and rule.mode == "truncated":
        return web.Response(body=text[: len(text) // 2], content_type="application/json")
    return web.Response(body=text, content_type="application/json")


def _now() -> float:
    return time.time()


def mount_json_routes(app: web.Application, routes: JsonRoutes, service: PartService,
                      context: PartContext, customer_ids: tuple[str, ...]) -> PartService:
    """Add `routes` and the wallet's customers' routes; `service` is the part's state."""

    async def endpoint(request: web.Request) -> web.StreamResponse:
        return await _endpoint(request, routes, service, context.faults)

    async def customers(request: web.Request) -> web.Response:
        return web.json_response({"customers": service.customers_json()})

    async def new_code(request: web.Request) -> web.Response:
        customer = request.match_info["customer"]
        if customer not in customer_ids:
            return web.json_response(
                {"error": f"unknown {routes.wallet} customer {customer!r}; customers: "
                          f"{', '.join(customer_ids)}"}, status=404)
        return web.json_response({"customer": customer, "code": service.issue_code(customer)})

    for path in routes.paths:
        app.router.add_post(path, endpoint)
    app.router.add_get(f"/_emulator/{routes.wallet}/customers", customers)
    app.router.add_post(f"/_emulator/{routes.wallet}/customers/{{customer}}/code", new_code)
    return service
