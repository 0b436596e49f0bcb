"""`pos-terminal pay --json` as a real process against connections that cannot have carried
the charge (TLS refused, nothing listening, no such host) and a server that drips its answer."""

from __future__ import annotations

import json
import sqlite3
import subprocess
from pathlib import Path
from typing import Any

import pytest
import requests

from pos_terminal.config import Settings
from tests.checkout.conftest import add_fault, charged, quick_pay_requests, wallet_code
from tests.e2e.conftest import write_config
from tests.listeners import closed_port, listener
from tests.processes import child_env, cli_command

pytestmark = pytest.mark.e2e


def _pay(config: Path, code: str, amount: int = 12_000, *extra: str) -> tuple[int, dict[str, Any]]:
    done = subprocess.run(
        cli_command("--config", str(config), "pay", "--amount", str(amount), "--code", code,
                    "--json", *extra),
        capture_output=True, text=True, env=child_env(), timeout=60, check=False)
    assert "Traceback" not in done.stderr, done.stderr
    return done.returncode, json.loads(done.stdout)


def _journal_state(settings: Settings, app_trans_id: str) -> str:
    with sqlite3.connect(settings.terminal.journal) as db:
        row = db.execute("SELECT state FROM payments WHERE app_trans_id = ?",
                         (app_trans_id,)).fetchone()
    return str(row[0])


@pytest.mark.parametrize("where", ["untrusted_tls", "reset_handshake", "closed_port",
                                   "unknown_host"])
def test_a_charge_that_cannot_have_left_fails_at_once_and_the_code_stays_usable(
        settings: Settings, emulator: Any, tmp_path: Path, where: str) -> None:
    code = wallet_code(emulator, "an")
    good = write_config(settings, tmp_path / "good.toml")
    causes = {
        "untrusted_tls": "TLS certificate not accepted",
        "reset_handshake": "TLS handshake refused",
        "closed_port": "connection refused",
        "unknown_host": "the name nonexistent.invalid could not be resolved",
    }
    with listener("untrusted_tls" if where == "untrusted_tls" else "reset_handshake",
                  tmp_path) as server:
        base_url = {"closed_port": f"https://127.0.0.1:{closed_port()}",
                    "unknown_host": "https://nonexistent.invalid"}.get(where, server.url)
        bad = write_config(settings.replace_service(base_url=base_url), tmp_path / "bad.toml")
        exit_code, data = _pay(bad, code)
        assert server.received == []
    assert exit_code == 1  # definitely not charged
    assert data["state"] == "failed"
    assert causes[where] in data["message"]
    assert "nothing was charged" in data["message"]
    assert "then charge again" in data["message"]
    assert _journal_state(settings, data["app_trans_id"]) == "failed"
    assert quick_pay_requests(emulator) == 0
    # the same code, right after, against the real service: charged once
    again_code, again = _pay(good, code)
    assert (again_code, again["state"]) == (0, "succeeded")
    assert len(charged(emulator, again["app_trans_id"])) == 1


def test_a_dripping_answer_does_not_hold_the_payment(settings: Settings, emulator: Any,
                                                    tmp_path: Path) -> None:
    """One byte every 300 ms (about 80 s for the whole answer) with timeout_s = 1.5: the charge
    is unknown after 1.5 s and goes to status queries, which drip too; `pay` ends at its
    deadline with the payment unresolved (exit 3), and reconcile settles it later."""
    config = write_config(settings.replace_service(timeout_s=1.5), tmp_path / "pos.toml")
    add_fault(emulator, endpoint="quick_pay", mode="slow_drip", interval_ms=300)
    add_fault(emulator, endpoint="query", mode="slow_drip", interval_ms=300, count=0)
    exit_code, data = _pay(config, wallet_code(emulator, "an"), 12_000, "--deadline", "2")
    assert exit_code == 3
    assert data["state"] == "unknown"
    assert _journal_state(settings, data["app_trans_id"]) == "unknown"
    assert quick_pay_requests(emulator) == 1
    requests.delete(f"{emulator.base_url}/_emulator/faults", timeout=5).raise_for_status()
    done = subprocess.run(cli_command("--config", str(config), "reconcile", "--json"),
                          capture_output=True, text=True, env=child_env(), timeout=60,
                          check=False)
    assert done.returncode == 0, done.stderr
    assert _journal_state(settings, data["app_trans_id"]) == "succeeded"


# --- headless: bytes that are not UTF-8, digits that are not 0-9 --------------------------------
def test_headless_never_echoes_bytes_that_are_not_utf8(settings: Settings, emulator: Any,
                                                       tmp_path: Path) -> None:
    """In the C locale Python reads stdin with surrogateescape: an echo of the line wrote the
    raw bytes back. Every answer line must stay UTF-8 JSON, and the loop goes on."""
    from tests.scanners import SerialScanner

    config = write_config(settings, tmp_path / "pos.toml")
    scanner = SerialScanner()
    lines = [b"PAY 1000 \xff\xfe\x1b[2J caf\xe9\n", b"\xc3\x28\n",
             "PAY ١٢٣\n".encode(), "PAY １２３\n".encode(), "REFUND 261121_x_1 ５\n".encode(),
             b"PAY 12345678901234567890123\n", b"QUIT\n"]
    try:
        done = subprocess.run(
            cli_command("--config", str(config), "headless", "--scanner",
                        f"serial:{scanner.path}", "--scan-timeout", "1"),
            input=b"".join(lines), capture_output=True, timeout=60, check=False,
            env=child_env(LC_ALL="C", LANG="C"))
    finally:
        scanner.close()
    assert done.returncode == 0, done.stderr
    assert b"Traceback" not in done.stderr
    text = done.stdout.decode("utf-8")  # strict: raises on any byte that is not UTF-8
    answers = [json.loads(line) for line in text.splitlines()]
    assert answers[0]["command"] == "READY"
    not_utf8 = ("the line is not UTF-8 text (it holds bytes that are not UTF-8): nothing was "
                "done; send commands as UTF-8 lines, e.g. PAY 25000")
    assert answers[1] == {"ok": False, "command": None, "error": not_utf8}
    assert answers[2] == {"ok": False, "command": None, "error": not_utf8}
    other = ("(digits only: 0-9; digits of other scripts such as ١٢٣ or １２３ do not count)")
    assert answers[3]["error"] == f"the amount must be a whole number of VND {other}, got '١٢٣'"
    assert answers[4]["error"] == f"the amount must be a whole number of VND {other}, got '１２３'"
    assert answers[5]["error"].startswith("the refund amount must be a whole number of VND "
                                          f"{other}")
    assert answers[6]["error"].startswith("the amount must be at most 16 digits")
    assert answers[7] == {"ok": True, "command": "QUIT"}
    assert quick_pay_requests(emulator) == 0


@pytest.mark.parametrize("amount", ["١٢٣٠٠", "１２３００", "۱۲۳۰۰", "12" + "٣" + "00"])
def test_pay_refuses_digits_of_other_scripts(settings: Settings, emulator: Any, tmp_path: Path,
                                             amount: str) -> None:
    config = write_config(settings, tmp_path / "pos.toml")
    done = subprocess.run(
        cli_command("--config", str(config), "pay", "--amount", amount, "--code",
                    "１２３４５６７８９０１２３４５６７８", "--json"),
        capture_output=True, text=True, env=child_env(), timeout=60, check=False)
    assert done.returncode == 2
    assert "Traceback" not in done.stderr
    data = json.loads(done.stdout)
    assert data["field"] == "amount"
    assert "digits of other scripts such as ١٢٣ or １２３ do not count" in data["error"]
    code_only = subprocess.run(
        cli_command("--config", str(config), "pay", "--amount", "12300", "--code",
                    "１２３４５６７８９０１２３４５６７８", "--json"),
        capture_output=True, text=True, env=child_env(), timeout=60, check=False)
    assert code_only.returncode == 2
    assert json.loads(code_only.stdout)["field"] == "code"
    assert "１２３" not in code_only.stdout + code_only.stderr  # the code is never repeated
    assert quick_pay_requests(emulator) == 0
