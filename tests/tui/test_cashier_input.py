"""What the cashier types, pastes or sees at the edges (issue 21, item 10): a pasted amount
fills the amount (or says why not), an error about old input goes when the input changes, and
a window below 80x24 says it is too small instead of cutting text."""

from __future__ import annotations

import pytest
from textual import events
from textual.widgets import Input

from pos_terminal.tui.screens.show_qr import ShowQrScreen
from pos_terminal.tui.widgets.amount import AmountField
from tests.tui.helpers import screen_text, text_of, type_keys, wait_until

pytestmark = pytest.mark.asyncio


async def paste(pilot, text: str) -> None:
    event = events.Paste(text)
    event.set_sender(pilot.app)
    pilot.app._driver.send_message(event)  # as the terminal's bracketed paste arrives
    await pilot.pause()


@pytest.mark.parametrize("pasted", ["50.000 đ", "50000", "50,000 VND", " 50 000₫ "])
async def test_a_pasted_amount_fills_the_amount(make_app, pasted: str) -> None:
    async with make_app().run_test(size=(80, 24)) as pilot:
        field = pilot.app.screen.query_one(AmountField)
        await paste(pilot, pasted)
        await wait_until(pilot, lambda: field.amount == 50_000, what="the pasted amount")
        assert str(field.render()) == "50.000 ₫"


async def test_a_paste_that_is_no_amount_says_why_and_keeps_the_amount(make_app,
                                                                       key_clock) -> None:
    async with make_app().run_test(size=(80, 24)) as pilot:
        await type_keys(pilot, key_clock, *"120")
        await paste(pilot, "hai mươi nghìn")
        await wait_until(pilot, lambda: "is not an amount" in text_of(pilot, "#sale-message"),
                         what="the reason")
        assert pilot.app.screen.query_one(AmountField).amount == 120


async def test_an_error_goes_when_the_amount_changes(make_app, key_clock) -> None:
    async with make_app().run_test(size=(80, 24)) as pilot:
        await type_keys(pilot, key_clock, "enter")
        assert text_of(pilot, "#sale-message") == (
            "No amount was given: type it in VND, e.g. 50000 or 50.000 đ.")
        await type_keys(pilot, key_clock, "5")
        assert text_of(pilot, "#sale-message") == ""


@pytest.mark.parametrize("size", [(79, 24), (80, 23), (60, 15)])
async def test_below_80x24_the_screen_says_it_is_too_small(make_app, size) -> None:
    async with make_app().run_test(size=size) as pilot:
        await wait_until(pilot, lambda: pilot.app.screen.query_one("#too-small").display
                         and "too small" in text_of(pilot, "#too-small"), what="the notice")
        assert f"({size[0]}×{size[1]})" in text_of(pilot, "#too-small")
    async with make_app().run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        assert not pilot.app.screen.query_one("#too-small").display


async def test_show_qr_starts_from_the_sale_and_f8_keeps_what_was_typed(make_app,
                                                                         key_clock) -> None:
    async with make_app().run_test(size=(80, 24)) as pilot:
        await type_keys(pilot, key_clock, *"42000", "tab", *"table 4", "f5")
        await wait_until(pilot, lambda: isinstance(pilot.app.screen, ShowQrScreen),
                         what="Show QR")
        screen = pilot.app.screen
        assert screen.query_one("#qr-amount", AmountField).amount == 42_000
        assert screen.query_one("#qr-description", Input).value == "table 4"
        await type_keys(pilot, key_clock, "backspace", "f8")
        await wait_until(pilot, lambda: "Số tiền" in screen_text(pilot), what="Vietnamese")
        assert screen.query_one("#qr-amount", AmountField).amount == 4_200
        assert screen.query_one("#qr-description", Input).value == "table 4"
        await type_keys(pilot, key_clock, "f8")
