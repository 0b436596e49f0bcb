"""What the emulator answers, and to whom, once something other than this machine can reach it.

Three rules, applied to every request before any route (an aiohttp middleware):

* **Host header** (DNS rebinding; the one rule of base/hosts.py): a web page on a name the
  attacker controls can make that name resolve to 127.0.0.1 and then talk to the emulator as
  its own origin. Every request whose Host is not one of the emulator's own addresses is
  refused with 421 and a sentence: `localhost`, an IP address of this machine (checked by
  binding to it, so every interface counts), this machine's host name, the bound host, and the
  names of `[emulator] allowed_hosts`.
* **The control API** (`/_emulator/*`) takes POSTs only as `application/json` (415 otherwise): a
  web page can send `text/plain`, form or bodiless POSTs to any address without asking, but a
  JSON POST to another origin needs a CORS preflight, which the emulator never grants.
* **A token for the control API** when bound beyond loopback (0.0.0.0, ::, a network address):
  generated at start, printed by `pos-terminal emulator`, and required as
  `Authorization: Bearer <token>` on every `/_emulator/*` request (401 otherwise).

The service's own endpoints and the wallet pages stay as the real service has them.
"""

from __future__ import annotations

import hmac
import secrets
from collections.abc import Awaitable, Callable, Iterable
from dataclasses import dataclass
from urllib.parse import urlsplit

from aiohttp import hdrs, web
from aiohttp.typedefs import Middleware

# the one Host rule of every door (base/hosts.py)
from pos_terminal.base.hosts import HostRule, is_loopback

CONTROL_PREFIX = "/_emulator/"
Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]


@dataclass(frozen=True)
class Exposure:
    """Who may reach this emulator: its own names, and the control token (None on loopback)."""

    bound: str
    names: frozenset[str]
    token: str | None

    @classmethod
    def for_bind(cls, host: str, allowed_hosts: Iterable[str] = ()) -> Exposure:
        token = None if is_loopback(host) else secrets.token_urlsafe(24)
        return cls(host, HostRule.for_bind(host, allowed_hosts).names, token)

    def host_allowed(self, header: str) -> bool:
        return HostRule(self.names).allows(header)

    def token_matches(self, authorization: str | None) -> bool:
        if self.token is None:
            return True
        scheme, _sep, given = (authorization or "").partition(" ")
        return scheme.lower() == "bearer" and hmac.compare_digest(
            given.strip().encode(), self.token.encode())

    def refusal(self, request: web.Request) -> web.Response | None:
        host = request.headers.get(hdrs.HOST)  # absent only in HTTP/1.0: not a browser
        if host is not None and not self.host_allowed(host):
            return _refused(421, f"this emulator does not answer to the Host {host[:100]!r}: "
                                 "open it by one of its own addresses (localhost, this "
                                 "machine's IP address or host name), or add the name to "
                                 "[emulator] allowed_hosts")
        if not request.path.startswith(CONTROL_PREFIX):
            return None
        if not self.token_matches(request.headers.get(hdrs.AUTHORIZATION)):
            return _refused(401, "the control API needs the token printed when the emulator "
                                 "started: send it as 'Authorization: Bearer <token>'")
        if request.method == hdrs.METH_POST and request.content_type != "application/json":
            return _refused(415, "the control API takes POST bodies only as application/json "
                                 f"(got {request.content_type!r}); send a JSON body, {{}} if "
                                 "there is nothing to say")
        return None

    def middleware(self) -> Middleware:
        @web.middleware
        async def guard(request: web.Request, handler: Handler) -> web.StreamResponse:
            refused = self.refusal(request)
            return refused if refused is not None else await handler(request)

        return guard


def _refused(status: int, error: str) -> web.Response:
    return web.json_response({"error": error}, status=status)


def callback_allowed(url: str, hosts: Iterable[str]) -> bool:
    """Whether a callback may be sent to `url`: its host is one of `[emulator] callback_hosts`
    (loopback by default) or "*" is."""
    allowed = {h.lower().strip("[]").rstrip(".") for h in hosts}
    if "*" in allowed:
        return True
    try:
        name = urlsplit(url).hostname
    except ValueError:
        return False
    return name is not None and name.rstrip(".") in allowed
