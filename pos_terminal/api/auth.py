"""Bearer tokens on every /v1 call (401 without an active one), scopes per call (403)."""

from __future__ import annotations

import ipaddress
from collections.abc import Callable
from typing import Annotated

from fastapi import Depends, Request
from fastapi.security import HTTPAuthorizationCredentials, HTTPBearer

from pos_terminal.api.errors import ApiError
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


def need(scope: str) -> Callable[..., ApiToken]:
    """A dependency: the request's token, which must carry `scope`."""

    def check(request: Request, credentials: Bearer) -> ApiToken:
        token = token_of(terminal_of(request), credentials.credentials if credentials else None)
        if not token.allows(scope):
            raise ApiError("forbidden", _("The token {name} has no {scope} scope (it has: "
                                          "{scopes}). Nothing was done.").format(
                name=token.name, scope=scope, scopes=", ".join(token.scopes)))
        return token

    return check


def any_token(request: Request, credentials: Bearer) -> ApiToken:
    return token_of(terminal_of(request), credentials.credentials if credentials else None)


PayToken = Annotated[ApiToken, Depends(need("pay"))]
RefundToken = Annotated[ApiToken, Depends(need("refund"))]
ReportsToken = Annotated[ApiToken, Depends(need("reports"))]
AnyToken = Annotated[ApiToken, Depends(any_token)]


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
    if not found.allows("display"):
        raise ApiError("forbidden", _("The customer display needs a token with the display "
                                      "scope: pos-terminal api-token add NAME --scope "
                                      "display."))
