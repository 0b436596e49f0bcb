"""The customer display: `GET /display`, a page for a second screen or a tablet facing the
customer (the amount, "scan your payment code", the gateway QR when the cashier shows one, then
PAID / NOT PAID, or a late charge and its return, in Vietnamese and English), fed by the
counter's events.

Each connection of its event stream (the page loading, reloading, or its EventSource
reconnecting) first replays the events of the sale under way, so the page shows it at once; the
page says plainly when the counter's stream is not there.

No token on loopback (a screen plugged into the counter); from elsewhere, a token with the
display scope in the query string (`?token=`), since a browser's EventSource sends no headers.
The access log never writes query strings."""

from __future__ import annotations

import html
import io
import json
from collections.abc import AsyncIterator
from importlib import resources
from typing import Any
from urllib.parse import quote

import segno
from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, Response
from sse_starlette.sse import EventSourceResponse

from pos_terminal.api.auth import display_allowed
from pos_terminal.api.documented import responses
from pos_terminal.api.errors import ApiError
from pos_terminal.api.events import EventFeed, for_display
from pos_terminal.api.headers import DISPLAY_CSP
from pos_terminal.api.routing import StrictJsonRoute
from pos_terminal.api.terminal import terminal_of
from pos_terminal.base.i18n import N_, _, translate_to

router = APIRouter(prefix="/display", tags=["customer display"], route_class=StrictJsonRoute)

TEXT = {
    "amount": N_("Amount to pay"),
    "welcome": N_("Welcome"),
    "scan": N_("Scan your payment code"),
    "qr": N_("Scan this QR with your banking or wallet app"),
    "checking": N_("Checking the payment…"),
    "paid": N_("PAID - thank you!"),
    "not_paid": N_("NOT PAID - please pay another way or ask the cashier"),
    "unknown": N_("Outcome not known yet - the cashier will tell you"),
    "late": N_("Charged after the sale was closed: this is not a payment for it. The money is "
               "returned to you - ask the cashier"),
    "returned": N_("Your money has been returned to you"),
    "underpaid": N_("Only part of the transfer arrived: not paid yet - the cashier will tell you "
                    "how to pay the rest"),
    "arrived": N_("Arrived"),
    "missing": N_("Missing"),
    "offline": N_("The counter is not connected - please ask the cashier"),
}
#: the events that begin what the display shows (a sale waiting for a code, a payment sent, a
#: gateway QR): a new connection replays from the last of them
STARTS = frozenset({"awaiting_code", "payment_started", "gateway_shown"})


def _texts() -> dict[str, dict[str, str]]:
    return {lang: {k: translate_to(lang, v) for k, v in TEXT.items()} for lang in ("vi", "en")}


def _query(token: str | None) -> str:
    return f"?token={quote(token, safe='')}" if token else ""


#: the page's own files (api/static/), served beside it: its script is a file, never inline,
#: so the page's Content-Security-Policy (api/headers.py) allows script from 'self' only
STATIC = {"display.js": "text/javascript; charset=utf-8",
          "display.css": "text/css; charset=utf-8"}


def _static(name: str) -> str:
    return resources.files("pos_terminal.api").joinpath("static", name).read_text("utf-8")


def page(token: str | None) -> str:
    data = json.dumps({"text": _texts(), "query": _query(token)}, ensure_ascii=False)
    # JSON inside a <script> data block: every "<" escaped, so no text can close the element
    return (_static("display.html").replace("__DATA__", data.replace("<", "\\u003c"))
            .replace("__QUERY_ATTR__", html.escape(_query(token))))


@router.get("", response_class=HTMLResponse, summary="The customer display's page",
            responses=responses("GET /display"))
def display(request: Request, token: str | None = None) -> HTMLResponse:
    display_allowed(request, token)
    return HTMLResponse(page(token), headers={"Cache-Control": "no-store",
                                               "Content-Security-Policy": DISPLAY_CSP})


@router.get("/static/{name}", summary="The customer display's script and style sheet",
            response_class=Response, responses={
                **responses("GET /display/static/{name}"),
                200: {"description": "display.js or display.css",
                      "content": {"text/javascript": {"schema": {"type": "string"}},
                                  "text/css": {"schema": {"type": "string"}}}}})
def static(name: str, request: Request, token: str | None = None) -> Response:
    display_allowed(request, token)
    if name not in STATIC:
        raise ApiError("not_found", _("The customer display has no file {name}.").format(
            name=name))
    return Response(_static(name), media_type=STATIC[name],
                    headers={"Cache-Control": "no-store"})


@router.get("/events", summary="The display's events (SSE)",
            response_class=EventSourceResponse, responses={
                **responses("GET /display/events"),
                200: {"description": "Server-Sent Events, the display's narrower stream",
                      "content": {"text/event-stream": {"schema": {"type": "string"}}}}})
async def display_events(request: Request, token: str | None = None) -> EventSourceResponse:
    display_allowed(request, token)
    feed = terminal_of(request).feed

    def sent(number: int, shown: dict[str, Any]) -> dict[str, Any]:
        return {"id": str(number), "event": shown["type"],
                "data": json.dumps(shown, ensure_ascii=False)}

    async def events() -> AsyncIterator[dict[str, Any]]:
        replay, newest = current_sale(feed)
        for number, again in replay:
            yield sent(number, again)
        async for number, data in feed.stream(newest):
            shown = for_display(data)
            if shown is not None:
                yield sent(number, shown)

    return EventSourceResponse(events(), ping=15)


def current_sale(feed: EventFeed) -> tuple[list[tuple[int, dict[str, Any]]], int]:
    """The display's events since the last that began a sale (`replayed`, with their age in ms:
    the page keeps a result on screen only for a while), and the id to stream on from. The page
    picks out its sale from them as from live events."""
    kept, newest = feed.recent()
    shown: list[tuple[int, dict[str, Any], int]] = []
    for number, data, age in kept:
        view = for_display(data)
        if view is not None:
            shown.append((number, view, age))
    starts = [i for i, (_n, data, _age) in enumerate(shown) if data["type"] in STARTS]
    if not starts:
        return [], newest
    return [(number, {**data, "replayed": True, "age_ms": age})
            for number, data, age in shown[starts[-1]:]], newest


@router.get("/qr/{app_trans_id}.svg", summary="A gateway order's QR for the display",
            response_class=Response, responses={
                **responses("GET /display/qr/{app_trans_id}.svg"),
                200: {"description": "the QR as SVG",
                      "content": {"image/svg+xml": {"schema": {"type": "string"}}}}})
def qr(app_trans_id: str, request: Request, token: str | None = None) -> Response:
    display_allowed(request, token)
    view = terminal_of(request).counter.payments.find(app_trans_id)
    if view is None or not view.order_url:
        raise ApiError("not_found", _("No gateway order {app_trans_id} to show.").format(
            app_trans_id=app_trans_id))
    out = io.BytesIO()
    # The answer's qr_code (VietQR: the wallet's app and any banking app) when it has one, as
    # wallets ask merchants to show; the order page's URL otherwise (a legacy generation).
    segno.make(view.qr_code or view.order_url, error="m").save(out, kind="svg", scale=8,
                                                               border=2)
    return Response(out.getvalue(), media_type="image/svg+xml",
                    headers={"Cache-Control": "no-store"})
