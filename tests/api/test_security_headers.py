"""The headers every answer of the Terminal API carries (api/headers.py), read as raw bytes on a
socket: what a browser must not do with an answer. The display's page works under its strict
Content-Security-Policy: tests/api/test_display.py and test_display_beside_ui.py fail on any
refusal Chromium reports."""

from __future__ import annotations

import re
import socket
from urllib.parse import urlsplit

import pytest

from pos_terminal.api.display import page
from tests.api.conftest import Api

# answers of every kind: HTML, script, style, SVG (404 here), JSON, errors, the refusal of a
# foreign Host, the event streams (only their headers are read)
PATHS = ["/display", "/display/static/display.js", "/display/static/display.css",
         "/display/qr/none.svg", "/display/events", "/v1/events", "/v1/payments?sale_ref=a",
         "/openapi.json", "/no/such/path"]


def _headers(api: Api, path: str, *, host: str | None = None, token: bool = True
             ) -> dict[str, str]:
    """The status line and headers of one answer, read up to the blank line."""
    parts = urlsplit(api.url)
    auth = f"Authorization: Bearer {api.token}\r\n" if token else ""
    raw = (f"GET {path} HTTP/1.1\r\nHost: {host or parts.netloc}\r\n{auth}"
           "Connection: close\r\n\r\n").encode()
    data = b""
    with socket.create_connection((parts.hostname, parts.port), timeout=10) as sock:
        sock.sendall(raw)
        while b"\r\n\r\n" not in data and (chunk := sock.recv(65536)):
            data += chunk
    head = data.split(b"\r\n\r\n")[0].decode("latin-1").split("\r\n")
    fields: dict[str, str] = {":status": head[0].split(" ")[1]}
    for line in head[1:]:
        name, _sep, value = line.partition(":")
        assert name.lower() not in fields, f"{name} twice in {path}"
        fields[name.lower()] = value.strip()
    return fields


def _answers(api: Api) -> list[tuple[str, dict[str, str]]]:
    found = [(path, _headers(api, path)) for path in PATHS]
    found.append(("no token", _headers(api, "/v1/payments?sale_ref=a", token=False)))
    found.append(("foreign Host", _headers(api, "/display", host="evil.example")))
    statuses = {fields[":status"] for _path, fields in found}
    assert {"200", "401", "404", "421"} <= statuses  # every kind of answer was looked at
    return found


def _directives(policy: str) -> dict[str, list[str]]:
    return {d.split()[0]: d.split()[1:] for d in (p.strip() for p in policy.split(";")) if d}


def test_every_answer_says_nosniff(api: Api) -> None:
    for path, fields in _answers(api):
        assert fields.get("x-content-type-options") == "nosniff", path


def test_no_page_may_frame_an_answer(api: Api) -> None:
    for path, fields in _answers(api):
        assert fields.get("x-frame-options") == "DENY", path
        assert _directives(fields["content-security-policy"])["frame-ancestors"] == ["'none'"]


def test_no_answer_hands_its_address_on(api: Api) -> None:
    # the display's address carries its token (?token=)
    for path, fields in _answers(api):
        assert fields.get("referrer-policy") == "no-referrer", path


def test_every_answer_has_a_content_security_policy(api: Api) -> None:
    for path, fields in _answers(api):
        policy = _directives(fields["content-security-policy"])
        assert policy["default-src"] == ["'none'"], path
        assert policy["base-uri"] == ["'none'"] and policy["form-action"] == ["'none'"], path
        if path == "/display":
            # the page: its own script, style, images and events; nothing inline, no eval
            assert policy["script-src"] == ["'self'"]
            assert policy["style-src"] == ["'self'"]
            assert policy["connect-src"] == ["'self'"]
            assert set(policy["img-src"]) <= {"'self'", "data:"}
        else:
            assert set(policy) == {"default-src", "frame-ancestors", "base-uri", "form-action"}


@pytest.mark.parametrize("token", [None, "pt_a</script><script>alert(1)</script>"])
def test_the_display_page_has_no_inline_script_or_style(token: str | None) -> None:
    """What lets its CSP say script-src 'self': every script is a file or a JSON data block."""
    html = page(token)
    scripts = re.findall(r"<script([^>]*)>(.*?)</script>", html, re.S)
    assert len(scripts) == 2
    for attributes, body in scripts:
        assert ('src="/display/static/' in attributes and not body) or (
            'type="application/json"' in attributes and "<" not in body)
    assert "<style" not in html and " style=" not in html
    assert not re.search(r"\son[a-z]+\s*=", html, re.I)  # no inline event handlers
