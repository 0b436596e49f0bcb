"""ZaloPay's part of the emulator on the HTTP server: the house service's endpoints (both
generations, the gateway, the bank list) with their fault routing (more modes than a JSON
wallet's: answer codes, streamed bodies, the house's error codes), and its customers' codes.
Mounted from ZaloPay's declaration (`PART`)."""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import Callable

from aiohttp import web

from pos_terminal.emulator.appkeys import FAULTS_KEY
from pos_terminal.emulator.faults import (
    ANSWER_BODY_MODES,
    ANSWER_MUTATIONS,
    FaultRule,
    answer_body,
    answer_with,
)
from pos_terminal.emulator.json_part import drop as _drop
from pos_terminal.emulator.parts import PartContext, PartService
from pos_terminal.emulator.zalopay import wire
from pos_terminal.emulator.zalopay.service import JSON, Service
from pos_terminal.emulator.zalopay.state import WALLET_IDS
from pos_terminal.emulator.zalopay.transport import read_fields
from pos_terminal.emulator.zalopay.verify import Form, Refused

SERVICE_KEY: web.AppKey[Service] = web.AppKey("service", Service)
_GARBAGE = b"\x00\xffnot json at all <<<\x1b[0m>>> \xfe\xfd"


def _fault_response(rule: FaultRule) -> web.StreamResponse:
    if rule.mode == "http500":
        return web.Response(status=500, text="500 Internal Server Error",
                            content_type="text/plain")
    reason = {200: "OK", 502: "Bad Gateway", 503: "Service Unavailable"}[rule.status]
    return web.Response(status=rule.status, content_type="text/html", text=(
        f"<!DOCTYPE html><html><head><title>{rule.status} {reason}</title></head><body>"
        f"<center><h1>{rule.status} {reason}</h1></center><hr><center>nginx</center>"
        "</body></html>"))


async def _service_endpoint(request: web.Request) -> web.StreamResponse:
    service = request.app[SERVICE_KEY]
    faults = request.app[FAULTS_KEY]
    endpoint, generation = wire.ENDPOINTS[request.path]
    service.books.count(endpoint, request.path)
    try:
        fields = await read_fields(request)
    except Refused as refused:
        return web.json_response(Service.refusal(generation, refused))

    # A rule for the whole endpoint is known before the request is read; a rule bound to a
    # wallet only once the request names that wallet (its code, order or refund). Both kinds
    # behave the same: a rule that stops the request before the commit (not committed, or held
    # in transit) makes the service answer None with nothing recorded; the request is then
    # answered by the fault, or processed after the hold.
    endpoint_rule = faults.take(endpoint, None)
    if endpoint_rule is not None and endpoint_rule.mode == "delay_before_commit":
        await asyncio.sleep(endpoint_rule.delay_s)  # in transit: nothing is committed yet
    elif endpoint_rule is not None and not endpoint_rule.commits:
        return _answer_fault(request, endpoint_rule, generation)

    taken: list[FaultRule] = []

    def wallet_fault(wallet_id: str) -> bool:
        found = faults.take(endpoint, wallet_id)
        if found is None:
            return False
        taken.append(found)
        return found.stops_before_commit

    answer = _process(request, endpoint, generation, fields, wallet_fault)
    wallet_rule = taken[0] if taken else None
    if wallet_rule is not None and not wallet_rule.commits:
        return _answer_fault(request, wallet_rule, generation)
    if wallet_rule is not None and wallet_rule.mode == "delay_before_commit":
        await asyncio.sleep(wallet_rule.delay_s)  # in transit, then processed (committed) late
        answer = _process(request, endpoint, generation, fields, lambda _wallet: False)
    assert answer is not None  # only a stopping wallet fault yields no answer
    rules = [r for r in (wallet_rule, endpoint_rule) if r is not None]
    late = sum(r.delay_s for r in rules if r.mode == "delay")
    if late:
        await asyncio.sleep(late)  # committed above; only the answer is late
    rule = next((r for r in rules if r.mode in _ANSWER_MODES), None)
    altered = next((r for r in rules if r.mode in ANSWER_MUTATIONS), None)
    body = (answer_body(altered, answer, generation) if altered is not None
            else json.dumps(answer, ensure_ascii=False).encode("utf-8"))
    if rule is not None and rule.mode == "drop_after_commit":
        return _drop(request)
    if rule is not None and rule.mode == "garbage":
        return web.Response(body=_GARBAGE, content_type="application/json")
    if rule is not None and rule.mode == "truncated":
        return web.Response(body=body[: max(1, len(body) // 2)], content_type="application/json")
    if rule is not None and rule.mode in ANSWER_BODY_MODES:
        return await answer_with(request, rule, answer, faults)
    return web.Response(body=body, content_type="application/json")


_ANSWER_MODES = frozenset({"drop_after_commit", "garbage", "truncated", *ANSWER_BODY_MODES})


def _process(request: web.Request, endpoint: str, generation: wire.Generation | None,
             fields: dict[str, str], wallet_fault: Callable[[str], bool]) -> JSON | None:
    """Run the service endpoint now (this is where a charge is committed)."""
    service = request.app[SERVICE_KEY]
    now = time.time()
    if generation is None:
        return service.bank_list(fields, now)
    form = Form(fields, generation)
    handler: dict[str, Callable[[], JSON | None]] = {
        "quick_pay": lambda: service.quick_pay(form, now, wallet_fault),
        "query": lambda: service.query(form, now, wallet_fault),
        "create": lambda: service.create_order(form, now, _origin(request)),
        "refund": lambda: service.refund(form, now, wallet_fault),
        "query_refund": lambda: service.query_refund(form, now, wallet_fault),
    }
    return handler[endpoint]()


def _answer_fault(request: web.Request, rule: FaultRule,
                  generation: wire.Generation | None) -> web.StreamResponse:
    if rule.mode == "drop":
        return _drop(request)
    if rule.mode == "refuse":
        refused = Refused(rule.return_code, _REFUSE_TEXT.get(rule.return_code, "refused"))
        return web.json_response(Service.refusal(generation, refused))
    return _fault_response(rule)


_REFUSE_TEXT = {
    wire.RATE_LIMITED: "rate limited: too many requests, try again later",
    wire.SYSTEM_ERROR: "system error",
    -999: "the service is under maintenance",
}


def _origin(request: web.Request) -> str:
    return str(request.url.origin())


async def _new_code(request: web.Request) -> web.Response:
    """A fresh code of a wallet, as every wallet's part answers it (`/_emulator/<wallet>/
    customers/<id>/code`: the demo asks each wallet the same way)."""
    wallet_id = request.match_info["customer"]
    if wallet_id not in WALLET_IDS:
        return web.json_response({"error": f"unknown wallet {wallet_id!r}; wallets: "
                                           f"{', '.join(WALLET_IDS)}"}, status=404)
    code = request.app[SERVICE_KEY].books.rotate(wallet_id)[0].code
    return web.json_response({"customer": wallet_id, "code": code})



class _ZaloPayService:
    """The house service's books as a wallet part's state: its wallets are its customers."""

    def __init__(self, service: Service) -> None:
        self._service = service

    def issue_code(self, customer_id: str) -> str:
        return self._service.books.rotate(customer_id)[0].code

    def customers_json(self) -> list[JSON]:
        return self._service.books.wallets_json()

    def reset(self) -> None:
        self._service.books.reset()


class ZaloPayPart:
    """ZaloPay's part: the house service's endpoints (both generations, the gateway, the bank
    list) and its customers' codes."""

    def mount(self, app: web.Application, context: PartContext) -> PartService:
        for path in wire.ENDPOINTS:
            app.router.add_post(path, _service_endpoint)
        app.router.add_get("/api/getlistmerchantbanks", _service_endpoint)
        app.router.add_post("/_emulator/zalopay/customers/{customer}/code", _new_code)
        return _ZaloPayService(app[SERVICE_KEY])


PART = ZaloPayPart()
