"""`pos-terminal headless`: a real subprocess driven over stdin/stdout, its scanner a serial
port (a pseudo-terminal the test types the customer's code into, as a CDC scanner would)."""

from __future__ import annotations

import json
import os
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import requests

from tests.conftest import fresh_code
from tests.processes import REPO, child_env, cli_command
from tests.scanners import SerialScanner

pytestmark = pytest.mark.e2e


class Counter:
    def __init__(self, config: Path, scanner: SerialScanner) -> None:
        self.scanner = scanner
        self.proc = subprocess.Popen(
            cli_command("--config", str(config), "headless", "--scanner",
                        f"serial:{scanner.path}", "--scan-timeout", "20"),
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
            text=True, env=child_env(), cwd=REPO)

    def read(self) -> dict[str, Any]:
        assert self.proc.stdout is not None
        line = self.proc.stdout.readline()
        assert line, f"no answer; stderr: {self.proc.stderr.read() if self.proc.stderr else ''}"
        return json.loads(line)

    def ask(self, line: str) -> dict[str, Any]:
        assert self.proc.stdin is not None
        self.proc.stdin.write(line + "\n")
        self.proc.stdin.flush()
        return self.read()

    def __enter__(self) -> Counter:
        return self

    def __exit__(self, *exc: object) -> None:
        """Killed if it still runs (a test that failed half-way), then reaped."""
        if self.proc.poll() is None:
            self.proc.kill()
        self.proc.wait(timeout=10)

    def ask_showing(self, code: str, line: str) -> dict[str, Any]:
        """`line` (a PAY) while the customer holds `code` up to the scanner."""
        self.scanner.hold_up(code)
        try:
            return self.ask(line)
        finally:
            self.scanner.take_away()


@pytest.fixture
def counter(config_file: Path, scanner: SerialScanner) -> Iterator[Counter]:
    with Counter(config_file, scanner) as running:
        yield running


def test_pay_status_refund_reconcile_quit(counter: Counter, scanner: SerialScanner,
                                          emulator: object) -> None:
    ready = counter.read()
    assert ready == {"ok": True, "command": "READY", "scanner": f"serial:{scanner.path}",
                     "pending": 0}

    code = fresh_code(emulator, "an")
    paid = counter.ask_showing(code, "PAY 50000 two coffees")
    assert paid["ok"] is True and paid["command"] == "PAY"
    assert (paid["state"], paid["amount"], paid["description"]) == ("succeeded", 50000,
                                                                    "two coffees")
    assert paid["code"] == "••••" + code[-4:] and code not in json.dumps(paid)
    base = emulator.base_url
    charges = requests.get(f"{base}/_emulator/ledger", timeout=5).json()["charges"]
    assert [(c["app_trans_id"], c["amount"], c["wallet"]) for c in charges] == [
        (paid["app_trans_id"], 50000, "an")]
    assert paid["zp_trans_id"] == str(charges[0]["zp_trans_id"])

    status = counter.ask(f"STATUS {paid['app_trans_id']}")
    assert (status["ok"], status["command"], status["state"]) == (True, "STATUS", "succeeded")

    refund = counter.ask(f"REFUND {paid['app_trans_id']} 20000")
    assert (refund["command"], refund["amount"], refund["app_trans_id"]) == (
        "REFUND", 20000, paid["app_trans_id"])
    # REFUND waits for the refund's result (the emulator settles it in ~3 s), as ui.md says.
    assert refund["state"] == "refunded" and refund["ok"] is True
    refunds = requests.get(f"{base}/_emulator/ledger", timeout=5).json()["refunds"]
    assert [r["amount"] for r in refunds] == [20000]

    reconciled = counter.ask("RECONCILE")
    assert reconciled["ok"] is True and reconciled["command"] == "RECONCILE"
    assert reconciled["still_open"] == 0

    assert counter.ask("QUIT") == {"ok": True, "command": "QUIT"}
    assert counter.proc.wait(timeout=10) == 0


def test_bad_lines_get_an_error_and_the_loop_goes_on(counter: Counter, scanner: SerialScanner,
                                                     emulator: object) -> None:
    counter.read()  # READY
    assert counter.ask("HELLO there") == {
        "ok": False, "command": None, "line": "HELLO there",
        "error": "unknown command 'HELLO'; commands: PAY <amount> [REF=<sale_ref>] "
                 "[PROVIDER=<wallet>] [description] | "
                 "QR <amount> [REF=<sale_ref>] [PROVIDER=<wallet>] [description] | "
                 "STATUS <app_trans_id> | "
                 "STATUS REF=<sale_ref> | "
                 "REFUND <app_trans_id> [amount] [SUPERVISOR=<id> PIN=<pin>] | "
                 "RECONCILE | LEDGER | QUIT"}
    assert counter.ask("PAY 50.5đ")["error"] == (
        "'50.5đ' is not an amount: give whole VND in digits 0-9, e.g. 50000 or 50.000 đ (no "
        "decimals).")
    assert counter.ask("PAY")["error"] == (
        "PAY needs an amount: PAY <amount> [REF=<sale_ref>] [PROVIDER=<wallet>] [description]")
    too_big = counter.ask("PAY 999999999999")
    assert too_big["ok"] is False and "above the maximum" in too_big["error"]
    unknown = counter.ask("STATUS 261121_nosuch_1")
    assert unknown["ok"] is False and "261121_nosuch_1" in unknown["error"]
    assert counter.ask("REFUND")["error"].startswith("REFUND needs an app_trans_id")
    assert counter.ask("RECONCILE now")["error"] == "RECONCILE takes no arguments"

    code = fresh_code(emulator, "dung")
    declined = counter.ask_showing(code, "pay 70000")
    assert (declined["ok"], declined["state"], declined["amount"]) == (False, "failed", 70000)
    assert declined["message"]  # the cashier sentence
    base = emulator.base_url
    ledger = requests.get(f"{base}/_emulator/ledger", timeout=5).json()
    assert [c["state"] for c in ledger["charges"]] in ([], ["failed"])
    assert counter.ask("QUIT")["ok"] is True


def test_end_of_input_ends_the_session(counter: Counter) -> None:
    assert counter.read()["command"] == "READY"
    assert counter.proc.stdin is not None
    counter.proc.stdin.close()
    assert counter.proc.wait(timeout=10) == 0


def test_commands_over_a_serial_line(config_file: Path, scanner: SerialScanner,
                                     emulator: object) -> None:
    """--serial PATH: the cash register talks over a serial port (here a pty) instead of stdio."""
    register = SerialScanner()  # the cash register's end of the line
    proc = subprocess.Popen(
        cli_command("--config", str(config_file), "headless", "--scanner",
                    f"serial:{scanner.path}", "--serial", register.path),
        stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        env=child_env(), cwd=REPO)
    with os.fdopen(os.dup(register.master), "r+b", buffering=0) as line:
        def ask(command: str | None) -> dict[str, Any]:
            if command is not None:
                line.write(f"{command}\r\n".encode())
            answer = b""
            while not answer.endswith(b"\n"):
                answer += line.read(1)
            return json.loads(answer)

        try:
            assert ask(None)["command"] == "READY"
            code = fresh_code(emulator, "an")
            scanner.hold_up(code)
            paid = ask("PAY 12000")
            scanner.take_away()
            assert (paid["ok"], paid["state"], paid["amount"]) == (True, "succeeded", 12000)
            assert ask("QUIT") == {"ok": True, "command": "QUIT"}
            assert proc.wait(timeout=10) == 0
        finally:
            if proc.poll() is None:
                proc.kill()
            register.close()


def test_an_unusable_scanner_spec_stops_with_its_message(config_file: Path) -> None:
    done = subprocess.run(cli_command("--config", str(config_file), "headless", "--scanner",
                                      "bogus:1"), capture_output=True, text=True, env=child_env(),
                          cwd=REPO, stdin=subprocess.DEVNULL, timeout=30)
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.startswith("error: scanner source 'bogus:1': unknown kind 'bogus'; use "
                                  "one of: camera:N")


def test_messages_in_vietnamese_with_language_vi(config_file: Path, scanner: SerialScanner,
                                                 emulator: object) -> None:
    """[terminal] language = "vi": the `message` and `error` fields are Vietnamese; the keys,
    commands, states and outcomes stay as the contract says."""
    text = config_file.read_text("utf-8").replace("[terminal]\n", '[terminal]\nlanguage = "vi"\n')
    config_file.write_text(text, "utf-8")
    with Counter(config_file, scanner) as counter:
        assert counter.read()["command"] == "READY"
        assert counter.ask("PAY 50.5đ")["error"] == (
            "'50.5đ' không phải số tiền: hãy nhập số VND chẵn bằng các chữ số 0-9, ví dụ 50000 "
            "hoặc 50.000 đ (không có phần lẻ).")
        paid = counter.ask_showing(fresh_code(emulator, "an"), "PAY 25000")
        assert (paid["ok"], paid["state"], paid["outcome"]) == (True, "succeeded", "paid")
        assert paid["message"] == "Đã nhận tiền. Giao dịch đã hoàn tất."
        declined = counter.ask_showing(fresh_code(emulator, "dung"), "PAY 70000")
        assert (declined["ok"], declined["state"]) == (False, "failed")
        assert declined["message"].startswith("Số dư ví của khách không đủ.")
        assert counter.ask("QUIT") == {"ok": True, "command": "QUIT"}


def test_a_payment_given_up_is_returned_when_charged_late(
        settings: Any, emulator: Any, scanner: SerialScanner, tmp_path: Path,
        hold_processing: Any) -> None:
    """Issue 14: PAY ends unresolved (deadline) -> the payment is abandoned and the answer says
    a late charge is returned; RECONCILE after the charge lands returns it, once."""
    from tests.checkout.conftest import write_config

    config = write_config(settings, tmp_path / "quick.toml", poll_deadline_s=0.3)
    with Counter(config, scanner) as running:
        assert running.read()["command"] == "READY"
        given_up = running.ask_showing(fresh_code(emulator, "binh"), "PAY 30000")
        assert (given_up["ok"], given_up["state"], given_up["abandoned"]) == (
            False, "processing", True)
        assert given_up["exit_code"] == 3
        assert given_up["message"] == (
            "Outcome still unknown: ask the customer to pay another way. The terminal keeps "
            "checking this payment; if the wallet charges it after all, the charge is returned "
            "to the customer automatically.")
        hold_processing.release()
        tid = given_up["app_trans_id"]
        base = emulator.base_url
        end = time.monotonic() + 60
        while True:  # until the charge has landed and its return is confirmed
            running.ask("RECONCILE")
            status = running.ask(f"STATUS {tid}")
            if status["state"] == "refunded" or time.monotonic() > end:
                break
        assert (status["state"], status["abandoned"]) == ("refunded", True)
        refunds = requests.get(f"{base}/_emulator/ledger", timeout=5).json()["refunds"]
        assert [(r["app_trans_id"], r["amount"]) for r in refunds] == [(tid, 30000)]
        assert running.ask("QUIT") == {"ok": True, "command": "QUIT"}


def test_pay_under_a_sale_ref_charges_once_like_the_terminal_api(
        counter: Counter, scanner: SerialScanner, emulator: object) -> None:
    counter.read()  # READY
    code = fresh_code(emulator, "an")
    scanner.hold_up(code)
    paid = counter.ask("PAY 30000 REF=till-1/0042 a sandwich")
    assert (paid["ok"], paid["state"], paid["sale_ref"], paid["description"]) == (
        True, "succeeded", "till-1/0042", "a sandwich")
    again = counter.ask("PAY 30000 REF=till-1/0042 a sandwich")  # the register lost the answer
    assert (again["ok"], again["app_trans_id"]) == (True, paid["app_trans_id"])
    scanner.take_away()
    other = counter.ask("PAY 31000 REF=till-1/0042")
    assert (other["ok"], other["refused"], other["exit_code"]) == (False, "ref_conflict", 2)
    status = counter.ask("STATUS REF=till-1/0042")
    assert (status["ok"], status["app_trans_id"]) == (True, paid["app_trans_id"])
    assert counter.ask("STATUS REF=nosuch")["ok"] is False
    empty = counter.ask("PAY 30000 REF=")
    assert empty["ok"] is False and "REF must be 1 to 64" in empty["error"]
    books = emulator.control.books  # type: ignore[attr-defined]
    assert len(books.orders) == 1
