"""`[api] with_ui`: the Terminal API in the UI's own process, over its counter; the customer
display's stream then follows the cashier's payments (the real App, driven by keys)."""

from __future__ import annotations

import json
import threading
from typing import Any

import pytest
import requests

from pos_terminal.cli.ui_cmds import serve_beside
from pos_terminal.config import Settings
from pos_terminal.tui.screens.pay import PayScreen
from tests.conftest import fresh_code
from tests.tui.conftest import KeyClock, checkout, key_clock, make_app
from tests.tui.helpers import scan_burst, type_keys, wait_until

pytestmark = pytest.mark.asyncio
__all__ = ["checkout", "key_clock", "make_app"]


def _display_events(url: str, into: list[dict[str, Any]], until: str) -> None:
    with requests.get(url + "/display/events", stream=True, timeout=30) as answer:
        for raw in answer.iter_lines(decode_unicode=True):
            if raw.startswith("data:"):
                into.append(json.loads(raw[5:]))
                if into[-1]["type"] == until:
                    return


async def test_the_display_follows_the_cashiers_sale(make_app: Any, key_clock: KeyClock,
                                                     settings: Settings, emulator: Any) -> None:
    app = make_app(settings=settings.replace_section("api", port=0, with_ui=True))
    server = serve_beside(app.counter)
    seen: list[dict[str, Any]] = []
    reader = threading.Thread(target=_display_events, args=(server.url, seen,
                                                             "payment_settled"))
    reader.start()
    try:
        async with app.run_test(size=(80, 24)) as pilot:
            await wait_until(pilot, lambda: server.terminal.feed.listening > 0,
                             what="the display listening")
            await type_keys(pilot, key_clock, *"30000", "enter")
            await wait_until(pilot, lambda: isinstance(pilot.app.screen, PayScreen),
                             what="Pay screen")
            await wait_until(pilot, lambda: any(e["type"] == "awaiting_code" for e in seen),
                             what="the display asked for the code")
            await scan_burst(pilot, key_clock, fresh_code(emulator, "an"))
            await wait_until(pilot, lambda: bool(seen) and seen[-1]["type"] ==
                             "payment_settled", what="the display told PAID")
        reader.join(10)
    finally:
        server.stop()
    assert seen[0] == {"type": "awaiting_code", "sale": None, "sale_ref": None, "amount": 30000}
    assert seen[-1]["paid"] is True and seen[-1]["amount"] == 30000
    assert all("code" not in e for e in seen)  # the display never gets even a masked code
