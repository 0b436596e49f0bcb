"""Issue 29 from the UI: each payment row of the issue's table ends PAID (never NOT PAID on
the way) when the emulator answers ZaloPay's published codes (tests/e2e/test_published_codes.py
drives the same rows from the CLI, headless mode and the Terminal API)."""

from __future__ import annotations

from typing import Any

import pytest

from pos_terminal.checkout import Checkout, PaymentState
from pos_terminal.tui.screens.result import ResultScreen
from pos_terminal.tui.screens.sale import SaleScreen
from tests.e2e.test_published_codes import PAYMENT_ROWS, _inject
from tests.tui.helpers import type_keys, wait_until
from tests.tui.test_flows import charge

pytestmark = pytest.mark.asyncio


async def test_ui_every_row(make_app: Any, key_clock: Any, emulator: Any,
                            checkout: Checkout) -> None:
    async with make_app().run_test(size=(80, 24)) as pilot:
        for row, rules in PAYMENT_ROWS.items():
            _inject(emulator, rules)
            await charge(pilot, key_clock, emulator, "17000", "an")
            await wait_until(pilot, lambda: isinstance(pilot.app.screen, ResultScreen),
                             what=f"the result of {row}")
            outcome = pilot.app.screen.outcome
            assert outcome.success and outcome.headline != "NOT PAID", (row, outcome)
            await type_keys(pilot, key_clock, "space")
            await wait_until(pilot, lambda: isinstance(pilot.app.screen, SaleScreen),
                             what="the next sale")
    views = checkout.journal.list_payments()
    assert len(views) == len(PAYMENT_ROWS)
    assert {v.state for v in views} == {PaymentState.SUCCEEDED}
    assert all(v.why.code == "paid" or v.state is PaymentState.SUCCEEDED for v in views)
