"""`pos-terminal headless` on a counter taking ZaloPay and MoMo (issue 31): a real subprocess
whose serial scanner reads a ZaloPay code and then a MoMo code ("MM..."); each is charged by its
own wallet; a code no wallet takes is refused (nothing sent) unless PROVIDER= names one."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from pos_terminal.config import Settings
from tests.checkout.conftest import write_config
from tests.conftest import fresh_code
from tests.e2e.test_headless import Counter
from tests.scanners import SerialScanner

pytestmark = pytest.mark.e2e


@pytest.fixture
def counter(both_settings: Settings, tmp_path: Path,
            scanner: SerialScanner) -> Iterator[Counter]:
    with Counter(write_config(both_settings, tmp_path / "pos.toml"), scanner) as running:
        yield running


def test_pay_with_each_wallet_then_a_code_no_wallet_takes(counter: Counter,
                                                          emulator: object) -> None:
    momo = emulator.control.momo  # type: ignore[attr-defined]
    assert counter.read()["command"] == "READY"
    zp = counter.ask_showing(fresh_code(emulator, "an"), "PAY 25000 tea")
    mm = counter.ask_showing(emulator.control.momo_code("momo-paid"),  # type: ignore[attr-defined]
                             "PAY 45000 cake")
    assert (zp["ok"], zp["provider"]) == (True, "zalopay")
    assert (mm["ok"], mm["provider"], mm["description"]) == (True, "momo", "cake")
    assert list(momo.orders) == [mm["app_trans_id"]]
    odd = fresh_code(emulator, "an") + "M"
    refused = counter.ask_showing(odd, "PAY 25000")
    assert refused["ok"] is False and refused["outcome"] == "nothing_sent"
    assert "PROVIDER=" in refused["error"] and odd not in str(refused)
    other = fresh_code(emulator, "an") + "M"  # another read (the scanner debounces a repeat)
    named = counter.ask_showing(other, "PAY 25000 PROVIDER=zalopay tea")
    assert (named.get("provider"), named.get("description")) == ("zalopay", "tea"), named
    wrong = counter.ask("PAY 25000 PROVIDER=shopeepay")
    assert wrong["ok"] is False and "zalopay, momo" in wrong["error"]
    assert momo.requests["pay"] == 1
    assert counter.ask("QUIT")["ok"] is True
