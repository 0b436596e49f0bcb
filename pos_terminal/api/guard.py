"""The API's door, before any route (an ASGI layer): a request is answered only when it names
this machine and is framed one way.

* **Host** (DNS rebinding, base/hosts.py): a Host header that is not one of this machine's
  names, or of `[api] allowed_hosts`, gets 421 `wrong_host` on every path, the display included.
* **Framing** (request smuggling, RFC 9112 §6.1 and §6.3): a request with both Content-Length
  and Transfer-Encoding, or Transfer-Encoding in HTTP/1.0, can be read two ways: a proxy in front
  may see one request where this server would see two. It is refused with 400 `invalid_http`
  before its body is read, and the connection is closed after the answer, so whatever the
  client sent after it on that connection never runs."""

from __future__ import annotations

from pos_terminal.api.limits import App, Receive, Scope, Send, refuse
from pos_terminal.base.hosts import HostRule
from pos_terminal.base.i18n import _


def framing_problem(scope: Scope) -> bool:
    """Whether the request can be framed two ways (or names two hosts)."""
    names = [name.lower() for name, _value in scope.get("headers") or []]
    if names.count(b"host") > 1:  # RFC 9112 §3.2: 400
        return True
    if b"transfer-encoding" not in names:
        return False
    return b"content-length" in names or scope.get("http_version") == "1.0"


def host_of(scope: Scope) -> str | None:
    for name, value in scope.get("headers") or []:
        if name.lower() == b"host":
            return str(value.decode("latin-1"))
    return None


class DoorGuard:
    def __init__(self, app: App, rule: HostRule) -> None:
        self.app = app
        self.rule = rule

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        if framing_problem(scope):
            await refuse(send, "invalid_http", _(
                "The request has both Content-Length and Transfer-Encoding (or "
                "Transfer-Encoding in HTTP/1.0): it can be read two ways, so it is refused and "
                "the connection closed. Nothing was charged."))
            return
        host = host_of(scope)
        if host is not None and not self.rule.allows(host):
            await refuse(send, "wrong_host", _(
                "This terminal does not answer to that Host name: open it by one of its own "
                "addresses (localhost, this machine's IP address or host name), or add the name "
                "to [api] allowed_hosts. Nothing was done."))
            return
        await self.app(scope, receive, send)
