"""The customer display in a real headless Chromium beside the cashier's own screen
(`[api] with_ui`, the real App driven by keys): a sale made at the counter ends on PAID, the
gateway QR stays until paid, and a cancelled sale stops asking for a code."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
import requests

from pos_terminal.api.server import ApiServer
from pos_terminal.cli.ui_cmds import serve_beside
from pos_terminal.config import Settings
from pos_terminal.tui.screens.pay import PayScreen
from pos_terminal.tui.screens.show_qr import ShowQrScreen
from tests.api.chromium_thread import ChromiumPage
from tests.conftest import fresh_code
from tests.tui.conftest import KeyClock, checkout, key_clock, make_app
from tests.tui.helpers import scan_burst, type_keys, wait_until

pytestmark = [pytest.mark.asyncio, pytest.mark.browser]
__all__ = ["checkout", "key_clock", "make_app"]


@pytest.fixture
def beside(make_app: Any, settings: Settings) -> Iterator[tuple[Any, ApiServer, ChromiumPage]]:
    app = make_app(settings=settings.replace_section("api", port=0, with_ui=True))
    server = serve_beside(app.counter)
    display = ChromiumPage(server.url + "/display")
    try:
        yield app, server, display
        assert display.refused == []  # the display's CSP blocked nothing it needs
    finally:
        display.close()
        server.stop()


def _kinds(server: ApiServer, kind: str, app_trans_id: str) -> int:
    return sum(1 for _n, data in list(server.terminal.feed._kept)
               if data["type"] == kind and data.get("app_trans_id") == app_trans_id)


async def test_a_sale_made_at_the_counter_ends_on_paid(
        beside: tuple[Any, ApiServer, ChromiumPage], key_clock: KeyClock,
        emulator: Any) -> None:
    app, server, display = beside
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_until(pilot, lambda: server.terminal.feed.listening > 0,
                         what="the display listening")
        await type_keys(pilot, key_clock, *"30000", "enter")
        await wait_until(pilot, lambda: isinstance(pilot.app.screen, PayScreen),
                         what="Pay screen")
        await wait_until(pilot, lambda: display.state() == "awaiting", what="asks for a code")
        assert "30.000" in display.text("#amount")
        await scan_burst(pilot, key_clock, fresh_code(emulator, "an"))
        await wait_until(pilot, lambda: display.state() == "paid", timeout=30,
                         what="the display shows PAID")
    assert "30.000" in display.text("#amount")


async def test_the_gateway_qr_stays_while_the_cashier_follows_it(
        beside: tuple[Any, ApiServer, ChromiumPage], key_clock: KeyClock) -> None:
    app, server, display = beside
    async with app.run_test(size=(100, 30)) as pilot:
        await wait_until(pilot, lambda: server.terminal.feed.listening > 0,
                         what="the display listening")
        await type_keys(pilot, key_clock, *"88000", "f5")
        await wait_until(pilot, lambda: isinstance(pilot.app.screen, ShowQrScreen),
                         what="Show QR screen")
        screen = pilot.app.screen
        await type_keys(pilot, key_clock, "enter")
        if screen.view is None:
            screen.action_create()
        await wait_until(pilot, lambda: screen.view is not None, timeout=20,
                         what="the order created")
        order = screen.view
        await wait_until(pilot, lambda: display.state() == "qr", what="the QR on the display")
        # the cashier's screen follows the order: its progress must not replace the QR
        await wait_until(pilot, lambda: _kinds(server, "payment_progress",
                                               order.app_trans_id) >= 2, timeout=30,
                         what="two progress events of the order")
        assert display.state() == "qr"
        assert "88.000" in display.text("#amount")
        paid = requests.post(order.order_url + "/pay", timeout=10, allow_redirects=False,
                             data={"wallet": "an", "bankcode": "zalopayapp"})
        assert paid.status_code in (200, 302, 303)
        await wait_until(pilot, lambda: display.state() == "paid", timeout=30,
                         what="PAID once the customer paid")


async def test_a_cancelled_sale_stops_asking_for_a_code(
        beside: tuple[Any, ApiServer, ChromiumPage], key_clock: KeyClock) -> None:
    app, server, display = beside
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_until(pilot, lambda: server.terminal.feed.listening > 0,
                         what="the display listening")
        await type_keys(pilot, key_clock, *"45000", "enter")
        await wait_until(pilot, lambda: display.state() == "awaiting", what="asks for a code")
        await type_keys(pilot, key_clock, "escape")
        await wait_until(pilot, lambda: not isinstance(pilot.app.screen, PayScreen),
                         what="back to the sale")
        await wait_until(pilot, lambda: display.state() == "idle",
                         what="the display stops asking")
        assert "45.000" not in display.text("#amount")
