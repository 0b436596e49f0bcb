"""The crash matrix: a real `pos-terminal pay` process is SIGKILLed at each step, then a new
process runs `reconcile`. Nothing is lost, nothing is charged twice, every row ends final, and
the journal's final state always agrees with the emulator's ledger.

The step is known deterministically: the pause points of pos_terminal.checkout.hooks (enabled by
an environment variable) for "after intent" and "after answer", the emulator's request counter
for "during the request", and the journal file itself for "while polling".
"""

from __future__ import annotations

import json
import signal
import sqlite3
import subprocess
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from pos_terminal.checkout.hooks import PAUSE_AT, PAUSE_FILE
from pos_terminal.checkout.outcomes import NEVER_ARRIVED
from pos_terminal.config import Settings
from tests.checkout.conftest import add_fault, charged, ledger, wallet_code, write_config
from tests.conftest import ProcessingHold
from tests.processes import child_env, cli

pytestmark = pytest.mark.e2e



def _wait_for(what: str, check: Callable[[], bool], proc: subprocess.Popen[bytes],
              timeout_s: float = 30) -> None:
    end = time.monotonic() + timeout_s
    while not check():
        if proc.poll() is not None:
            raise AssertionError(f"pay exited ({proc.returncode}) before {what}: "
                                 f"{proc.stderr.read().decode() if proc.stderr else ''}")
        if time.monotonic() > end:
            proc.kill()
            raise AssertionError(f"timed out waiting for {what}")
        time.sleep(0.01)


def _rows(journal: Path) -> list[tuple[str, str]]:
    if not journal.exists():
        return []
    try:
        raw = sqlite3.connect(f"file:{journal}?mode=ro", uri=True, timeout=1)
        try:
            return raw.execute("SELECT app_trans_id, state FROM payments").fetchall()
        finally:
            raw.close()
    except sqlite3.OperationalError:
        return []  # not created yet


def _kill(proc: subprocess.Popen[bytes]) -> None:
    proc.send_signal(signal.SIGKILL)
    proc.wait(timeout=10)
    assert proc.returncode == -signal.SIGKILL


def _reconcile(config: Path) -> dict[str, Any]:
    done = subprocess.run(cli(config, "reconcile", "--wait", "10", "--json"), env=child_env(),
                          capture_output=True, timeout=60, check=False)
    assert done.returncode == 0, done.stderr.decode()
    report: dict[str, Any] = json.loads(done.stdout)
    return report


def _start_pay(config: Path, code: str, **env: str) -> subprocess.Popen[bytes]:
    return subprocess.Popen(cli(config, "pay", "--amount", "21000", "--code", code, "--json"),
                            env=child_env(**env), stdout=subprocess.PIPE, stderr=subprocess.PIPE)


def _settled_once(emulator: Any, report: dict[str, Any]) -> dict[str, Any]:
    """Exactly one row, final, and its state agrees with the ledger."""
    [row] = report["payments"]
    assert row["state"] in ("succeeded", "failed")
    assert (report["still_open"], report["resolved"]) == (0, 1)
    charges = charged(emulator, row["app_trans_id"])
    assert len(charges) == (1 if row["state"] == "succeeded" else 0)
    assert ledger(emulator)["requests"].get("quick_pay", 0) <= 1  # never sent twice
    return dict(row)


@pytest.mark.parametrize("step", ["after_intent", "after_answer"])
def test_killed_at_a_pause_point(settings: Settings, emulator: Any, tmp_path: Path,
                                 step: str) -> None:
    config = write_config(settings, tmp_path / "pos.toml")
    marker = tmp_path / "paused"
    proc = _start_pay(config, wallet_code(emulator, "an"),
                      **{PAUSE_AT: step, PAUSE_FILE: str(marker)})
    _wait_for(f"the pause at {step}", marker.exists, proc)
    _kill(proc)
    [(app_trans_id, state)] = _rows(Path(settings.terminal.journal))
    assert state == "submitting"  # the intent survived the kill
    report = _reconcile(config)
    row = _settled_once(emulator, report)
    assert row["app_trans_id"] == app_trans_id
    if step == "after_intent":  # the request never left
        assert ledger(emulator)["requests"].get("quick_pay", 0) == 0
        assert (row["state"], row["reason_code"]) == ("failed", NEVER_ARRIVED.code)
        assert row["message"] == str(NEVER_ARRIVED)
    else:  # charged, answer lost with the process
        assert row["state"] == "succeeded"


def test_killed_during_the_request(settings: Settings, emulator: Any, tmp_path: Path) -> None:
    # The request is held 1 s in transit; the grace period (3 s) covers it, so the reconciler
    # waits for the order instead of calling it failed while the charge is about to land.
    config = write_config(settings, tmp_path / "pos.toml", not_found_grace_s=3.0)
    add_fault(emulator, endpoint="quick_pay", mode="delay_before_commit", delay_s=1.0)
    proc = _start_pay(config, wallet_code(emulator, "an"))
    _wait_for("the request to reach the service",
              lambda: ledger(emulator)["requests"].get("quick_pay", 0) == 1, proc)
    _kill(proc)
    assert [s for _, s in _rows(Path(settings.terminal.journal))] == ["submitting"]
    row = _settled_once(emulator, _reconcile(config))
    # The emulator finishes a request whose client is gone: the charge lands after the delay,
    # and the reconciler (first told "not found") must end with it, not with "failed".
    assert row["state"] == "succeeded"


def test_killed_while_polling(settings: Settings, emulator: Any, tmp_path: Path,
                              hold_processing: ProcessingHold) -> None:
    config = write_config(settings, tmp_path / "pos.toml")
    proc = _start_pay(config, wallet_code(emulator, "binh"))
    journal = Path(settings.terminal.journal)
    _wait_for("the payment to be processing",
              lambda: [s for _, s in _rows(journal)] == ["processing"], proc)
    _kill(proc)
    hold_processing.release()
    row = _settled_once(emulator, _reconcile(config))
    assert row["state"] == "succeeded"
