"""`pos-terminal banks` and `pos-terminal verify-redirect`, run through click against the
emulator on loopback with a real configuration file."""

from __future__ import annotations

import hashlib
import hmac
import json
import socket
import subprocess
import sys
from pathlib import Path
from typing import Any

import click
import pytest
import requests
from click.testing import CliRunner, Result

from pos_terminal.cli import wallet_cmds
from pos_terminal.cli.common import add_config_option
from pos_terminal.config import Settings
from pos_terminal.wallets.zalopay.client import WalletClient
from tests.processes import child_env

REPO = Path(__file__).resolve().parents[2]


def command_group() -> click.Group:
    group = click.Group("pos-terminal")
    wallet_cmds.register(group)
    add_config_option(group)
    return group


def write_config(tmp_path: Path, settings: Settings, base_url: str | None = None) -> Path:
    """A file with only the contract keys (docs/external-contracts.md), as other programs write
    them."""
    s = settings.service
    url = base_url or s.base_url
    path = tmp_path / "pos.toml"
    path.write_text(
        "[service]\n"
        f'generation = "{s.generation}"\nbase_url = "{url}"\ngateway_url = "{url}"\n'
        f"app_id = {s.app_id}\nkey1 = \"{s.key1.get_secret_value()}\"\n"
        f"key2 = \"{s.key2.get_secret_value()}\"\n"
        f'rsa_public_key = "{s.rsa_public_key}"\ntimeout_s = 2\n\n'
        "[terminal]\n"
        f'journal = "{tmp_path / "journal.sqlite3"}"\napp_user = "counter-1"\n',
        encoding="utf-8",
    )
    path.chmod(0o600)
    return path


def run(config: Path, *args: str) -> Result:
    return CliRunner().invoke(command_group(), [*args, "--config", str(config)])


def output_lines(result: Result, exit_code: int) -> list[str]:
    """The lines a command printed, once it exited with `exit_code`."""
    assert result.exit_code == exit_code, result.output
    return result.output.splitlines()


def test_banks_table_groups_by_channel(settings: Settings, tmp_path: Path) -> None:
    with WalletClient(settings.service) as client:
        listed = client.list_banks()
    result = run(write_config(tmp_path, settings), "banks")
    lines = output_lines(result, 0)
    names = {36: "Visa/Master/JCB", 37: "Bank Account", 38: "Wallet", 39: "ATM",
             41: "Visa/Master Debit"}
    for pmcid, banks in listed.banks_by_pmcid.items():
        heading = next(i for i, line in enumerate(lines)
                       if line.startswith(f"{names[pmcid]} (pmcid {pmcid})"))
        assert lines[heading + 1].split() == ["CODE", "NAME", "MIN", "MAX"]
        for offset, bank in enumerate(banks, start=2):
            row = lines[heading + offset]
            assert row.split()[0] == bank.bankcode
            assert bank.name in row
            assert row.split()[-2:] == [f"{bank.minamount:,}".replace(",", "."),
                                       f"{bank.maxamount:,}".replace(",", ".")]
    assert lines[-1] == "Amounts in VND."


def test_banks_json_prints_the_service_answer(settings: Settings, tmp_path: Path) -> None:
    result = run(write_config(tmp_path, settings), "banks", "--json")
    assert result.exit_code == 0, result.output
    printed = json.loads(result.output)
    assert printed["returncode"] == 1
    with WalletClient(settings.service) as client:
        assert printed["banks"] == dict(client.list_banks().raw)["banks"]


def test_banks_without_an_answer_exits_1(settings: Settings, emulator: Any,
                                         tmp_path: Path) -> None:
    requests.post(f"{emulator.base_url}/_emulator/faults",
                  json={"endpoint": "banks", "mode": "html", "count": 10}, timeout=5)
    result = run(write_config(tmp_path, settings), "banks")
    assert result.exit_code == 1
    assert "unreadable answer to the bank list" in result.output
    assert "Traceback" not in result.output


def test_banks_with_the_service_down_exits_1(settings: Settings, tmp_path: Path) -> None:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    result = run(write_config(tmp_path, settings, f"http://127.0.0.1:{port}"), "banks")
    assert result.exit_code == 1
    assert "no answer to the bank list" in result.output
    assert "Traceback" not in result.output


def test_banks_with_a_missing_config_exits_2(tmp_path: Path) -> None:
    result = run(tmp_path / "nope.toml", "banks")
    assert result.exit_code == 2
    assert "nope.toml" in result.output
    assert "Traceback" not in result.output


def signed_query(settings: Settings, **override: str) -> str:
    values = {"appid": str(settings.service.app_id), "apptransid": "241121_T1_0002",
              "pmcid": "38", "bankcode": "zalopayapp", "amount": "120000",
              "discountamount": "0", "status": "1"}
    data = "|".join(values.values())
    checksum = hmac.new(settings.service.key2.get_secret_value().encode(), data.encode(),
                        hashlib.sha256).hexdigest()
    values.update(override)
    return "&".join(f"{k}={v}" for k, v in values.items()) + f"&checksum={checksum}"


def test_verify_redirect_valid(base_settings: Settings, tmp_path: Path) -> None:
    url = "https://shop.example/paid?" + signed_query(base_settings)
    result = run(write_config(tmp_path, base_settings), "verify-redirect", url)
    lines = output_lines(result, 0)
    assert lines[0] == "valid redirect"
    assert "  apptransid     241121_T1_0002" in lines
    assert "  amount         120000" in lines
    assert "  channel        Wallet" in lines


def test_verify_redirect_invalid(base_settings: Settings, tmp_path: Path) -> None:
    tampered = signed_query(base_settings, amount="1")
    result = run(write_config(tmp_path, base_settings), "verify-redirect", tampered)
    lines = output_lines(result, 1)
    assert lines[0] == "invalid redirect: bad checksum: not signed with this key2"
    assert "  amount         1" in lines


@pytest.mark.parametrize(("query", "code"), [("valid", 0), ("status=1", 1)])
def test_verify_redirect_json(base_settings: Settings, tmp_path: Path, query: str,
                              code: int) -> None:
    given = signed_query(base_settings) if query == "valid" else query
    result = run(write_config(tmp_path, base_settings), "verify-redirect", "--json", given)
    assert result.exit_code == code
    printed = json.loads(result.output)
    assert printed["valid"] is (code == 0)
    assert printed["apptransid"] == ("241121_T1_0002" if code == 0 else None)
    assert printed["reason"] == ("" if code == 0 else "missing field: appid")


def run_console(config: Path, *args: str) -> subprocess.CompletedProcess[str]:
    """The real `pos-terminal` entry point in a child process (what scripts run)."""
    return subprocess.run(
        [sys.executable, "-m", "pos_terminal.cli", *args, "--config", str(config)],
        capture_output=True, text=True, env=child_env(), timeout=60, check=False,
    )


def test_console_script_banks_and_verify_redirect(settings: Settings, emulator: Any,
                                                  tmp_path: Path) -> None:
    config = write_config(tmp_path, settings)
    listed = run_console(config, "banks")
    assert listed.returncode == 0, listed.stderr
    assert listed.stdout.splitlines()[-1] == "Amounts in VND."
    assert "Wallet (pmcid 38)" in listed.stdout
    requests.post(f"{emulator.base_url}/_emulator/faults",
                  json={"endpoint": "banks", "mode": "drop", "count": 10}, timeout=5)
    dropped = run_console(config, "banks")
    assert dropped.returncode == 1
    assert dropped.stderr.startswith("error: no answer to the bank list")
    assert "Traceback" not in dropped.stderr
    valid = run_console(config, "verify-redirect", signed_query(settings))
    assert (valid.returncode, valid.stdout.splitlines()[0]) == (0, "valid redirect")
    invalid = run_console(config, "verify-redirect", signed_query(settings, status="2"))
    assert invalid.returncode == 1
    assert invalid.stdout.startswith("invalid redirect: bad checksum")


CALLBACK_DATA = ('{"app_id":2553,"app_trans_id":"241121_T1_0002","amount":120000,'
                 '"zp_trans_id":241121000000007,"server_time":1732156800123}')


def signed_callback(settings: Settings, data: str = CALLBACK_DATA) -> bytes:
    key2 = settings.service.key2.get_secret_value()
    mac = hmac.new(key2.encode(), data.encode(), hashlib.sha256).hexdigest()
    return json.dumps({"data": data, "mac": mac, "type": 1}).encode()


def test_verify_callback_valid_from_a_file(base_settings: Settings, tmp_path: Path) -> None:
    body = tmp_path / "callback.json"
    body.write_bytes(signed_callback(base_settings))
    result = run(write_config(tmp_path, base_settings), "verify-callback", str(body))
    lines = output_lines(result, 0)
    assert lines[0] == "valid callback"
    assert "  app_trans_id     241121_T1_0002" in lines
    assert "  amount           120000" in lines
    assert "  zp_trans_id      241121000000007" in lines
    assert "  type             1" in lines
    assert lines[-1] == 'answer with: {"return_code": 1, "return_message": "success"}'


def test_verify_callback_invalid_from_stdin(base_settings: Settings, tmp_path: Path) -> None:
    tampered = signed_callback(base_settings).replace(b"120000", b"1")
    result = CliRunner().invoke(command_group(), [
        "verify-callback", "--config", str(write_config(tmp_path, base_settings))],
        input=tampered)
    lines = output_lines(result, 1)
    assert lines[0] == "invalid callback: bad mac: not signed with this key2"
    assert "received (not trusted):" in lines
    assert "  amount           1" in lines
    assert lines[-1] == 'answer with: {"return_code": -1, "return_message": "mac not equal"}'


@pytest.mark.parametrize(("body", "code", "reason"), [
    ("valid", 0, ""),
    ("other-app", 1, "app_id 9 is not this terminal's application (2553)"),
    ("not json", 1, "the callback body is not JSON"),
])
def test_verify_callback_json(base_settings: Settings, tmp_path: Path, body: str, code: int,
                              reason: str) -> None:
    raw = {"valid": signed_callback(base_settings),
           "other-app": signed_callback(base_settings, CALLBACK_DATA.replace("2553", "9")),
           "not json": b"not json"}[body]
    result = CliRunner().invoke(command_group(), [
        "verify-callback", "-", "--json", "--config",
        str(write_config(tmp_path, base_settings))], input=raw)
    assert result.exit_code == code, result.output
    printed = json.loads(result.output)
    assert (printed["valid"], printed["reason"]) == (code == 0, reason)
    assert printed["reply"]["return_code"] == (1 if code == 0 else -1)
    assert printed["data"] == (json.loads(CALLBACK_DATA) if code == 0 else None)
    assert printed["type"] == (1 if code == 0 else None)


@pytest.mark.parametrize(("make", "message"), [
    (lambda p: str(p / "missing.json"), "cannot read the callback body from"),
    (lambda p: (p / "empty.json").write_bytes(b"  \n") and str(p / "empty.json"),
     "is empty"),
])
def test_verify_callback_unreadable_body_exits_2(base_settings: Settings, tmp_path: Path,
                                                 make: Any, message: str) -> None:
    result = run(write_config(tmp_path, base_settings), "verify-callback", make(tmp_path))
    assert result.exit_code == 2
    assert message in result.output
    assert "Traceback" not in result.output
