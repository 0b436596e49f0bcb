"""The Terminal API as an ASGI application (FastAPI): the counter as an HTTP/JSON service for
the shop's POS software, its OpenAPI document at /openapi.json."""

from __future__ import annotations

from fastapi import FastAPI

from pos_terminal import __version__
from pos_terminal.api import (
    display,
    errors,
    event_stream,
    payments,
    refunds,
    reports,
    webhooks,
)
from pos_terminal.api.guard import DoorGuard
from pos_terminal.api.headers import SecurityHeaders
from pos_terminal.api.limits import AccessLog, BodyLimit
from pos_terminal.api.pools import Pools
from pos_terminal.api.terminal import Terminal
from pos_terminal.base.hosts import HostRule

DESCRIPTION = """The counter, driven by the shop's POS software. Every `/v1` call needs
`Authorization: Bearer TOKEN` (`pos-terminal api-token add NAME`). Payments are idempotent on
the sale system's `sale_ref`, refunds on `refund_ref`. Errors are `{"error": {"code",
"message"}}` by one table (docs/terminal-api.md). A wallet's notice
(`/v1/webhooks/{wallet}`) carries no token: its signature is checked instead."""


def create_app(terminal: Terminal, rule: HostRule | None = None) -> FastAPI:
    app = FastAPI(title="pos-terminal Terminal API", version=__version__,
                  description=DESCRIPTION, docs_url=None, redoc_url=None,
                  openapi_url="/openapi.json")
    app.state.terminal = terminal
    app.state.pools = Pools(terminal.settings.api.max_payments)
    if rule is None:
        rule = HostRule.for_bind("127.0.0.1", terminal.settings.api.allowed_hosts)
    errors.install(app)
    # each call documents its own answer and errors (api/documented.py)
    for module in (payments, refunds, reports, event_stream, display, webhooks):
        app.include_router(module.router)
    app.add_middleware(BodyLimit)
    app.add_middleware(DoorGuard, rule=rule)  # before any body is read
    app.add_middleware(AccessLog)  # it sees the 413s too
    app.add_middleware(SecurityHeaders)  # outermost: every answer, refusals included
    return app
