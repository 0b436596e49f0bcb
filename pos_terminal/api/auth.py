"""Bearer tokens on every /v1 call (401 without an active one), scopes per call (403)."""

from __future__ import annotations

import ipaddress
from typing import Annotated

from fastapi import Depends, Request
from fastapi.security import HTTPAuthorizationCredentials, HTTPBearer

from pos_terminal.api.errors import ApiError
from pos_terminal.api.scopes import scopes_of
from pos_terminal.api.terminal import Terminal, terminal_of
from pos_terminal.base.i18n import _
from pos_terminal.counter.admin import ApiToken

_bearer = HTTPBearer(auto_error=False, description="A token from `pos-terminal api-token add`")
Bearer = Annotated[HTTPAuthorizationCredentials | None, Depends(_bearer)]


def _unauthorized() -> ApiError:
    return ApiError("unauthorized", _("Send Authorization: Bearer TOKEN with an active token "
                                      "(pos-terminal api-token add NAME). Nothing was done."))


def token_of(terminal: Terminal, token: str | None) -> ApiToken:
    found = terminal.tokens.verify(token) if token else None
    if found is None:
        raise _unauthorized()
    return found


def _route_scopes(request: Request) -> tuple[str, ...]:
    route = request.scope.get("route")
    return scopes_of(request.method, str(getattr(route, "path", "")))


def authorised(request: Request, credentials: Bearer) -> ApiToken:
    """A dependency of every /v1 call: the request's token, which must carry one of the scopes
    the one table (api/scopes.py) gives this call."""
    token = token_of(terminal_of(request), credentials.credentials if credentials else None)
    wanted = _route_scopes(request)
    if not any(token.allows(scope) for scope in wanted):
        raise ApiError("forbidden", _("The token {name} has no {scope} scope (it has: "
                                      "{scopes}). Nothing was done.").format(
            name=token.name, scope=" or ".join(wanted) or "?", scopes=", ".join(token.scopes)))
    return token


Authorised = Annotated[ApiToken, Depends(authorised)]


def from_loopback(request: Request) -> bool:
    host = request.client.host if request.client else ""
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def display_allowed(request: Request, token: str | None) -> None:
    """The customer display: free on loopback, else a token with the display scope (in the
    query string: a browser's EventSource cannot send headers)."""
    if from_loopback(request):
        return
    found = token_of(terminal_of(request), token)
    if not any(found.allows(scope) for scope in _route_scopes(request)):
        raise ApiError("forbidden", _("The customer display needs a token with the display "
                                      "scope: pos-terminal api-token add NAME --scope "
                                      "display."))
