"""userip on quick pay: configured, or the terminal's own address found without traffic."""

from __future__ import annotations

import ipaddress
import socket
from contextlib import closing
from pathlib import Path
from typing import Any

import pytest
import requests

from pos_terminal.config import Settings, load_settings
from pos_terminal.counter import wallet_for
from pos_terminal.wallets.zalopay.client import WalletClient
from pos_terminal.wallets.zalopay.ids import current_ms, new_app_trans_id
from pos_terminal.wallets.zalopay.messages import QuickPayOrder
from pos_terminal.wallets.zalopay.userip import terminal_address


def _code(base_url: str) -> str:
    wallets = requests.get(f"{base_url}/_emulator/wallets", timeout=5).json()["wallets"]
    return str(next(w["code"] for w in wallets if w["id"] == "an"))


def _charges(base_url: str) -> list[dict[str, Any]]:
    return list(requests.get(f"{base_url}/_emulator/ledger", timeout=5).json()["charges"])


def _order() -> QuickPayOrder:
    now = current_ms()
    return QuickPayOrder(app_trans_id=new_app_trans_id("ip", now), app_user="counter-1",
                         app_time=now, amount=12_000)


def test_the_client_sends_the_terminals_own_address_by_default(any_settings: Settings,
                                                              emulator: Any) -> None:
    with WalletClient(any_settings.service) as client:
        assert client.user_ip == "127.0.0.1"  # the emulator is on loopback
        prepared = client.build_quick_pay(_order(), _code(emulator.base_url))
        assert prepared.form["userip"] == "127.0.0.1"
        result = client.send_quick_pay(prepared)
    assert result.app_trans_id == prepared.app_trans_id
    assert [c["user_ip"] for c in _charges(emulator.base_url)] == ["127.0.0.1"]


def test_a_configured_user_ip_is_what_the_service_sees(settings: Settings,
                                                       emulator: Any) -> None:
    configured = settings.replace_section("terminal", user_ip="10.20.30.40")
    with closing(wallet_for(configured)) as wallet:  # the terminal's own wallet, as configured
        assert wallet.client.user_ip == "10.20.30.40"
        wallet.client.quick_pay(_order(), _code(emulator.base_url))
    assert [c["user_ip"] for c in _charges(emulator.base_url)] == ["10.20.30.40"]


def test_user_ip_in_the_config_file_must_be_an_address(tmp_path: Path) -> None:
    from tests.conftest import DEFAULT_CONFIG

    text = DEFAULT_CONFIG.read_text("utf-8").replace(
        'app_user = "counter-1"', 'app_user = "counter-1"\nuser_ip = "counter-pc"')
    path = tmp_path / "pos.toml"
    path.write_text(text, "utf-8")
    with pytest.raises(Exception, match=r"\[terminal\] user_ip: .*not an IP address"):
        load_settings(path, env={})


@pytest.mark.parametrize("url", ["http://127.0.0.1:8765", "http://localhost:8765",
                                 "http://[::1]:8765"])
def test_loopback_services_give_a_loopback_address(url: str) -> None:
    assert ipaddress.ip_address(terminal_address(url)).is_loopback


def test_another_host_gives_this_machines_routed_address_or_the_fallback() -> None:
    address = terminal_address("https://sb-openapi.zalopay.vn")  # a name: not resolved
    parsed = ipaddress.ip_address(address)
    assert not parsed.is_unspecified
    local = {"127.0.0.1"}
    try:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
            probe.connect(("192.0.2.1", 9))
            local.add(probe.getsockname()[0])
    except OSError:
        pass
    assert address in local
