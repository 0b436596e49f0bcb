"""A USB scanner in keyboard mode, seen by the App: timed Key events through the driver.
A fast burst ending in Enter is a scan wherever the focus is and never lands in a field; a
person typing (whatever they type) is never a scan."""

from __future__ import annotations

import pytest
from textual.widgets import Input

from pos_terminal.config import Settings
from pos_terminal.tui.screens.pay import PayScreen
from pos_terminal.tui.screens.sale import SaleScreen
from pos_terminal.tui.widgets.amount import AmountField
from tests.tui.helpers import scan_burst, text_of, type_keys

pytestmark = pytest.mark.asyncio

CODE = "812345678901234567"


async def test_burst_on_the_sale_screen_is_a_scan_not_an_amount(make_app, key_clock) -> None:
    async with make_app().run_test(size=(80, 24)) as pilot:
        await type_keys(pilot, key_clock, "7", "5")
        await scan_burst(pilot, key_clock, CODE)
        assert isinstance(pilot.app.screen, SaleScreen)
        assert pilot.app.screen.query_one(AmountField).amount == 75
        assert text_of(pilot, "#sale-message") == (
            "Code ••••4567 read before a payment was started: press Enter to charge the "
            "amount, then scan again.")


async def test_burst_never_lands_in_a_text_field(make_app, key_clock) -> None:
    async with make_app().run_test(size=(80, 24)) as pilot:
        await type_keys(pilot, key_clock, "tab", *"tea")
        description = pilot.app.screen.query_one("#description", Input)
        assert pilot.app.focused is description
        await scan_burst(pilot, key_clock, CODE)
        await type_keys(pilot, key_clock, "s")
        assert description.value == "teas"
        assert "••••4567" in text_of(pilot, "#sale-message")


async def test_a_person_typing_digits_and_enter_is_not_a_scan(make_app, key_clock) -> None:
    async with make_app().run_test(size=(80, 24)) as pilot:
        await type_keys(pilot, key_clock, *"12345678", "enter")
        assert isinstance(pilot.app.screen, PayScreen)
        assert pilot.app.screen.sale.amount == 12_345_678


async def test_a_short_fast_burst_is_typing(make_app, key_clock) -> None:
    async with make_app().run_test(size=(80, 24)) as pilot:
        await scan_burst(pilot, key_clock, "123")  # shorter than wedge_min_length (8)
        assert isinstance(pilot.app.screen, PayScreen)
        assert pilot.app.screen.sale.amount == 123


async def test_a_pause_inside_the_burst_makes_it_typing(make_app, key_clock) -> None:
    async with make_app().run_test(size=(80, 24)) as pilot:
        await scan_burst(pilot, key_clock, "1234", enter=False)
        await scan_burst(pilot, key_clock, "5678")  # 180 ms later: a person, not a scanner
        assert isinstance(pilot.app.screen, PayScreen)
        assert pilot.app.screen.sale.amount == 12_345_678


async def test_the_threshold_comes_from_the_settings(settings: Settings, make_app,
                                                     key_clock) -> None:
    # 60 ms between keys: typing for the default 35 ms threshold, a (slow) scanner at 100 ms.
    async with make_app().run_test(size=(80, 24)) as pilot:
        await scan_burst(pilot, key_clock, "2000000", gap=0.060)
        assert isinstance(pilot.app.screen, PayScreen)
        assert pilot.app.screen.sale.amount == 2_000_000
    slow = settings.replace_section("scanner", wedge_max_interkey_ms=100)
    async with make_app(settings=slow).run_test(size=(80, 24)) as pilot:
        await scan_burst(pilot, key_clock, CODE, gap=0.060)
        assert isinstance(pilot.app.screen, SaleScreen)
        assert pilot.app.screen.query_one(AmountField).amount == 0
        assert "••••4567" in text_of(pilot, "#sale-message")


async def test_a_burst_that_is_no_payment_code_is_swallowed_and_explained(make_app,
                                                                          key_clock) -> None:
    async with make_app().run_test(size=(80, 24)) as pilot:
        await type_keys(pilot, key_clock, *"5000", "enter")
        assert isinstance(pilot.app.screen, PayScreen)
        await scan_burst(pilot, key_clock, "8934567890123")  # a product's EAN-13 barcode
        assert isinstance(pilot.app.screen, PayScreen) and pilot.app.screen.code is None
        [notice] = [n.message for n in pilot.app._notifications]
        assert notice == ("Scanner read ••••0123 (13 characters) was ignored: a payment code "
                          "has 16–24 digits. Ask for the wallet's payment code.")
