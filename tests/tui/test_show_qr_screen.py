"""Issue 39, item 4: Show QR draws a whole code or none. When no code of the order fits the
window, no part of one is drawn and the screen says where to scan instead: the customer display
when this UI serves it, and the window size that would show it. Esc says what became of the
order: paid meanwhile shows PAID, still open says so."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
import requests

from pos_terminal.base.reasons import Reason
from pos_terminal.checkout import Checkout
from pos_terminal.config import Settings
from pos_terminal.counter.types import PaymentState, PaymentView
from pos_terminal.tui.screens.result import ResultScreen
from pos_terminal.tui.screens.sale import SaleScreen
from pos_terminal.tui.screens.show_qr import ShowQrScreen
from pos_terminal.tui.widgets.qr import QrCode
from tests.tui.conftest import KeyClock
from tests.tui.helpers import screen_lines, text_of, type_keys, wait_for_footer, wait_until
from tests.tui.scenes import T0, scene_app

pytestmark = pytest.mark.asyncio

#: An order page's URL too long for any code in 22 rows (version 12: 65 modules, 34 rows with
#: a quiet zone of one module).
LONG_URL = "https://gateway.example.vn/openinapp?order=" + "eyJ6cHRyYW5zdG9rZW4i" * 15


def order(order_url: str, qr_code: str | None = None) -> PaymentView:
    return PaymentView(
        app_trans_id="261121_counter1_1020q", state=PaymentState.PROCESSING, amount=99_000,
        description="", return_code=3, why=Reason.text("Waiting."), service_message="",
        zp_trans_id=None, code_last4=None, created_ms=T0, updated_ms=T0, polls=0,
        refunded_amount=0, needs_review=False, kind="gateway", order_url=order_url,
        qr_code=qr_code)


@pytest.mark.parametrize("with_ui,pointer", [
    (False, r"Make the window at least (\d+)×(\d+) to show it\."),
    (True, r"The customer scans it on the customer display \(http://127\.0\.0\.1:8780/display\), "
           r"or make the window at least (\d+)×(\d+)\."),
])
async def test_no_code_fits_so_none_is_drawn_and_the_screen_says_where(
        settings: Settings, tmp_path: Path, with_ui: bool, pointer: str) -> None:
    settings = settings.replace_section("api", with_ui=with_ui)
    app = scene_app(settings, tmp_path / "journal.sqlite3")
    try:
        async with app.run_test(size=(80, 24)) as pilot:
            screen = ShowQrScreen(99_000)
            await pilot.app.push_screen(screen)
            footer = await wait_for_footer(pilot)
            assert "Create order" in footer  # no order yet: Enter makes one
            screen._created(order(LONG_URL))
            await wait_until(pilot, lambda: "No QR code" in text_of(pilot, "#qr-url"),
                             what="where to scan")
            said = " ".join(text_of(pilot, "#qr-url").split())
            assert said.startswith("No QR code here: it does not fit this window.")
            told = re.search(pointer, said)
            assert told is not None and LONG_URL[:30] in said
            code = screen.query_one(QrCode)
            assert code._strips == [] and code.data == ""
            assert not any("▀" in line for line in screen_lines(pilot))  # no part of a code
            footer = await wait_for_footer(pilot)
            assert "Create order" not in footer  # the order is made
            # The size it names is true: a window that large shows the code whole.
            await pilot.resize_terminal(int(told.group(1)), int(told.group(2)))
            await wait_until(pilot, lambda: code.data == LONG_URL, what="the code drawn")
    finally:
        app.counter.checkout.close()


async def test_a_window_made_larger_shows_the_code_then(settings: Settings,
                                                        tmp_path: Path) -> None:
    app = scene_app(settings, tmp_path / "journal.sqlite3")
    try:
        async with app.run_test(size=(80, 24)) as pilot:
            screen = ShowQrScreen(99_000)
            await pilot.app.push_screen(screen)
            screen._created(order(LONG_URL))
            code = screen.query_one(QrCode)
            await wait_until(pilot, lambda: "No QR code" in text_of(pilot, "#qr-url"),
                             what="where to scan")
            await pilot.resize_terminal(100, 40)
            await wait_until(pilot, lambda: code.data == LONG_URL, what="the code drawn")
            assert not text_of(pilot, "#qr-url").startswith("No QR code")
    finally:
        app.counter.checkout.close()


async def show_an_order(pilot, key_clock: KeyClock, checkout: Checkout) -> PaymentView:
    await type_keys(pilot, key_clock, "f5", *"45000", "enter")
    code = pilot.app.screen.query_one(QrCode)
    await wait_until(pilot, lambda: bool(code.data), what="the order's code")
    [row] = checkout.journal.list_payments()
    return row


async def test_esc_after_the_customer_paid_shows_paid(make_app, key_clock: KeyClock,
                                                      emulator: object,
                                                      checkout: Checkout) -> None:
    async with make_app().run_test(size=(80, 24)) as pilot:
        row = await show_an_order(pilot, key_clock, checkout)
        answer = requests.post(f"{row.order_url}/pay", data={
            "wallet": "an", "bankcode": "zalopayapp"}, allow_redirects=False, timeout=10)
        assert answer.status_code == 303
        await type_keys(pilot, key_clock, "escape")  # before the screen heard of it, or after
        await wait_until(pilot, lambda: isinstance(pilot.app.screen, ResultScreen),
                         what="the order's result")
        assert pilot.app.screen.outcome.success


async def test_esc_on_an_open_order_says_it_is_still_open(make_app, key_clock: KeyClock,
                                                          emulator: object,
                                                          checkout: Checkout) -> None:
    async with make_app().run_test(size=(80, 24)) as pilot:
        row = await show_an_order(pilot, key_clock, checkout)
        await type_keys(pilot, key_clock, "escape")
        await wait_until(pilot, lambda: isinstance(pilot.app.screen, SaleScreen), what="Sale")
        [notice] = [n.message for n in pilot.app._notifications]
        assert notice.startswith(f"Order {row.app_trans_id} (45.000 ₫) is still open: the "
                                 "customer can still pay it until about ")
        assert checkout.journal.get(row.app_trans_id).state is PaymentState.PROCESSING
