"""The HTTP side of the emulator (aiohttp): routes, fault injection, control API, run modes.

``start_emulator`` runs it in-process on its own thread and event loop (tests, demo);
``serve`` runs it in the foreground until Ctrl-C (the ``pos-terminal emulator`` command).
"""

from __future__ import annotations

import asyncio
import json
import os
import signal
import threading
import time
from collections.abc import Callable, Mapping
from types import TracebackType
from typing import Any

from aiohttp import web

from pos_terminal.base import strict_json
from pos_terminal.emulator import addresses, pages
from pos_terminal.emulator.appkeys import FAULTS_KEY, SERVICE_KEY
from pos_terminal.emulator.faults import (
    ANSWER_BODY_MODES,
    ANSWER_MUTATIONS,
    FaultBook,
    FaultRule,
    FaultSpecError,
    answer_body,
    answer_with,
    parse_rule,
)
from pos_terminal.emulator.guard import Exposure
from pos_terminal.emulator.json_part import drop as _drop
from pos_terminal.emulator.options import EmulatorOptions
from pos_terminal.emulator.parts import PARTS_KEY, PartContext, PartService, mount_all
from pos_terminal.emulator.wallets import fault_wallet_ids
from pos_terminal.emulator.zalopay import wire
from pos_terminal.emulator.zalopay.service import JSON, Service
from pos_terminal.emulator.zalopay.state import WALLET_IDS, Books
from pos_terminal.emulator.zalopay.transport import read_fields
from pos_terminal.emulator.zalopay.verify import Form, Refused

#: What a fault rule may name as its wallet (read again when a rule is parsed: emulator/wallets.py).
FAULT_WALLET_IDS = fault_wallet_ids()

_GARBAGE = b"\x00\xffnot json at all <<<\x1b[0m>>> \xfe\xfd"


class EmulatorControl:
    """In-process helpers over the same state the control API serves."""

    def __init__(self, service: Service, faults: FaultBook,
                 parts: Mapping[str, PartService] | None = None) -> None:
        self._service = service
        self._faults = faults
        self.parts: Mapping[str, PartService] = parts or {}

    def part(self, wallet: str) -> Any:
        """Wallet `wallet`'s emulator part's state (its service), as mounted."""
        return self.parts[wallet]

    @property
    def momo(self) -> Any:
        return self.part("momo")

    def customer_code(self, wallet: str, customer_id: str) -> str:
        """A fresh code of customer `customer_id` of wallet `wallet`'s part."""
        return self.parts[wallet].issue_code(customer_id)

    @property
    def books(self) -> Books:
        return self._service.books

    def wallets(self) -> list[dict[str, Any]]:
        return self.books.wallets_json()

    def code(self, wallet_id: str) -> str:
        """The payment code wallet ``wallet_id`` shows now."""
        return self.books.current_code(wallet_id).code

    def rotate(self, wallet_id: str, count: int = 1) -> list[str]:
        return [record.code for record in self.books.rotate(wallet_id, count)]

    def ledger(self) -> dict[str, Any]:
        return self.books.ledger_json()

    def expire_order(self, app_trans_id: str) -> bool:
        """Expire an unpaid gateway order now; False if there is no such pending order."""
        return self.books.expire_gateway_order(app_trans_id)

    def momo_code(self, customer_id: str) -> str:
        """A fresh code of MoMo customer `customer_id` (emulator/momo/customers.py)."""
        return self.customer_code("momo", customer_id)

    def add_fault(self, **rule: Any) -> FaultRule:
        parsed = parse_rule(rule, fault_wallet_ids())
        self._faults.add(parsed)
        return parsed

    def clear_faults(self) -> None:
        self._faults.clear()

    def fault_stats(self, mode: str) -> int | None:
        """Bytes the last streamed fault of ``mode`` wrote before the client hung up."""
        return self._faults.sent_bytes(mode)

    def callbacks(self, app_trans_id: str | None = None) -> list[dict[str, Any]]:
        """Every server-to-server callback sent (or being sent), with its attempts."""
        return self._service.callbacks.deliveries(app_trans_id)

    def reset(self) -> None:
        for part in self.parts.values():
            part.reset()  # ZaloPay's part resets the house's books
        self._service.callbacks.reset()
        self._faults.clear()
        for rule in self._service.options.faults:
            self._faults.add(rule)


# -- service endpoints ---------------------------------------------------------------------------
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


# -- control API ---------------------------------------------------------------------------------
def _control(request: web.Request) -> EmulatorControl:
    return EmulatorControl(request.app[SERVICE_KEY], request.app[FAULTS_KEY],
                           request.app[PARTS_KEY])


async def _wallets(request: web.Request) -> web.Response:
    return web.json_response({"wallets": _control(request).wallets()})


async def _rotate(request: web.Request) -> web.Response:
    wallet_id = request.match_info["wallet"]
    if wallet_id not in WALLET_IDS:
        return web.json_response({"error": f"unknown wallet {wallet_id!r}; wallets: "
                                           f"{', '.join(WALLET_IDS)}"}, status=404)
    count_text = request.query.get("count", "1")
    if (not (count_text.isascii() and count_text.isdigit()) or len(count_text) > 6
            or not 1 <= int(count_text) <= 100_000):
        return web.json_response({"error": "count must be a whole number from 1 to 100000"},
                                 status=400)
    codes = _control(request).rotate(wallet_id, int(count_text))
    wallet = next(w for w in _control(request).wallets() if w["id"] == wallet_id)
    return web.json_response({"wallet": wallet, "codes": codes})


async def _new_code(request: web.Request) -> web.Response:
    """A fresh code of a wallet, as every wallet's part answers it (`/_emulator/<wallet>/
    customers/<id>/code`: the demo asks each wallet the same way)."""
    wallet_id = request.match_info["customer"]
    if wallet_id not in WALLET_IDS:
        return web.json_response({"error": f"unknown wallet {wallet_id!r}; wallets: "
                                           f"{', '.join(WALLET_IDS)}"}, status=404)
    return web.json_response({"customer": wallet_id,
                              "code": _control(request).rotate(wallet_id)[0]})


async def _ledger(request: web.Request) -> web.Response:
    return web.json_response(_control(request).ledger())


async def _faults_get(request: web.Request) -> web.Response:
    return web.json_response({"faults": [r.to_json() for r in request.app[FAULTS_KEY].rules()]})


async def _faults_post(request: web.Request) -> web.Response:
    try:
        data = strict_json.loads(await request.read())
    except strict_json.StrictJsonError as exc:
        return web.json_response({"error": "the body must be one JSON object or array, in "
                                  f"UTF-8, each key once, no NaN ({exc.reason})"}, status=400)
    items = data if isinstance(data, list) else [data]
    try:
        rules = [parse_rule(item, fault_wallet_ids()) if isinstance(item, dict) else parse_rule(
            {"mode": None}, fault_wallet_ids()) for item in items]
    except FaultSpecError as exc:
        return web.json_response({"error": str(exc)}, status=400)
    for rule in rules:
        request.app[FAULTS_KEY].add(rule)
    return await _faults_get(request)


async def _faults_delete(request: web.Request) -> web.Response:
    request.app[FAULTS_KEY].clear()
    return web.json_response({"faults": []})


async def _callbacks(request: web.Request) -> web.Response:
    app_trans_id = request.query.get("app_trans_id") or None
    return web.json_response({"callbacks": _control(request).callbacks(app_trans_id)})


async def _close_callbacks(app: web.Application) -> None:
    await app[SERVICE_KEY].callbacks.close()


async def _reset(request: web.Request) -> web.Response:
    _control(request).reset()
    return web.json_response({"reset": True})


def build_app(options: EmulatorOptions, exposure: Exposure | None = None) -> web.Application:
    """The aiohttp application with every route of the emulator; `exposure` (guard.py): the
    Host names it answers to and the control API's token (default: bound to loopback)."""
    service = Service(options, Books(options.code_lifetime_s, options.processing_s))
    faults = FaultBook()
    for rule in options.faults:
        faults.add(rule)
    exposure = exposure if exposure is not None else Exposure.for_bind("127.0.0.1")
    app = web.Application(client_max_size=64 * 1024, middlewares=[exposure.middleware()])
    app[SERVICE_KEY] = service
    app[FAULTS_KEY] = faults
    app.router.add_get("/_emulator/wallets", _wallets)
    app.router.add_post("/_emulator/wallets/{wallet}/rotate", _rotate)
    app.router.add_get("/_emulator/ledger", _ledger)
    app.router.add_get("/_emulator/faults", _faults_get)
    app.router.add_post("/_emulator/faults", _faults_post)
    app.router.add_delete("/_emulator/faults", _faults_delete)
    app.router.add_post("/_emulator/reset", _reset)
    app.router.add_get("/_emulator/callbacks", _callbacks)
    app.on_cleanup.append(_close_callbacks)
    mount_all(app, PartContext(options, faults))  # every wallet's part, from its declaration
    pages.add_routes(app)
    return app


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


ZALOPAY_PART = ZaloPayPart()


# -- running -------------------------------------------------------------------------------------
class RunningEmulator:
    """An emulator serving on its own thread and event loop; stop() (or ``with``) ends it."""

    def __init__(self, app: web.Application, host: str, port: int,
                 control_token: str | None = None) -> None:
        self._app = app
        self._host = host
        #: what `/_emulator/*` needs as `Authorization: Bearer ...` (None: bound to loopback)
        self.control_token = control_token
        self._loop = asyncio.new_event_loop()
        # in-flight requests (a delay fault) get 2 s to finish when the emulator stops
        self._runner = web.AppRunner(app, access_log=None, handle_signals=False,
                                     shutdown_timeout=2.0)
        self._ready = threading.Event()
        self._error: BaseException | None = None
        self._stopped = False
        self.port = port
        self._thread = threading.Thread(target=self._run, name="wallet-emulator", daemon=True)
        self._thread.start()
        self._ready.wait(30)
        if self._error is not None:
            raise self._error
        if not self._ready.is_set():
            raise RuntimeError("the emulator did not start within 30 s")
        self.control = EmulatorControl(app[SERVICE_KEY], app[FAULTS_KEY], app[PARTS_KEY])

    def _run(self) -> None:
        asyncio.set_event_loop(self._loop)
        try:
            self._loop.run_until_complete(self._runner.setup())
            site = web.TCPSite(self._runner, self._host, self.port)
            self._loop.run_until_complete(site.start())
            # the bound socket tells the free port picked for port 0
            sockets = getattr(site._server, "sockets", None)
            if sockets:
                self.port = sockets[0].getsockname()[1]
        except OSError as exc:  # reported to the starting thread
            self._error = _bind_error(exc)
            self._ready.set()
            return
        except BaseException as exc:  # reported to the starting thread
            self._error = exc
            self._ready.set()
            return
        self._ready.set()
        try:
            self._loop.run_forever()
        finally:
            self._loop.run_until_complete(self._runner.cleanup())
            self._loop.close()

    @property
    def base_url(self) -> str:
        """Where this machine reaches it (loopback when bound to every interface)."""
        return addresses.url(addresses.local_host(self._host), self.port)

    @property
    def public_url(self) -> str:
        """The URL to show people (a phone opening the wallets page): for a wildcard bind,
        this machine's address on its network."""
        return addresses.url(addresses.reachable_host(self._host), self.port)

    @property
    def gateway_url(self) -> str:
        return self.base_url

    def stop(self) -> None:
        if self._stopped:
            return
        self._stopped = True
        self._loop.call_soon_threadsafe(self._loop.stop)
        self._thread.join(10)

    def __enter__(self) -> RunningEmulator:
        return self

    def __exit__(self, exc_type: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> None:
        self.stop()


def start_emulator(settings: Any, host: str = "127.0.0.1", port: int = 0,
                   faults: tuple[FaultRule, ...] = ()) -> RunningEmulator:
    """Serve the emulator in-process on ``host:port`` (0: a free port) until ``.stop()``."""
    options = _options(settings, faults)
    exposure = Exposure.for_bind(host, settings.emulator.allowed_hosts)
    return RunningEmulator(build_app(options, exposure), host, port, exposure.token)


def _options(settings: Any, faults: tuple[FaultRule, ...]) -> EmulatorOptions:
    options = EmulatorOptions.from_settings(settings)
    if faults:
        options = EmulatorOptions(**{**options.__dict__, "faults": options.faults + faults})
    return options


def _bind_error(exc: OSError) -> OSError:
    """The bare system reason ("Address already in use"), without asyncio's long wrapper
    ("error while attempting to bind on address ('127.0.0.1', 8765): address already in use")."""
    if exc.errno is None:
        return exc
    return OSError(exc.errno, os.strerror(exc.errno))


def serve(settings: Any, host: str, port: int, faults: tuple[FaultRule, ...] = (),
          on_ready: Callable[[str], None] | None = None,
          on_token: Callable[[str], None] | None = None) -> None:
    """Serve in the foreground until Ctrl-C (SIGINT) or SIGTERM, then close cleanly.

    ``on_ready`` receives the base URL once the socket is bound (the real port when 0 was asked;
    for a wildcard host, this machine's network address, which a phone can open);
    ``on_token`` then the control API's token when the host is beyond loopback.
    Raises OSError when the address cannot be bound (port in use, no such interface).
    """
    exposure = Exposure.for_bind(host, settings.emulator.allowed_hosts)
    app = build_app(_options(settings, faults), exposure)

    def ready(base_url: str) -> None:
        if on_ready is not None:
            on_ready(base_url)
        if on_token is not None and exposure.token is not None:
            on_token(exposure.token)

    asyncio.run(_serve(app, host, port, ready))


async def _serve(app: web.Application, host: str, port: int,
                 on_ready: Callable[[str], None] | None) -> None:
    runner = web.AppRunner(app, access_log=None, handle_signals=False, shutdown_timeout=2.0)
    await runner.setup()
    try:
        site = web.TCPSite(runner, host, port)
        try:
            await site.start()
        except OSError as exc:
            raise _bind_error(exc) from exc
        sockets = getattr(site._server, "sockets", None)
        bound = sockets[0].getsockname()[1] if sockets else port
        stop = asyncio.Event()
        loop = asyncio.get_running_loop()
        for signum in (signal.SIGINT, signal.SIGTERM):
            loop.add_signal_handler(signum, stop.set)
        if on_ready is not None:
            on_ready(addresses.url(addresses.reachable_host(host), bound))
        await stop.wait()
    finally:
        await runner.cleanup()
