"""ASGI layers in front of the API: the 64 kB body limit and the access log.

The body limit answers 413 from the Content-Length header alone, before reading anything, and
stops reading a chunked body as soon as it passes the limit: a 2 MB body is never read whole.
The access log writes method, path (never the query string: a display token may ride in it),
status and time; bodies are never logged (uvicorn's own access log is off)."""

from __future__ import annotations

import json
import logging
import time
from collections.abc import Awaitable, Callable, MutableMapping
from typing import Any

from pos_terminal.api.errors import ERRORS, error_body
from pos_terminal.base.i18n import _

MAX_BODY = 64 * 1024
#: smaller limits under some paths: a wallet's notice is about 1 kB, and anyone may
#: send one (no token), so a notice is read to 16 kB at most
SMALLER = (("/v1/webhooks/", 16 * 1024),)

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
App = Callable[[Scope, Receive, Send], Awaitable[None]]

access_log = logging.getLogger("pos_terminal.api.access")


async def refuse(send: Send, code: str, message: str) -> None:
    """Answer by the error table and close the connection (nothing after it on the connection
    is read)."""
    body = json.dumps(error_body(code, message), ensure_ascii=False).encode("utf-8")
    await send({"type": "http.response.start", "status": ERRORS[code][0],
                "headers": [(b"content-type", b"application/json"),
                            (b"content-length", str(len(body)).encode()),
                            (b"connection", b"close")]})
    await send({"type": "http.response.body", "body": body})


def _too_large(limit: int) -> str:
    return _("The body is over {limit} kB: nothing was read further and nothing was "
             "charged.").format(limit=limit // 1024)


class BodyLimit:
    """Reads at most MAX_BODY bytes of a request body (less under the SMALLER paths), then
    hands it on whole."""

    def __init__(self, app: App, limit: int = MAX_BODY) -> None:
        self.app = app
        self.default = limit

    def limit_of(self, path: str) -> int:
        return min([self.default, *(size for prefix, size in SMALLER
                                    if path.startswith(prefix))])

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope["method"] in ("GET", "HEAD", "OPTIONS"):
            await self.app(scope, receive, send)
            return
        limit = self.limit_of(str(scope.get("path", "")))
        headers = dict(scope.get("headers") or [])
        declared = headers.get(b"content-length")
        if declared is not None:
            try:
                too_big = int(declared) > limit
            except ValueError:
                too_big = True
            if too_big:
                await refuse(send, "body_too_large", _too_large(limit))
                return
        chunks: list[bytes] = []
        size = 0
        more = True
        while more:
            message = await receive()
            if message["type"] != "http.request":  # the client went away
                return
            chunk = message.get("body", b"")
            size += len(chunk)
            if size > limit:
                await refuse(send, "body_too_large", _too_large(limit))
                return
            chunks.append(chunk)
            more = bool(message.get("more_body", False))
        body = b"".join(chunks)
        delivered = False

        async def replay() -> Message:
            nonlocal delivered
            if not delivered:
                delivered = True
                return {"type": "http.request", "body": body, "more_body": False}
            return await receive()

        await self.app(scope, replay, send)


class AccessLog:
    """One line per request: method, path, status, milliseconds. Nothing of the body."""

    def __init__(self, app: App) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        start = time.monotonic()
        status = 0

        async def sending(message: Message) -> None:
            nonlocal status
            if message["type"] == "http.response.start":
                status = int(message["status"])
            await send(message)

        try:
            await self.app(scope, receive, sending)
        finally:
            access_log.info("%s %s %s %.0f ms", scope["method"], scope["path"], status,
                            (time.monotonic() - start) * 1000)
