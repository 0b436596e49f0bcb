"""Two wallets at one counter, in the UI (issue 31): a ZaloPay code and then a MoMo code (its
"MM..." letters through the keyboard wedge) are charged one after the other, each by its own
service; a code no wallet takes is sent nowhere until the cashier names the wallet (one key)."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import pytest

from pos_terminal.checkout import Checkout
from pos_terminal.config import Settings
from pos_terminal.counter import Counter, open_checkout
from pos_terminal.counter.listeners import attach
from pos_terminal.journal import PaymentState
from pos_terminal.tui.app import PosApp
from pos_terminal.tui.screens.dialogs import WalletDialog
from pos_terminal.tui.screens.pay import PayScreen
from pos_terminal.tui.screens.result import ResultScreen
from pos_terminal.tui.screens.sale import SaleScreen
from tests.conftest import fresh_code
from tests.tui.conftest import KeyClock
from tests.tui.helpers import scan_burst, screen_text, type_keys, wait_until

pytestmark = pytest.mark.asyncio


@pytest.fixture
def both_checkout(both_settings: Settings) -> Iterator[Checkout]:
    with open_checkout(both_settings) as engine:
        yield engine


@pytest.fixture
def both_app(both_settings: Settings, both_checkout: Checkout) -> Iterator[Callable[[], PosApp]]:
    counters: list[Counter] = []

    def build() -> PosApp:
        counter = Counter(both_settings, both_checkout)
        attach(counter)
        counters.append(counter)
        return PosApp(both_settings, counter, background=False)

    yield build
    for counter in counters:
        counter.close()


async def _charge(pilot: Any, clock: KeyClock, amount: str, code: str) -> None:
    await wait_until(pilot, lambda: isinstance(pilot.app.screen, SaleScreen), what="sale")
    await type_keys(pilot, clock, *amount, "enter")
    await wait_until(pilot, lambda: isinstance(pilot.app.screen, PayScreen), what="Pay screen")
    await scan_burst(pilot, clock, code)


async def test_a_zalopay_code_then_a_momo_code(both_app: Callable[[], PosApp], key_clock: KeyClock,
                                               emulator: Any, both_checkout: Checkout) -> None:
    momo = emulator.control.momo
    async with both_app().run_test(size=(80, 24)) as pilot:
        await _charge(pilot, key_clock, "25000", fresh_code(emulator, "an"))
        await wait_until(pilot, lambda: isinstance(pilot.app.screen, ResultScreen),
                         what="the ZaloPay result")
        assert pilot.app.screen.outcome.success
        await type_keys(pilot, key_clock, "space")
        await _charge(pilot, key_clock, "45000", emulator.control.momo_code("momo-paid"))
        await wait_until(pilot, lambda: isinstance(pilot.app.screen, ResultScreen),
                         what="the MoMo result")
        assert pilot.app.screen.outcome.success
    rows = both_checkout.journal.list_payments()
    assert [(r.provider, r.amount, r.state) for r in rows] == [
        ("zalopay", 25_000, PaymentState.SUCCEEDED), ("momo", 45_000, PaymentState.SUCCEEDED)]
    assert list(momo.orders) == [rows[1].app_trans_id] and momo.requests["pay"] == 1


async def test_a_code_no_wallet_takes_waits_for_the_cashier_s_key(
        both_app: Callable[[], PosApp], key_clock: KeyClock, emulator: Any,
        both_checkout: Checkout) -> None:
    code = fresh_code(emulator, "an") + "M"  # ZaloPay's digits and a letter: no pattern's
    async with both_app().run_test(size=(80, 24)) as pilot:
        await _charge(pilot, key_clock, "25000", code)
        await wait_until(pilot, lambda: isinstance(pilot.app.screen, WalletDialog),
                         what="the wallet question")
        text = screen_text(pilot)
        assert "1: ZaloPay" in text and "2: MoMo wallet" in text and "not sent" in text
        assert both_checkout.journal.list_payments() == []  # nothing recorded, nothing sent
        await type_keys(pilot, key_clock, "escape")  # cancelled: still nothing sent
        await wait_until(pilot, lambda: isinstance(pilot.app.screen, PayScreen), what="Pay")
        assert both_checkout.journal.list_payments() == []
        await scan_burst(pilot, key_clock, code)
        await wait_until(pilot, lambda: isinstance(pilot.app.screen, WalletDialog),
                         what="the wallet question again")
        await type_keys(pilot, key_clock, "1")  # ZaloPay: its service judges the code
        await wait_until(pilot, lambda: isinstance(pilot.app.screen, ResultScreen),
                         what="the result")
    [row] = both_checkout.journal.list_payments()
    assert row.provider == "zalopay"
    assert emulator.control.momo.requests["pay"] == 0
