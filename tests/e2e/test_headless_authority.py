"""The cash register's line obeys the same authority as the UI and the CLI: once a supervisor
exists, REFUND needs their id and PIN on the line, wrong PINs count towards the same lock-out,
and the refund is journaled with who asked and who authorised. A real `pos-terminal headless`
process against the emulator, its scanner a pty (tests/e2e/test_headless.py)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
import requests

from pos_terminal.config import Settings
from pos_terminal.journal import Journal
from pos_terminal.journal.cashiers import Cashiers
from tests.conftest import fresh_code
from tests.e2e.test_headless import Counter
from tests.scanners import SerialScanner

pytestmark = pytest.mark.e2e

BOSS_PIN, WRONG_PIN, ANN_PIN = "97531864", "11110000", "24680135"


class Recorded(Counter):
    """A headless counter that keeps every answer line as it was written."""

    def __init__(self, config: Path, scanner: SerialScanner) -> None:
        super().__init__(config, scanner)
        self.raw: list[str] = []

    def read(self) -> dict[str, Any]:
        assert self.proc.stdout is not None
        line = self.proc.stdout.readline()
        assert line, f"no answer; stderr: {self.proc.stderr.read() if self.proc.stderr else ''}"
        self.raw.append(line)
        data: dict[str, Any] = json.loads(line)
        return data


def _staff(settings: Settings) -> None:
    journal = Journal.open(settings.terminal.journal)
    try:
        book = Cashiers(journal)
        book.add("ann", "Ann Tran", ANN_PIN)
        book.add("boss", "Bà Chủ", BOSS_PIN, supervisor=True)
    finally:
        journal.close()


def _refunds(emulator: Any) -> list[dict[str, Any]]:
    answer = requests.get(f"{emulator.base_url}/_emulator/ledger", timeout=5)
    refunds: list[dict[str, Any]] = answer.json()["refunds"]
    return refunds


def test_refund_on_the_line_needs_a_supervisor_once_one_exists(
        settings: Settings, config_file: Path, scanner: SerialScanner, emulator: Any) -> None:
    _staff(settings)
    with Recorded(config_file, scanner) as counter:
        assert counter.read()["command"] == "READY"
        paid = counter.ask_showing(fresh_code(emulator, "an"), "PAY 50000")
        assert paid["state"] == "succeeded"
        tid = paid["app_trans_id"]

        bare = counter.ask(f"REFUND {tid} 20000")  # yesterday's line: refused, says how
        assert (bare["ok"], bare["command"]) == (False, "REFUND")
        assert bare["error"].startswith("a supervisor must authorise a refund: send REFUND "
                                        "<app_trans_id> [amount] [SUPERVISOR=<id> PIN=<pin>]")
        assert bare["error"].endswith("Nothing was sent.")
        wrong = counter.ask(f"REFUND {tid} 20000 SUPERVISOR=boss PIN={WRONG_PIN}")
        assert wrong["ok"] is False and "line" not in wrong
        assert wrong["error"].startswith("Wrong PIN for 'boss'; 4 more wrong tries lock it")
        cashier = counter.ask(f"REFUND {tid} 20000 SUPERVISOR=ann PIN={ANN_PIN}")
        assert "is a cashier, not a supervisor" in cashier["error"]
        for partial in ("SUPERVISOR=boss", "SUPERVISOR=boss PIN=", f"PIN={BOSS_PIN}"):
            missing = counter.ask(f"REFUND {tid} 20000 {partial}")
            assert missing["error"].startswith("a supervisor must authorise a refund")
        assert counter.ask(f"REFUND {tid} 20000 pin=1 PIN=2")["error"] == "PIN= is given twice"
        typo = counter.ask(f"REFUNDS {tid} 20000 SUPERVISOR=boss PIN={BOSS_PIN}")  # a bad verb
        assert typo["line"] == f"REFUNDS {tid} 20000 SUPERVISOR=boss PIN=•••"
        assert counter.ask(f"PIN={BOSS_PIN}")["error"].startswith("unknown command 'PIN=•••'")
        assert _refunds(emulator) == []  # nothing was sent

        done = counter.ask(f"refund {tid} 20000 cashier=ann supervisor=boss pin={BOSS_PIN}")
        assert (done["ok"], done["state"], done["amount"]) == (True, "refunded", 20000)
        assert (done["cashier_id"], done["authorised_by"]) == ("ann", "boss")
        assert [r["amount"] for r in _refunds(emulator)] == [20000]

        # wrong PINs on the line lock the supervisor as wrong PINs in the UI do (5 in a row)
        for _ in range(5):
            refused = counter.ask(f"REFUND {tid} 1000 SUPERVISOR=boss PIN={WRONG_PIN}")
            assert refused["ok"] is False
        assert "so it is locked until" in refused["error"]
        locked = counter.ask(f"REFUND {tid} 1000 SUPERVISOR=boss PIN={BOSS_PIN}")
        assert locked["ok"] is False and "is locked after 5 wrong PINs" in locked["error"]
        assert [r["amount"] for r in _refunds(emulator)] == [20000]
        assert counter.ask("QUIT")["ok"] is True
        assert counter.proc.wait(timeout=10) == 0
        stderr = counter.proc.stderr.read() if counter.proc.stderr else ""

    journal = Journal.open(settings.terminal.journal)
    try:
        [refund] = journal.refunds(tid)
        assert (refund.cashier_id, refund.authorised_by) == ("ann", "boss")
        boss = Cashiers(journal).get("boss")
        assert boss.locked_until_ms is not None  # the UI's sign-in is refused too
    finally:
        journal.close()
    # the PIN is never echoed, printed or journaled
    written = "".join(counter.raw) + stderr
    for pin in (BOSS_PIN, WRONG_PIN, ANN_PIN):
        assert pin not in written
        assert pin.encode() not in Path(settings.terminal.journal).read_bytes()


def test_old_lines_keep_working_while_no_supervisor_exists(
        settings: Settings, config_file: Path, scanner: SerialScanner, emulator: Any) -> None:
    journal = Journal.open(settings.terminal.journal)
    try:
        Cashiers(journal).add("ann", "Ann Tran", ANN_PIN)  # cashiers, but no supervisor yet
    finally:
        journal.close()
    with Recorded(config_file, scanner) as counter:
        assert counter.read()["command"] == "READY"
        paid = counter.ask_showing(fresh_code(emulator, "an"), "PAY 30000")
        done = counter.ask(f"REFUND {paid['app_trans_id']} 5000")
        assert (done["ok"], done["state"], done["authorised_by"]) == (True, "refunded", None)
        asked = counter.ask(f"REFUND {paid['app_trans_id']} 5000 CASHIER=ann")
        assert (asked["ok"], asked["cashier_id"], asked["authorised_by"]) == (True, "ann", None)
        assert counter.ask("QUIT")["ok"] is True
