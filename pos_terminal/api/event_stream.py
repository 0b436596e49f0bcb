"""`GET /v1/events`: the counter's events for the POS (Server-Sent Events), resumable with
Last-Event-ID."""

from __future__ import annotations

import json
import re
from collections.abc import AsyncIterator
from typing import Any

from fastapi import APIRouter, Header, Request
from sse_starlette.sse import EventSourceResponse

from pos_terminal.api.auth import Authorised
from pos_terminal.api.documented import responses
from pos_terminal.api.routing import StrictJsonRoute
from pos_terminal.api.terminal import terminal_of

ID = re.compile(r"[0-9]{1,18}")

router = APIRouter(tags=["events"], route_class=StrictJsonRoute)


@router.get("/v1/events", summary="The counter's events (text/event-stream)",
            response_class=EventSourceResponse, responses={
                **responses("GET /v1/events"),
                200: {"description": "Server-Sent Events: `event:` the type, `id:` a number "
                      "that keeps increasing across restarts, `data:` one JSON object "
                      "(docs/terminal-api.md#events)",
                      "content": {"text/event-stream": {"schema": {"type": "string"}}}}})
async def events(request: Request, _token: Authorised,
                 last_event_id: str | None = Header(default=None)) -> EventSourceResponse:
    feed = terminal_of(request).feed
    # a malformed id (5000 digits, letters) is ignored: the stream starts from now
    after = int(last_event_id) if last_event_id and ID.fullmatch(last_event_id) else None

    async def stream() -> AsyncIterator[dict[str, Any]]:
        async for number, data in feed.stream(after):
            yield {"id": str(number), "event": data["type"],
                   "data": json.dumps(data, ensure_ascii=False)}

    return EventSourceResponse(stream(), ping=15)
