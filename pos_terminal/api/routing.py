"""The Terminal API's routes read JSON bodies with the one strict reader
(pos_terminal/base/strict_json.py): UTF-8 only, no duplicate key, no NaN/Infinity, a depth
limit. A refused body is a JSONDecodeError to FastAPI, so it answers 400 `invalid_json` through
the error table and no handler runs: nothing is charged."""

from __future__ import annotations

from collections.abc import Callable, Coroutine
from typing import Any

from fastapi import Request, Response
from fastapi.routing import APIRoute

from pos_terminal.base import strict_json


class StrictJsonRequest(Request):
    async def json(self) -> Any:
        if not hasattr(self, "_json"):
            self._json = strict_json.loads(await self.body())
        return self._json


class StrictJsonRoute(APIRoute):
    def get_route_handler(self) -> Callable[[Request], Coroutine[Any, Any, Response]]:
        handler = super().get_route_handler()

        async def strict(request: Request) -> Response:
            return await handler(StrictJsonRequest(request.scope, request.receive))

        return strict
