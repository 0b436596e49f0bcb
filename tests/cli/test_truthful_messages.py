"""Issue 14: messages that name the real cause and the fix, never a claim that did not happen;
a missing scanner is an error wherever it is used; CSV exports of payments and refunds. Real
CLI processes (CliRunner in-process, or subprocesses for headless) against the emulator."""

from __future__ import annotations

import base64
import csv
import io
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import rsa

from pos_terminal.config import ConfigError, Settings, load_settings
from tests.checkout.conftest import ledger, quick_pay_requests, wallet_code, write_config
from tests.cli.conftest import runner_for
from tests.processes import child_env

REPO = Path(__file__).resolve().parents[2]
MISSING = "/dev/input/event-pos-terminal-test-missing"


def test_pay_with_a_missing_scanner_is_exit_2_naming_the_device(cli: Any,
                                                                emulator: Any) -> None:
    result = cli("pay", "--amount", "5000", "--scanner", f"evdev:{MISSING}", "--json")
    assert result.exit_code == 2
    data = json.loads(result.stdout)
    assert data["error"] == (
        f"the scanner 'evdev:{MISSING}' cannot be used: {MISSING} does not exist: plug the "
        "scanner in, or name its event device (ls -l /dev/input/by-id). Fix --scanner (or "
        "[scanner] source in the configuration) and start again; nothing was charged.")
    assert (data["state"], data["field"]) == ("failed", "scanner")
    assert quick_pay_requests(emulator) == 0


def test_headless_with_a_missing_scanner_never_says_ready(settings: Settings, emulator: Any,
                                                          tmp_path: Path) -> None:
    config = write_config(settings, tmp_path / "pos.toml")
    done = subprocess.run(
        [sys.executable, "-m", "pos_terminal.cli", "--config", str(config), "headless",
         "--scanner", "serial:/dev/ttyACM-pos-terminal-test-missing"],
        input=b"QUIT\n", capture_output=True, timeout=60, check=False,
        env=child_env())
    assert done.returncode == 2
    assert done.stdout == b""  # no READY, no ok:true
    assert done.stderr.decode().strip() == (
        "error: the scanner 'serial:/dev/ttyACM-pos-terminal-test-missing' cannot be used: "
        "/dev/ttyACM-pos-terminal-test-missing does not exist: plug the scanner in, or name its "
        "port (ls -l /dev/serial/by-id). Fix --scanner (or [scanner] source in the "
        "configuration) and start again; nothing was charged.")


def test_a_wrong_rsa_key_says_so_not_check_the_amount(settings: Settings, emulator: Any,
                                                      tmp_path: Path) -> None:
    other = rsa.generate_private_key(public_exponent=65537, key_size=1024).public_key()
    der = other.public_bytes(serialization.Encoding.DER,
                             serialization.PublicFormat.SubjectPublicKeyInfo)
    wrong = settings.replace_service(rsa_public_key=base64.b64encode(der).decode())
    cli = runner_for(write_config(wrong, tmp_path / "pos.toml"))
    result = cli("pay", "--amount", "5000", "--code", wallet_code(emulator, "an"), "--json")
    assert result.exit_code == 1, result.stdout + result.stderr  # refused: nothing charged
    data = json.loads(result.stdout)
    assert data["message"] == (
        "The terminal's RSA public key does not match this app id: the service cannot decrypt "
        "the payment code, and nothing was charged. Check [service] rsa_public_key / "
        "POS_RSA_PUBLIC_KEY.")
    assert "amount" not in data["message"]
    assert [c for c in ledger(emulator)["charges"] if c["state"] == "succeeded"] == []


def test_a_refused_bank_list_says_what_was_refused(settings: Settings, emulator: Any,
                                                   tmp_path: Path) -> None:
    wrong = settings.replace_service(key1="not-this-apps-key1")
    cli = runner_for(write_config(wrong, tmp_path / "pos.toml"))
    result = cli("banks")
    assert result.exit_code == 1
    assert result.stderr.strip().splitlines()[-1] == (
        "error: The service refused the bank list request: it does not accept this terminal's "
        "app id or signature (invalid app or signature: mac, code -402). Check [service] app_id "
        "and key1 (or the environment variable POS_KEY1).")
    assert "charged" not in result.stderr


@pytest.mark.parametrize(("key", "env"), [("key1", "POS_KEY1"), ("key2", "POS_KEY2"),
                                          ("rsa_public_key", "POS_RSA_PUBLIC_KEY")])
def test_a_missing_secret_names_its_environment_variable(settings: Settings, tmp_path: Path,
                                                         key: str, env: str) -> None:
    config = write_config(settings, tmp_path / "pos.toml")
    text = "\n".join(line for line in config.read_text().splitlines()
                     if not line.startswith(f"{key} = "))
    config.write_text(text, encoding="utf-8")
    with pytest.raises(ConfigError) as caught:
        load_settings(config, env={})
    assert caught.value.key == f"[service] {key}"
    assert caught.value.message == (
        f"missing required key: set {key} in [service], or the environment variable {env}")


def test_journal_export_of_payments_and_refunds(cli: Any, emulator: Any) -> None:
    paid = json.loads(cli("pay", "--amount", "20000", "--code", wallet_code(emulator, "an"),
                          "--description", "=cmd|' /C calc'!A0", "--item",
                          '{"itemid":"1","itemname":"Tea","itemprice":10000,"itemquantity":2}',
                          "--json").stdout)
    refunded = cli("refund", paid["app_trans_id"], "--amount", "5000", "--json")
    assert refunded.exit_code in (0, 3), refunded.stderr
    payments = list(csv.DictReader(io.StringIO(cli("journal", "export").stdout)))
    assert [(p["app_trans_id"], p["items"], p["late"], p["abandoned"]) for p in payments] == [
        (paid["app_trans_id"], "Tea x 2 @ 10000", "0", "0")]
    assert payments[0]["description"].startswith("'=")  # never a spreadsheet formula
    out = cli("journal", "export", "--what", "refunds")
    assert out.exit_code == 0, out.stderr
    [refund] = list(csv.DictReader(io.StringIO(out.stdout)))
    assert (refund["app_trans_id"], refund["amount"], refund["automatic"]) == (
        paid["app_trans_id"], "5000", "0")
    as_json = json.loads(cli("journal", "export", "--what", "refunds", "--format",
                             "json").stdout)
    assert [r["amount"] for r in as_json["refunds"]] == [5000]
