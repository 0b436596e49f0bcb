"""The demo inside the App: the synthetic camera (the real camera loop over rendered frames)
holds up the chosen emulator wallet's code after the Pay screen opens; the preview draws it."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from hardware import CodeFilter, ScanSource, SyntheticSource, open_source
from pos_terminal import wallet_registry
from pos_terminal.checkout import Checkout, PaymentState
from pos_terminal.cli.ui_cmds import demo_wallets
from pos_terminal.config import Settings
from pos_terminal.counter import Counter, open_checkout
from pos_terminal.tui.app import PosApp
from pos_terminal.tui.demo import DEMO_WALLETS, DemoController
from pos_terminal.tui.screens.pay import PayScreen
from pos_terminal.tui.screens.result import ResultScreen
from pos_terminal.tui.screens.sale import SaleScreen
from pos_terminal.tui.widgets.preview import CameraPreview
from tests.tui.conftest import ledger
from tests.tui.helpers import text_of, type_keys, wait_until

pytestmark = pytest.mark.asyncio


@pytest.fixture
def synthetic(settings: Settings) -> Iterator[SyntheticSource]:
    scanner = settings.scanner
    source = open_source("synthetic", decoder=scanner.decoder, code_filter=CodeFilter(
        scanner.code_alphabet, scanner.code_min_length, scanner.code_max_length))
    assert isinstance(source, SyntheticSource)
    yield source
    source.stop()


def demo_app(settings: Settings, checkout: Checkout, source: SyntheticSource,
             emulator: object, show_after_s: float = 1.5) -> PosApp:
    demo = DemoController(emulator.base_url, source.show,
                          show_after_s=show_after_s)
    factory: ScanSource = source
    return PosApp(settings, Counter(settings, checkout), lambda: factory, demo, background=False)


async def test_demo_wallet_is_shown_to_the_camera_and_paid(settings: Settings, checkout: Checkout,
                                                           synthetic: SyntheticSource,
                                                           emulator: object, key_clock) -> None:
    app = demo_app(settings, checkout, synthetic, emulator, show_after_s=600)
    async with app.run_test(size=(100, 40)) as pilot:
        assert "An Nguyen (pays at once, key 1)" in text_of(pilot, "#demo-wallet")
        await type_keys(pilot, key_clock, "f9")
        assert "Binh Tran (slow processing, then paid, key 2)" in text_of(pilot, "#demo-wallet")
        await type_keys(pilot, key_clock, *"64000", "enter")
        assert isinstance(pilot.app.screen, PayScreen)
        await wait_until(pilot, lambda: "demo camera: running" in text_of(pilot, "#scanner-state"),
                         what="the camera running")
        await type_keys(pilot, key_clock, "p")
        preview = pilot.app.screen.query_one(CameraPreview)
        assert preview.display
        await wait_until(pilot, lambda: preview.frames_drawn > 0, what="a preview frame")
        await type_keys(pilot, key_clock, "1")  # the customer is An after all
        await wait_until(pilot, lambda: isinstance(pilot.app.screen, ResultScreen),
                         what="the result")
        assert pilot.app.screen.outcome.success
    [charge] = ledger(emulator)["charges"]
    assert (charge["wallet"], charge["amount"]) == ("an", 64000)
    assert checkout.journal.get(charge["app_trans_id"]).state is PaymentState.SUCCEEDED


async def test_escape_on_pay_takes_the_phone_away(settings: Settings, checkout: Checkout,
                                                 synthetic: SyntheticSource, emulator: object,
                                                 key_clock) -> None:
    app = demo_app(settings, checkout, synthetic, emulator)
    async with app.run_test(size=(80, 24)) as pilot:
        await type_keys(pilot, key_clock, *"64000", "enter", "escape")
        assert not isinstance(pilot.app.screen, PayScreen)
        await pilot.pause(2.0)  # past the moment the demo would have shown the code
        assert not isinstance(pilot.app.screen, ResultScreen)
    assert ledger(emulator)["charges"] == []


async def test_the_demo_counter_takes_a_zalopay_code_then_a_momo_code(
        settings: Settings, emulator: Any, key_clock) -> None:
    """The demo's own settings take both wallets; F9 walks past ZaloPay's four customers to
    MoMo's, and each customer's payment ends paid by the customer's own wallet."""
    demo_settings = demo_wallets(settings, emulator.base_url, emulator.gateway_url)
    assert demo_settings.wallets == wallet_registry.names()  # every wallet, ShopeePay's too
    assert demo_settings.wallets[:2] == ("zalopay", "momo")
    scanner = demo_settings.scanner
    source = open_source("synthetic", decoder=scanner.decoder, code_filter=CodeFilter(
        demo_settings.scan_alphabet, scanner.code_min_length, scanner.code_max_length))
    assert isinstance(source, SyntheticSource)
    momo = emulator.control.momo
    with open_checkout(demo_settings) as checkout:
        app = demo_app(demo_settings, checkout, source, emulator, show_after_s=0.2)
        try:
            async with app.run_test(size=(100, 40)) as pilot:
                await type_keys(pilot, key_clock, *"25000", "enter")
                await wait_until(pilot, lambda: isinstance(pilot.app.screen, ResultScreen),
                                 what="An's result")
                assert pilot.app.screen.outcome.success
                await type_keys(pilot, key_clock, "space")
                await wait_until(pilot, lambda: isinstance(pilot.app.screen, SaleScreen),
                                 what="the next sale")
                await type_keys(pilot, key_clock, *["f9"] * len(DEMO_WALLETS))
                assert "An Nguyen" in text_of(pilot, "#demo-wallet")  # all the way round
                await type_keys(pilot, key_clock, *["f9"] * 6)  # ZaloPay's six, then MoMo's
                assert "Lan (MoMo) (pays at once, key 7)" in text_of(pilot, "#demo-wallet")
                await type_keys(pilot, key_clock, *"45000", "enter")
                await wait_until(pilot, lambda: isinstance(pilot.app.screen, ResultScreen),
                                 what="Lan's MoMo result")
                assert pilot.app.screen.outcome.success
        finally:
            source.stop()
        rows = checkout.journal.list_payments()
    assert [(r.provider, r.amount, r.state) for r in rows] == [
        ("zalopay", 25_000, PaymentState.SUCCEEDED), ("momo", 45_000, PaymentState.SUCCEEDED)]
    [charge] = ledger(emulator)["charges"]  # ZaloPay charged An once, MoMo charged Lan
    assert (charge["wallet"], charge["amount"]) == ("an", 25000)
    assert list(momo.orders) == [rows[1].app_trans_id]
