"""The App on the counter's events and messages: a code read where no screen takes one is
answered by the App; a listener that fails during a payment is shown, the payment is not hurt."""

from __future__ import annotations

import pytest

from pos_terminal.counter import PaymentSettled
from pos_terminal.counter.types import PaymentState
from pos_terminal.tui.screens.history import HistoryScreen
from pos_terminal.tui.screens.result import ResultScreen
from tests.conftest import fresh_code
from tests.tui.helpers import scan_burst, type_keys, wait_until
from tests.tui.test_flows import charge

pytestmark = pytest.mark.asyncio


def notices(pilot) -> list[str]:
    return [str(n.message) for n in pilot.app._notifications]


async def test_a_code_read_where_no_screen_takes_one_is_answered_by_the_app(
        make_app, key_clock, emulator) -> None:
    async with make_app().run_test(size=(80, 24)) as pilot:
        await type_keys(pilot, key_clock, "f2")
        await wait_until(pilot, lambda: isinstance(pilot.app.screen, HistoryScreen),
                         what="History")
        code = fresh_code(emulator, "an")
        await scan_burst(pilot, key_clock, code)
        await wait_until(pilot, lambda: bool(notices(pilot)), what="a notice")
        assert notices(pilot) == [
            f"Payment code ••••{code[-4:]} read, but no payment is waiting: type the amount "
            "and press Enter first."]
        assert pilot.app.counter.history.list() == []  # nothing was charged


async def test_a_failing_listener_is_shown_and_the_payment_is_paid(make_app, key_clock,
                                                                   emulator) -> None:
    app = make_app()

    def broken(_event: PaymentSettled) -> None:
        raise OSError("printer offline")

    app.counter.bus.subscribe(PaymentSettled, broken, name="Receipt printer")
    async with app.run_test(size=(80, 24)) as pilot:
        await charge(pilot, key_clock, emulator, "40000", "an")
        await wait_until(pilot, lambda: isinstance(pilot.app.screen, ResultScreen),
                         what="result")
        assert pilot.app.screen.outcome.headline == "PAID"
        await wait_until(pilot, lambda: bool(notices(pilot)), what="the listener's notice")
        assert notices(pilot) == ["Receipt printer failed: printer offline. The payment is not "
                                  "affected."]
        [row] = app.counter.history.list()
        assert row.state is PaymentState.SUCCEEDED and row.amount == 40_000
