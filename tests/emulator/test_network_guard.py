"""The emulator on a network (issue 20 item 9), over real HTTP: a foreign Host header is refused
(DNS rebinding), the control API takes no POST a web page could send without asking (text/plain,
a form, no body), needs the token printed at start once bound beyond loopback, and callbacks go
only to the hosts the configuration allows (loopback by default)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
import requests

from pos_terminal.config import Settings
from pos_terminal.emulator import RunningEmulator, start_emulator
from pos_terminal.emulator.addresses import network_address
from tests.emulator.wirehelp import create_form, post


@pytest.fixture
def emu(base_settings: Settings) -> Iterator[RunningEmulator]:
    with start_emulator(base_settings, host="127.0.0.1", port=0) as server:
        yield server


def _ledger_requests(server: RunningEmulator) -> dict[str, int]:
    answer = requests.get(server.base_url + "/_emulator/ledger", timeout=5)
    answer.raise_for_status()
    counts: dict[str, int] = answer.json()["requests"]
    return counts


def _faults(server: RunningEmulator, **headers: str) -> list[Any]:
    answer = requests.get(server.base_url + "/_emulator/faults", headers=headers, timeout=5)
    answer.raise_for_status()
    faults: list[Any] = answer.json()["faults"]
    return faults


@pytest.mark.parametrize("path", ["/_emulator/wallets", "/wallets", "/api/getlistmerchantbanks"])
def test_a_foreign_host_header_is_refused(emu: RunningEmulator, path: str) -> None:
    """What a page on rebind.attacker.example sends once its name resolves to 127.0.0.1."""
    answer = requests.get(emu.base_url + path, timeout=5,
                          headers={"Host": f"rebind.attacker.example:{emu.port}"})
    assert answer.status_code == 421
    error = answer.json()["error"]
    assert error.startswith("this emulator does not answer to the Host "
                            f"'rebind.attacker.example:{emu.port}'")
    assert "[emulator] allowed_hosts" in error


@pytest.mark.parametrize("host", ["127.0.0.1.nip.io", "0.0.0.0", "192.0.2.10", "[::1]:x",
                                  "localhost.attacker.example"])
def test_names_and_addresses_that_are_not_its_own_are_refused(emu: RunningEmulator,
                                                              host: str) -> None:
    answer = requests.get(emu.base_url + "/_emulator/ledger", timeout=5, headers={"Host": host})
    assert answer.status_code == 421


def test_a_rebound_page_cannot_reset_the_emulator(emu: RunningEmulator) -> None:
    post(emu.base_url, "/v2/create", create_form("v2"))
    refused = requests.post(emu.base_url + "/_emulator/reset", json={}, timeout=5,
                            headers={"Host": "rebind.attacker.example"})
    assert refused.status_code == 421
    assert _ledger_requests(emu).get("create") == 1  # nothing was reset


@pytest.mark.parametrize("host", ["localhost", "LOCALHOST.", "127.0.0.1", "[::1]"])
def test_its_own_names_are_answered(emu: RunningEmulator, host: str) -> None:
    answer = requests.get(emu.base_url + "/_emulator/wallets", timeout=5,
                          headers={"Host": f"{host}:{emu.port}"})
    assert answer.status_code == 200


def test_allowed_hosts_adds_a_name(base_settings: Settings) -> None:
    settings = base_settings.replace_section("emulator", allowed_hosts=("pos-emulator.test",))
    with start_emulator(settings, host="127.0.0.1", port=0) as server:
        named = requests.get(server.base_url + "/wallets", timeout=5,
                             headers={"Host": f"pos-emulator.test:{server.port}"})
        assert named.status_code == 200
        other = requests.get(server.base_url + "/wallets", timeout=5,
                             headers={"Host": "other.test"})
        assert other.status_code == 421


@pytest.mark.parametrize(("kind", "body"), [
    ("text/plain;charset=UTF-8", '{"endpoint": "*", "mode": "http500", "count": 0}'),
    ("application/x-www-form-urlencoded", "endpoint=*&mode=http500&count=0"),
    ("multipart/form-data; boundary=x", "--x--\r\n"),
])
def test_a_web_page_post_cannot_inject_a_fault(emu: RunningEmulator, kind: str,
                                               body: str) -> None:
    """The three content types a page may POST to any address without a CORS preflight."""
    answer = requests.post(emu.base_url + "/_emulator/faults", data=body.encode(), timeout=5,
                           headers={"Content-Type": kind})
    assert answer.status_code == 415
    assert answer.json()["error"].startswith(
        "the control API takes POST bodies only as application/json")
    assert _faults(emu) == []


def test_a_bodiless_or_text_post_cannot_reset(emu: RunningEmulator) -> None:
    post(emu.base_url, "/v2/create", create_form("v2"))
    bare = requests.post(emu.base_url + "/_emulator/reset", timeout=5)
    text = requests.post(emu.base_url + "/_emulator/reset", data=b"{}", timeout=5,
                         headers={"Content-Type": "text/plain"})
    rotate = requests.post(emu.base_url + "/_emulator/wallets/an/rotate", timeout=5)
    assert (bare.status_code, text.status_code, rotate.status_code) == (415, 415, 415)
    assert _ledger_requests(emu).get("create") == 1
    assert requests.post(emu.base_url + "/_emulator/reset", json={}, timeout=5).ok
    assert _ledger_requests(emu) == {}


def test_beyond_loopback_the_control_api_needs_the_token(base_settings: Settings) -> None:
    with start_emulator(base_settings, host="0.0.0.0", port=0) as server:
        token = server.control_token
        assert token is not None and len(token) >= 32
        url = server.base_url + "/_emulator/faults"
        assert requests.get(url, timeout=5).status_code == 401
        wrong = requests.get(url, timeout=5, headers={"Authorization": "Bearer nope"})
        assert wrong.status_code == 401
        assert "the token printed when the emulator started" in wrong.json()["error"]
        rule = {"endpoint": "*", "mode": "http500", "count": 0}
        assert requests.post(url, json=rule, timeout=5).status_code == 401
        assert _faults(server, Authorization=f"Bearer {token}") == []
        added = requests.post(url, json=rule, timeout=5,
                              headers={"Authorization": f"Bearer {token}"})
        assert added.status_code == 200
        # the service and the wallet page stay open, by this machine's network address too
        page = requests.get(f"http://{network_address()}:{server.port}/wallets", timeout=5)
        assert page.status_code == 200


def test_the_demo_sends_the_token_beyond_loopback(base_settings: Settings) -> None:
    """`pos-terminal demo --host 0.0.0.0` holds codes up from the control API: with the token."""
    from pos_terminal.tui.demo import DemoController

    shown: list[str | None] = []
    with start_emulator(base_settings, host="0.0.0.0", port=0) as server:
        without = DemoController(server.base_url, shown.append)
        with pytest.raises(requests.HTTPError, match="401"):
            without.current_code()
        demo = DemoController(server.base_url, shown.append,
                              control_token=server.control_token)
        code = demo.current_code()
        assert code.isdigit() and len(code) >= 16


def test_on_loopback_no_token_is_needed(emu: RunningEmulator) -> None:
    assert emu.control_token is None
    assert requests.get(emu.base_url + "/_emulator/wallets", timeout=5).ok


def test_callbacks_go_only_to_allowed_hosts(emu: RunningEmulator,
                                            base_settings: Settings) -> None:
    """An order naming the cloud metadata address or an intranet host is accepted (as the real
    service accepts it), and its callback is never sent there: it is recorded as skipped
    (tests/emulator/test_callbacks.py pays one and reads the record)."""
    for url in ("http://169.254.169.254/latest/meta-data", "http://intranet.shop.example/cb",
                "http://10.0.0.8:8080/admin"):
        accepted = post(emu.base_url, "/v2/create",
                        create_form("v2", extra={"callback_url": url}))
        assert accepted["return_code"] == 1, accepted
    allowed = post(emu.base_url, "/v2/create",
                   create_form("v2", extra={"callback_url": "http://127.0.0.1:9/cb"}))
    assert allowed["return_code"] == 1, allowed
    assert requests.get(emu.base_url + "/_emulator/callbacks", timeout=5).json()[
        "callbacks"] == []  # nothing is paid: nothing is sent, nothing skipped yet
    settings = base_settings.replace_section("emulator",
                                             callback_hosts=("merchant.example",))
    with start_emulator(settings, host="127.0.0.1", port=0) as server:
        named = post(server.base_url, "/v2/create",
                     create_form("v2", extra={"callback_url": "https://merchant.example/cb"}))
        assert named["return_code"] == 1, named


def test_the_control_api_reads_json_with_the_strict_reader(emu: RunningEmulator) -> None:
    """A fault rule with a key twice, in UTF-16 or with NaN is refused (400), never half-read:
    the control routes read bodies as the Terminal API does (base/strict_json.py)."""
    http = requests
    base = emu.base_url
    headers = {"Content-Type": "application/json"}
    for body in (b'{"mode": "timeout", "mode": "garbage"}', '{"mode": "timeout"}'.encode(
            "utf-16"), b'{"mode": "timeout", "times": NaN}'):
        answer = http.post(f"{base}/_emulator/faults", data=body, headers=headers, timeout=5)
        assert answer.status_code == 400, body
    assert http.get(f"{base}/_emulator/faults", timeout=5).json()["faults"] == []
