"""The emulator bound for a phone: the URL it prints is one a phone on the network can open."""

from __future__ import annotations

import ipaddress
import subprocess
from typing import Any

import pytest
import requests
from click.testing import CliRunner

from pos_terminal.config import Settings
from pos_terminal.emulator import start_emulator
from pos_terminal.emulator.addresses import network_address, reachable_host
from tests.emulator.test_cli import _base_url, _start
from tests.processes import child_env


def test_a_wildcard_bind_shows_this_machines_network_address(base_settings: Settings) -> None:
    with start_emulator(base_settings, host="0.0.0.0", port=0) as server:
        assert server.base_url == f"http://127.0.0.1:{server.port}"
        public = server.public_url
        host = public.removeprefix("http://").rsplit(":", 1)[0]
        assert host == network_address()
        assert not ipaddress.ip_address(host).is_unspecified
        # both reach the same emulator: the page a phone opens and the terminal's loopback
        page = requests.get(public + "/wallets", timeout=5)
        assert page.status_code == 200 and "Emulated wallets" in page.text
        # beyond loopback, the control API needs the token (tests/emulator/test_network_guard)
        control = server.base_url + "/_emulator/wallets"
        assert requests.get(control, timeout=5).status_code == 401
        assert requests.get(control, timeout=5, headers={
            "Authorization": f"Bearer {server.control_token}"}).ok


def test_a_specific_bind_is_shown_as_is(base_settings: Settings) -> None:
    with start_emulator(base_settings, host="127.0.0.1", port=0) as server:
        assert server.public_url == server.base_url == f"http://127.0.0.1:{server.port}"
    assert reachable_host("192.168.7.9") == "192.168.7.9"


@pytest.mark.e2e
def test_emulator_command_with_host_0000_prints_a_url_a_phone_can_open() -> None:
    process = _start("--host", "0.0.0.0", "--port", "0")
    try:
        base_url = _base_url(process)
        assert "0.0.0.0" not in base_url
        assert base_url.startswith(f"http://{network_address()}:")
        assert process.stdout is not None
        lines = [process.stdout.readline() for _ in range(4)]
        assert f"  wallet codes page:  {base_url}/wallets\n" in lines
        assert any("bound to every interface" in line for line in lines)
        assert requests.get(base_url + "/wallets", timeout=5).status_code == 200
        # the control API's token is printed at start, and needed
        [token_line] = [line for line in lines if line.startswith("  control API token:  ")]
        token = token_line.split(":", 1)[1].strip()
        control = base_url + "/_emulator/wallets"
        assert requests.get(control, timeout=5).status_code == 401
        assert requests.get(control, timeout=5, headers={"Authorization": f"Bearer {token}"}).ok
    finally:
        process.kill()
        process.wait(10)


def test_demo_has_host_and_port_options() -> None:
    from pos_terminal.cli import main

    result = CliRunner().invoke(main, ["demo", "--help"])
    assert result.exit_code == 0
    assert "--host TEXT" in result.output and "0.0.0.0" in result.output
    assert "--port" in result.output


def test_demo_reports_a_host_it_cannot_bind(tmp_path: Any) -> None:
    import sys

    from tests.conftest import DEFAULT_CONFIG

    done = subprocess.run(
        [sys.executable, "-m", "pos_terminal", "demo", "--config", str(DEFAULT_CONFIG),
         "--host", "192.0.2.77", "--port", "0"],
        capture_output=True, text=True, timeout=60, check=False, cwd=tmp_path,
        # The demo speaks Vietnamese unless the locale names another language.
        env=child_env(LANG="en_US.UTF-8", LC_ALL="en_US.UTF-8"))
    assert done.returncode != 0
    assert "the emulator could not start on 192.0.2.77:0" in done.stderr
    assert "Traceback" not in done.stderr
