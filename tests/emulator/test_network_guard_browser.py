"""A hostile web page in a real browser (Debian's chromium driven by Playwright) tries to steer
the emulator on this machine: the POSTs a page may send to any address without asking
(`text/plain`, no body) are refused with 415, a JSON POST is stopped by the browser's CORS
preflight, and the emulator's state is unchanged (issue 20 item 9)."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import pytest
import requests

from tests.emulator.test_gateway_browser import browser  # noqa: F401 (the fixture)
from tests.emulator.wirehelp import create_form, post

pytestmark = pytest.mark.browser

ATTACK = """
async (emulator) => {
  const tried = {};
  const rule = JSON.stringify({endpoint: "*", mode: "http500", count: 0});
  const send = async (name, path, init) => {
    try { const r = await fetch(emulator + path, init); tried[name] = r.type + ":" + r.status; }
    catch (e) { tried[name] = "blocked"; }
  };
  await send("text", "/_emulator/faults",
             {method: "POST", mode: "no-cors", headers: {"Content-Type": "text/plain"},
              body: rule});
  await send("bare", "/_emulator/reset", {method: "POST", mode: "no-cors"});
  await send("json", "/_emulator/reset",
             {method: "POST", headers: {"Content-Type": "application/json"}, body: "{}"});
  return tried;
}
"""


@pytest.fixture
def hostile_site() -> Iterator[str]:
    """Another origin: a page of its own on another port."""

    class Page(BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            body = b"<!DOCTYPE html><title>cat pictures</title>"
            self.send_response(200)
            self.send_header("Content-Type", "text/html")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *args: object) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Page)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/"
    finally:
        server.shutdown()
        server.server_close()


def test_a_web_page_cannot_reset_or_fault_the_emulator(emulator: Any, browser: Any,  # noqa: F811
                                                        hostile_site: str) -> None:
    post(emulator.base_url, "/v2/create", create_form("v2"))
    page = browser.new_page()
    try:
        page.goto(hostile_site)
        tried = page.evaluate(ATTACK, emulator.base_url)
    finally:
        page.close()
    # the no-cors POSTs reached the emulator (opaque answers) and were refused there; the JSON
    # one never left the browser (its preflight gets no CORS grant)
    assert tried == {"text": "opaque:0", "bare": "opaque:0", "json": "blocked"}
    faults = requests.get(emulator.base_url + "/_emulator/faults", timeout=5).json()["faults"]
    ledger = requests.get(emulator.base_url + "/_emulator/ledger", timeout=5).json()
    assert faults == []
    assert ledger["requests"].get("create") == 1  # not reset
