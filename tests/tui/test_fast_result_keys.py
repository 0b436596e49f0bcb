"""Issue 32, item 4: keys typed on a Result with no pause between them (a keypad's rollover, a
tmux send-keys burst) all land in the next sale's amount, in order: none is lost while the
Result hands over to the Sale screen."""

from __future__ import annotations

import pytest

from tests.tui.helpers import keys_handled, make_key, send_key
from tests.tui.test_owned_answers import paid_result, sale_amount

pytestmark = pytest.mark.asyncio


@pytest.mark.parametrize("digits", ["234567", "98765"])
async def test_digits_with_no_pause_on_the_result_all_land(make_app, key_clock, emulator,
                                                          digits: str) -> None:
    async with make_app().run_test(size=(80, 24)) as pilot:
        await paid_result(pilot, key_clock, emulator)
        at = key_clock.next(0.5)
        taken = pilot.app.keys.seen + len(digits)
        for digit in digits:  # all stamped the same instant, sent without a pause
            send_key(pilot, make_key(digit, at))
        key_clock.next(0.5)
        await keys_handled(pilot, taken)
        assert await sale_amount(pilot, int(digits)) == int(digits)


async def test_pilot_press_with_no_pause_on_the_result(make_app, key_clock, emulator) -> None:
    async with make_app().run_test(size=(80, 24)) as pilot:
        await paid_result(pilot, key_clock, emulator)
        await pilot.press(*"234567")
        assert await sale_amount(pilot, 234_567) == 234_567


async def test_keys_wait_while_the_sale_screen_is_slow_to_take_the_answer(
        make_app, key_clock, emulator, monkeypatch: pytest.MonkeyPatch) -> None:
    """What a real terminal showed (tmux): the Result and Pay are gone, Sale has not yet run
    the answer (its queue busy drawing), the next digits arrive. Sale made slow on purpose."""
    from pos_terminal.tui.screens.sale import SaleScreen

    taken_late = SaleScreen._next_sale

    def slow_next_sale(self: SaleScreen, next_sale: object) -> None:
        self.set_timer(0.3, lambda: taken_late(self, next_sale))

    monkeypatch.setattr(SaleScreen, "_next_sale", slow_next_sale)
    async with make_app().run_test(size=(80, 24)) as pilot:
        await paid_result(pilot, key_clock, emulator)
        await pilot.press(*"234567")
        key_clock.next(0.5)
        assert await sale_amount(pilot, 234_567) == 234_567
