"""Input the engine refuses before anything is recorded or sent, and configuration that could
never work (refused when the file is loaded)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from pos_terminal.checkout import Checkout, InvalidPayment
from pos_terminal.checkout.validation import check_code_format
from pos_terminal.config import ConfigError, ScannerSettings, Settings, load_settings
from pos_terminal.counter import open_checkout
from pos_terminal.wallets.zalopay.messages import Item
from tests.checkout.conftest import quick_pay_requests, wallet_code, write_config


def _nothing_recorded(co: Checkout) -> bool:
    return co.journal.list_payments() == []


@pytest.mark.parametrize("description", ["Table 4\nrm -rf", "tab\there", "esc\x1b[31m",
                                         "bidi\u202eevil", "nul\x00"])
def test_control_characters_in_the_description_are_refused(
        settings: Settings, emulator: Any, description: str) -> None:
    with open_checkout(settings) as co:
        with pytest.raises(InvalidPayment, match="control character") as err:
            co.pay(10_000, wallet_code(emulator, "an"), description=description)
        assert err.value.field == "description"
        assert _nothing_recorded(co)
    assert quick_pay_requests(emulator) == 0


def test_vietnamese_text_is_not_a_control_character(settings: Settings, emulator: Any) -> None:
    with open_checkout(settings) as co:
        view = co.pay(25_000, wallet_code(emulator, "an"), description="Cà phê sữa đá, bàn 4",
                      items=[Item("1", "Cà phê sữa đá", 12_500, 2)])
    assert view.description == "Cà phê sữa đá, bàn 4"


def test_items_that_do_not_add_up_to_the_amount_are_refused(settings: Settings,
                                                            emulator: Any) -> None:
    with open_checkout(settings) as co:
        with pytest.raises(InvalidPayment) as err:
            co.pay(25_000, wallet_code(emulator, "an"),
                   items=[Item("1", "Tea", 12_000, 2)])
        assert err.value.field == "items"
        assert "24.000 ₫" in err.value.message and "25.000 ₫" in err.value.message
        assert _nothing_recorded(co)
    assert quick_pay_requests(emulator) == 0


@pytest.mark.parametrize(("code", "says"), [
    ("123", "--code has 3 characters, but a payment code has 16 to 24"),
    ("1" * 25, "--code has 25 characters"),
    ("12345678901234567X", "--code holds characters a payment code never has"),
])
def test_a_typed_code_is_checked_against_the_scanner_code_filter(code: str, says: str) -> None:
    with pytest.raises(InvalidPayment, match=says) as err:
        check_code_format(code, ScannerSettings(), field="--code")
    assert code not in err.value.message
    assert check_code_format("1" * 18, ScannerSettings()) == "1" * 18


def test_min_amount_above_max_amount_is_a_config_error(settings: Settings,
                                                       tmp_path: Path) -> None:
    path = write_config(settings, tmp_path / "pos.toml", min_amount=5_000, max_amount=1_000)
    with pytest.raises(ConfigError) as err:
        load_settings(path, env={})
    assert err.value.key == "[checkout] min_amount"
    assert "larger than max_amount (1000)" in err.value.message
