"""ShopeePay in the UI, beside ZaloPay and MoMo: its "SPC..." code comes through the keyboard
wedge, is charged by ShopeePay and the result screen shows it paid (everything ShopeePay's read
from the registry)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from pos_terminal.checkout import Checkout
from pos_terminal.config import Settings
from pos_terminal.counter import Counter, open_checkout
from pos_terminal.counter.listeners import attach
from pos_terminal.journal import PaymentState
from pos_terminal.tui.app import PosApp
from pos_terminal.tui.screens.pay import PayScreen
from pos_terminal.tui.screens.result import ResultScreen
from pos_terminal.tui.screens.sale import SaleScreen
from tests.tui.conftest import KeyClock
from tests.tui.helpers import scan_burst, type_keys, wait_until
from tests.wallets.shopeepay_help import code_of, with_shopeepay

pytestmark = pytest.mark.asyncio


@pytest.fixture
def three_settings(both_settings: Settings, emulator: Any) -> Settings:
    return with_shopeepay(both_settings, emulator)


@pytest.fixture
def three_checkout(three_settings: Settings) -> Iterator[Checkout]:
    with open_checkout(three_settings) as engine:
        yield engine


async def test_a_shopeepay_code_through_the_wedge_is_paid(
        three_settings: Settings, three_checkout: Checkout, key_clock: KeyClock,
        emulator: Any) -> None:
    assert three_settings.wallets == ("zalopay", "momo", "shopeepay")
    counter = Counter(three_settings, three_checkout)
    attach(counter)
    try:
        async with PosApp(three_settings, counter, background=False).run_test(
                size=(80, 24)) as pilot:
            await wait_until(pilot, lambda: isinstance(pilot.app.screen, SaleScreen),
                             what="sale")
            await type_keys(pilot, key_clock, *"38000", "enter")
            await wait_until(pilot, lambda: isinstance(pilot.app.screen, PayScreen),
                             what="Pay screen")
            await scan_burst(pilot, key_clock, code_of(emulator, "spay-paid"))
            await wait_until(pilot, lambda: isinstance(pilot.app.screen, ResultScreen),
                             what="the ShopeePay result")
            assert pilot.app.screen.outcome.success
    finally:
        counter.close()
    [row] = three_checkout.journal.list_payments()
    assert (row.provider, row.amount, row.state) == ("shopeepay", 38_000, PaymentState.SUCCEEDED)
    assert list(emulator.control.part("shopeepay").payments) == [row.app_trans_id]
