"""`pos-terminal headless` on a counter taking ZaloPay and ShopeePay: a real subprocess whose
serial scanner reads a ShopeePay code ("SPC..."): it is charged by ShopeePay, its status read
and part of it refunded, each answer naming its wallet (read from the registry)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from pos_terminal.config import Settings
from tests.checkout.conftest import write_config
from tests.e2e.test_headless import Counter
from tests.scanners import SerialScanner
from tests.wallets.shopeepay_help import code_of, with_shopeepay

pytestmark = pytest.mark.e2e


@pytest.fixture
def counter(settings: Settings, emulator: Any, tmp_path: Path,
            scanner: SerialScanner) -> Iterator[Counter]:
    config = write_config(with_shopeepay(settings, emulator), tmp_path / "pos.toml")
    with Counter(config, scanner) as running:
        yield running


def test_pay_status_and_refund_with_shopeepay(counter: Counter, emulator: Any) -> None:
    spay = emulator.control.part("shopeepay")
    assert counter.read()["command"] == "READY"
    code = code_of(emulator, "spay-paid")
    paid = counter.ask_showing(code, "PAY 52000 noodles")
    assert (paid["ok"], paid["provider"], paid["state"]) == (True, "shopeepay", "succeeded")
    assert code not in str(paid)
    order = paid["app_trans_id"]
    assert list(spay.payments) == [order]
    status = counter.ask(f"STATUS {order}")
    assert (status["provider"], status["state"]) == ("shopeepay", "succeeded")
    refund = counter.ask(f"REFUND {order} 12000")
    assert refund["ok"] is True, refund
    assert [spay.refunds[r].amount for r in spay.payments[order].refunds] == [12_000]
    assert counter.ask("QUIT")["ok"] is True
