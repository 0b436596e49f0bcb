"""History's override (O) settles a payOS QR whose money came after it closed empty: the row is
FAILED and flagged for review; Ctrl+S with "rest in cash" makes the sale paid and keeps what
arrived and what was missing in its sentence (real app, real emulator over HTTP)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import requests

from pos_terminal.config import Settings
from pos_terminal.journal import PaymentState
from pos_terminal.tui.screens.history import PaymentDetailScreen
from tests.tui.conftest import KeyClock
from tests.tui.helpers import screen_text, type_keys, wait_until
from tests.tui.scenes import scene_app
from tests.wallets.payos_help import shown, with_payos

pytestmark = pytest.mark.asyncio


async def test_override_in_history_settles_money_found_after_the_qr_closed(
        settings: Settings, emulator: Any, tmp_path: Path, key_clock: KeyClock) -> None:
    app = scene_app(with_payos(settings, emulator), tmp_path / "journal.sqlite3")
    checkout = app.counter.checkout
    try:
        order = checkout.create_gateway_order(40_000, provider="payos")
        assert checkout.cancel_gateway_order(order.app_trans_id).state is PaymentState.FAILED
        code = shown(emulator)[0]["orderCode"]
        requests.post(f"{emulator.base_url}/_emulator/payos/requests/{code}/pay",
                      json={"amount": 15_000}, timeout=30).raise_for_status()
        checkout.reconcile()
        flagged = checkout.journal.get(order.app_trans_id)
        assert (flagged.state, flagged.needs_review) == (PaymentState.FAILED, True)
        async with app.run_test(size=(120, 40)) as pilot:
            await app.push_screen(PaymentDetailScreen(order.app_trans_id))
            await wait_until(pilot, lambda: isinstance(app.screen, PaymentDetailScreen)
                             and app.screen.view is not None, what="the payment's detail")
            await type_keys(pilot, key_clock, "o")
            await wait_until(pilot, lambda: "15.000 ₫ arrived, 25.000 ₫ is missing. Ctrl+S: the "
                             "rest was collected another way" in screen_text(pilot),
                             what="the dialog says what each key means for the money")
            await type_keys(pilot, key_clock, "ctrl+s", *"rest in cash", "enter")
            await wait_until(pilot, lambda: checkout.journal.get(order.app_trans_id).state
                             is PaymentState.SUCCEEDED, what="the override in the journal")
            await wait_until(pilot, lambda: "collected another way" in screen_text(pilot),
                             what="the detail says what arrived")
        settled = checkout.journal.get(order.app_trans_id)
        assert (settled.needs_review, settled.why.code) == (False, "override.rest_collected")
        assert (settled.why.params["amount"], settled.why.params["missing"]) == (15_000, 25_000)
    finally:
        checkout.close()


async def test_refund_in_history_records_the_shops_own_transfer_for_payos(
        settings: Settings, emulator: Any, tmp_path: Path, key_clock: KeyClock) -> None:
    """The whole amount landed after the QR closed (a late payment, left for review: payOS
    returns nothing). F (refund) asks for the shop's bank transfer, and Y records it: the
    payment is returned to the customer, by the shop, nothing sent to payOS."""
    app = scene_app(with_payos(settings, emulator), tmp_path / "journal.sqlite3")
    checkout = app.counter.checkout
    try:
        order = checkout.create_gateway_order(40_000, provider="payos")
        checkout.cancel_gateway_order(order.app_trans_id)
        code = shown(emulator)[0]["orderCode"]
        requests.post(f"{emulator.base_url}/_emulator/payos/requests/{code}/pay", json={},
                      timeout=30).raise_for_status()
        checkout.reconcile()
        late = checkout.journal.get(order.app_trans_id)
        assert (late.state, late.late, late.needs_review) == (PaymentState.SUCCEEDED, True, True)
        async with app.run_test(size=(120, 40)) as pilot:
            await app.push_screen(PaymentDetailScreen(order.app_trans_id))
            await wait_until(pilot, lambda: isinstance(app.screen, PaymentDetailScreen)
                             and app.screen.view is not None, what="the payment's detail")
            await type_keys(pilot, key_clock, "f")
            await wait_until(pilot, lambda: bool(app.screen.query("#refund-transfer")),
                             what="the dialog asks for the shop's transfer")
            await type_keys(pilot, key_clock, "enter")  # the amount alone is not enough
            await wait_until(pilot, lambda: "Type the shop's bank transfer" in screen_text(pilot),
                             what="the transfer asked for")
            await type_keys(pilot, key_clock, *"VCB 123", "enter")
            await wait_until(pilot, lambda: "by the shop's bank transfer? Y" in screen_text(pilot),
                             what="the question")
            await type_keys(pilot, key_clock, "y")
            await wait_until(pilot, lambda: checkout.journal.get(order.app_trans_id).state
                             is PaymentState.REFUNDED, what="the return in the journal")
        [refund] = checkout.journal.refunds(order.app_trans_id)
        assert (refund.amount, refund.refund_id, refund.why.code) == (
            40_000, None, "refund.by_shop")
        assert "VCB 123" in refund.message and "not by payOS" in refund.message
    finally:
        checkout.close()
