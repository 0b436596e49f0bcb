"""The headers every answer of the Terminal API carries (an ASGI layer, outermost): what a
browser must not do with an answer, whoever asked for it.

* `X-Content-Type-Options: nosniff`: a JSON answer, the QR's SVG or the display's script is never
  read as anything but its own type.
* `X-Frame-Options: DENY` and CSP `frame-ancestors 'none'`: no page of another site frames the
  display (or anything else) to overlay it: the customer sees the counter's screen, or nothing.
* `Referrer-Policy: no-referrer`: the display's address carries its token (`?token=`).
* `Content-Security-Policy`: `default-src 'none'` for every answer (JSON, SVG, the event streams:
  nothing in them may load or run anything). The display's page sets its own, DISPLAY_CSP: its
  script and style sheet from this server only (files, never inline: api/static/), its QR as an
  image from here (or drawn by its own script: an inline SVG or a canvas needs nothing more),
  its events from here, no plugins, no <base>, no forms.
"""

from __future__ import annotations

from pos_terminal.api.limits import App, Message, Receive, Scope, Send

API_CSP = "default-src 'none'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'"
DISPLAY_CSP = ("default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
               "connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'")

ALWAYS: tuple[tuple[bytes, bytes], ...] = (
    (b"x-content-type-options", b"nosniff"),
    (b"x-frame-options", b"DENY"),
    (b"referrer-policy", b"no-referrer"),
)

_NAMES = frozenset(name for name, _value in ALWAYS)


class SecurityHeaders:
    def __init__(self, app: App) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = [(k, v) for k, v in message.get("headers", [])
                           if k.lower() not in _NAMES]
                if not any(k.lower() == b"content-security-policy" for k, _v in headers):
                    headers.append((b"content-security-policy", API_CSP.encode()))
                message = {**message, "headers": headers + list(ALWAYS)}
            await send(message)

        await self.app(scope, receive, with_headers)
