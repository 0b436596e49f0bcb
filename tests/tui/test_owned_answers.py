"""Answers reach the screen that owns them (issue 21, defects 1 and 2): a payment's outcome
reaches its payment screen whatever is on top of it, and no key typed after a result is lost,
however fast the cashier types."""

from __future__ import annotations

import pytest

from pos_terminal.config import Settings
from pos_terminal.tui.screens.progress import ProgressScreen
from pos_terminal.tui.screens.result import ResultScreen
from pos_terminal.tui.screens.sale import SaleScreen
from pos_terminal.tui.widgets.amount import AmountField
from tests.conftest import ProcessingHold
from tests.tui.conftest import KeyClock
from tests.tui.helpers import (
    keys_handled,
    make_key,
    send_key,
    shown,
    text_of,
    type_keys,
    wait_until,
)
from tests.tui.own_checkout import app_on_own_checkout, polling
from tests.tui.test_flows import ask_to_quit, charge, charge_held_processing

pytestmark = pytest.mark.asyncio


async def test_an_outcome_behind_the_quit_question_reaches_its_payment(
        settings: Settings, emulator, key_clock, make_app,
        hold_processing: ProcessingHold) -> None:
    with app_on_own_checkout(make_app, polling(settings, 60.0)) as (app, _engine):
        async with app.run_test(size=(80, 24)) as pilot:
            await charge_held_processing(pilot, key_clock, emulator, "binh")
            await ask_to_quit(pilot)
            hold_processing.release()  # the customer confirms while the question is up
            await wait_until(pilot, lambda: pilot.app.payment is None,
                             what="the payment concluded")
            await pilot.press("n")
            await wait_until(pilot, lambda: isinstance(pilot.app.screen, ResultScreen),
                             what="the result of the payment")
            assert pilot.app.screen.outcome.success
            assert pilot.app.is_running


async def fast_keys(pilot, clock: KeyClock, keys: str, gap: float) -> None:
    """Keys `gap` seconds apart (too slow for a scanner, too fast to be held back long)."""
    taken = pilot.app.keys.seen + len(keys)
    for event in [make_key(key, at) for key, at in zip(keys, clock.burst(len(keys), gap),
                                                      strict=True)]:
        send_key(pilot, event)
    clock.next(0.2)
    await keys_handled(pilot, taken)


async def paid_result(pilot, clock: KeyClock, emulator) -> None:
    await charge(pilot, clock, emulator, "15000", "an")
    await wait_until(pilot, lambda: isinstance(pilot.app.screen, ResultScreen), what="result")


async def sale_amount(pilot, amount: int) -> int:
    await wait_until(pilot, lambda: isinstance(pilot.app.screen, SaleScreen), what="sale")
    field = pilot.app.screen.query_one(AmountField)
    await wait_until(pilot, lambda: field.amount >= amount, what=f"the amount {amount}")
    return field.amount


@pytest.mark.parametrize("gap", [0.004, 0.010, 0.020, 0.035])
async def test_no_digit_is_lost_typing_fast_after_paid(make_app, key_clock, emulator,
                                                      gap: float) -> None:
    async with make_app().run_test(size=(80, 24)) as pilot:
        await paid_result(pilot, key_clock, emulator)
        await fast_keys(pilot, key_clock, "25000", gap)
        assert await sale_amount(pilot, 25_000) == 25_000


async def test_two_fast_digits_then_three_slow_ones(make_app, key_clock, emulator) -> None:
    async with make_app().run_test(size=(80, 24)) as pilot:
        await paid_result(pilot, key_clock, emulator)
        await fast_keys(pilot, key_clock, "25", 0.015)
        await type_keys(pilot, key_clock, "0", "0", "0")
        assert await sale_amount(pilot, 25_000) == 25_000


async def test_fast_digits_on_the_sale_screen_all_land(make_app, key_clock) -> None:
    async with make_app().run_test(size=(80, 24)) as pilot:
        await fast_keys(pilot, key_clock, "1250", 0.012)
        await fast_keys(pilot, key_clock, "0", 0.012)
        assert pilot.app.screen.query_one(AmountField).amount == 12_500


async def test_f8_while_processing_redraws_the_payment_and_keeps_it(
        settings: Settings, emulator, key_clock, make_app,
        hold_processing: ProcessingHold) -> None:
    """Issue 21, item 6 (the screens' part): the payment's screen redraws whole in the other
    language, and the payment's outcome still reaches it."""
    with app_on_own_checkout(make_app, polling(settings, 60.0)) as (app, _engine):
        async with app.run_test(size=(80, 24)) as pilot:
            await charge(pilot, key_clock, emulator, "30000", "binh")
            # The conditions read with `shown`: while F8 redraws the screen its lines are
            # removed and composed again, and `text_of` would raise in between.
            await wait_until(pilot, lambda: isinstance(pilot.app.screen, ProgressScreen)
                             and "Processing" in shown(pilot, "#progress-state"),
                             what="processing")
            progress = pilot.app.screen
            await type_keys(pilot, key_clock, "f8")
            await wait_until(pilot, lambda: "Đang xử lý" in shown(pilot, "#progress-state")
                             and "Đã chờ" in shown(pilot, "#progress-elapsed")
                             and "máy quét USB" in shown(pilot, "#progress-code"),
                             what="the payment in Vietnamese")
            assert pilot.app.screen is progress
            hold_processing.release()
            await wait_until(pilot, lambda: isinstance(pilot.app.screen, ResultScreen)
                             and shown(pilot, "#result-headline") != "", what="the result")
            assert pilot.app.screen.outcome.success
            assert text_of(pilot, "#result-headline") == "ĐÃ THANH TOÁN"
