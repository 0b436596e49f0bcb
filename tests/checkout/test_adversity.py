"""Issue 10 with real processes: a stalled payer (SIGSTOP / a request slow in transit) while
`reconcile` runs elsewhere, SIGINT / SIGTERM mid-poll, a stalled refund, two payers with one code,
a late success seen by `status`. Each drives `python -m pos_terminal.cli` against the emulator."""

from __future__ import annotations

import json
import signal
import sqlite3
import subprocess
import time
from pathlib import Path
from typing import Any

import pytest

from pos_terminal.checkout import PaymentState
from pos_terminal.checkout.hooks import PAUSE_FILE, STOP_AT
from pos_terminal.checkout.outcomes import SENDER_LIVE
from pos_terminal.config import Settings
from pos_terminal.counter import open_checkout
from pos_terminal.journal import Journal
from tests.checkout.conftest import add_fault, charged, ledger, wallet_code, write_config
from tests.checkout.test_crash import _wait_for
from tests.processes import child_env, cli

pytestmark = pytest.mark.e2e
S = PaymentState


def _row(journal: Path, tid: str | None = None) -> tuple[str, str, int]:
    raw = sqlite3.connect(f"file:{journal}?mode=ro", uri=True, timeout=5)
    try:
        sql = "SELECT app_trans_id, state, polls FROM payments"
        rows = raw.execute(sql + (" WHERE app_trans_id=?" if tid else ""),
                           (tid,) if tid else ()).fetchall()
    finally:
        raw.close()
    [row] = rows
    return row[0], row[1], int(row[2])


def _run(config: Path, *args: str) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run(cli(config, *args), env=child_env(), capture_output=True, timeout=120,
                          check=False)


def _answer(out: bytes) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(out)
    return data


def _finish(proc: subprocess.Popen[bytes]) -> tuple[int, dict[str, Any], str]:
    out, err = proc.communicate(timeout=120)
    return proc.returncode, _answer(out), err.decode()


@pytest.mark.parametrize("step", ["after_intent", "before_send"])
def test_a_stopped_payer_is_not_concluded_failed(settings: Settings, emulator: Any,
                                                 tmp_path: Path, step: str) -> None:
    """SIGSTOP after the intent (or with the lease claimed, about to send); `reconcile` with a
    tiny grace runs meanwhile and must not say FAILED; SIGCONT: charged, SUCCEEDED, exit 0."""
    config = write_config(settings, tmp_path / "pos.toml", not_found_grace_s=0.1)
    marker = tmp_path / "stopped"
    proc = subprocess.Popen(
        cli(config, "pay", "--amount", "21000", "--code", wallet_code(emulator, "an"),
             "--json"),
        env=child_env(**{STOP_AT: step, PAUSE_FILE: str(marker)}),
        stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    try:
        _wait_for(f"the stop at {step}", marker.exists, proc)
        tid, _, _ = _row(Path(settings.terminal.journal))
        done = _run(config, "reconcile", "--wait", "0.5", "--json")
        assert done.returncode == 3, done.stderr.decode()  # still open, never "resolved"
        [row] = _answer(done.stdout)["payments"]
        assert (row["app_trans_id"], row["state"]) == (tid, "submitting")
        assert (row["reason_code"], row["message"]) == (SENDER_LIVE.code, str(SENDER_LIVE))
        assert ledger(emulator)["requests"].get("quick_pay", 0) == 0
    finally:
        proc.send_signal(signal.SIGCONT)
    code, data, err = _finish(proc)
    assert code == 0, err
    assert (data["state"], data["app_trans_id"], data["outcome"]) == ("succeeded", tid, "paid")
    assert _row(Path(settings.terminal.journal))[1] == "succeeded"
    assert len(charged(emulator, tid)) == 1


def test_a_request_slow_in_transit_is_not_concluded_failed(settings: Settings, emulator: Any,
                                                           tmp_path: Path) -> None:
    """The issue's reproduction: the charge reaches the service 3 s late while `reconcile`
    runs in another process with a 1 s grace period."""
    config = write_config(settings, tmp_path / "pos.toml", not_found_grace_s=1.0)
    add_fault(emulator, endpoint="quick_pay", mode="delay_before_commit", delay_s=3.0)
    proc = subprocess.Popen(
        cli(config, "pay", "--amount", "21000", "--code", wallet_code(emulator, "an"),
             "--json"),
        env=child_env(), stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    _wait_for("the request to reach the service",
              lambda: ledger(emulator)["requests"].get("quick_pay", 0) == 1, proc)
    # The payer is held still while `reconcile` runs, so its row is still open whatever the
    # machine's load: a busy machine starting `reconcile` later than the service's commit must
    # not turn the race into a payment the payer settled first.
    proc.send_signal(signal.SIGSTOP)
    try:
        done = _run(config, "reconcile", "--wait", "1.5", "--json")
    finally:
        proc.send_signal(signal.SIGCONT)
    [row] = _answer(done.stdout)["payments"]
    assert row["state"] != "failed"
    code, data, err = _finish(proc)
    assert code == 0, err
    assert data["state"] == "succeeded"
    assert len(charged(emulator, data["app_trans_id"])) == 1


@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGTERM], ids=["SIGINT", "SIGTERM"])
def test_a_signal_mid_poll_answers_with_the_payment(settings: Settings, emulator: Any,
                                                    tmp_path: Path, sig: signal.Signals) -> None:
    config = write_config(settings, tmp_path / "pos.toml")
    add_fault(emulator, endpoint="query", mode="refuse", return_code=-429, count=0)
    journal = Path(settings.terminal.journal)
    proc = subprocess.Popen(
        cli(config, "pay", "--amount", "21000", "--code", wallet_code(emulator, "binh"),
             "--json", "--deadline", "60"),
        env=child_env(), stdout=subprocess.PIPE, stderr=subprocess.PIPE)

    def polling() -> bool:
        try:
            return _row(journal)[2] >= 1
        except (sqlite3.OperationalError, ValueError):
            return False

    _wait_for("the first status query", polling, proc)
    proc.send_signal(sig)
    code, data, err = _finish(proc)
    assert code == 3, err
    tid, state, _ = _row(journal)
    assert (data["app_trans_id"], data["state"], data["outcome"]) == (tid, state, "unknown")
    assert state == "processing"
    assert data["signal"] == sig.name and data["exit_code"] == 3
    assert "Traceback" not in err


def test_a_stopped_refund_is_not_concluded_failed(settings: Settings, emulator: Any,
                                                  tmp_path: Path) -> None:
    config = write_config(settings, tmp_path / "pos.toml", not_found_grace_s=0.1)
    with open_checkout(settings) as co:
        paid = co.pay(30_000, wallet_code(emulator, "an"))
    marker = tmp_path / "stopped"
    proc = subprocess.Popen(cli(config, "refund", paid.app_trans_id, "--json"),
                            env=child_env(**{STOP_AT: "refund_after_intent",
                                        PAUSE_FILE: str(marker)}),
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    try:
        _wait_for("the stop after the refund's intent", marker.exists, proc)
        done = _run(config, "reconcile", "--wait", "0.5", "--json")
        assert done.returncode == 3, done.stderr.decode()
        [refund] = _answer(done.stdout)["refunds"]
        assert refund["state"] == "refunding"
        # Issue 29: "not found" (-101) is also published as "refund succeeded": it decides
        # nothing about a refund, whoever sends it.
        assert "do not refund again" in refund["message"]
    finally:
        proc.send_signal(signal.SIGCONT)
    code, data, err = _finish(proc)
    assert code == 0, err
    assert data["state"] == "refunded" and data["outcome"] == "refunded"
    refunds = [r for r in ledger(emulator)["refunds"] if r["m_refund_id"] == data["m_refund_id"]]
    assert len(refunds) == 1  # sent once


def test_two_payers_with_one_code_send_it_once(settings: Settings, emulator: Any,
                                               tmp_path: Path) -> None:
    config = write_config(settings, tmp_path / "pos.toml")
    Journal.open(settings.terminal.journal).close()  # the counter's journal exists already
    code = wallet_code(emulator, "an")
    args = cli(config, "pay", "--amount", "21000", "--code", code, "--json")
    procs = [subprocess.Popen(args, env=child_env(), stdout=subprocess.PIPE, stderr=subprocess.PIPE)
             for _ in range(2)]
    results = [_finish(p) for p in procs]
    # The second is refused, nothing sent: while the first is in flight, exit 3 with that
    # payment (its charge may land); once the first has succeeded, exit 1 "already charged".
    codes = sorted(r[0] for r in results)
    assert codes[0] == 0 and codes[1] in (1, 3), results
    paid = next(r[1] for r in results if r[0] == 0)
    refused = next(r[1] for r in results if r[0] != 0)
    assert refused["refused"] == {3: "in_flight", 1: "charged"}[codes[1]]
    assert refused["previous_app_trans_id"] == paid["app_trans_id"]
    book = ledger(emulator)
    assert book["requests"]["quick_pay"] == 1
    assert len([c for c in book["charges"] if c["state"] == "succeeded"]) == 1


def test_status_shows_a_late_success(settings: Settings, emulator: Any, tmp_path: Path) -> None:
    config = write_config(settings.replace_service(timeout_s=0.5), tmp_path / "pos.toml")
    add_fault(emulator, endpoint="quick_pay", mode="delay_before_commit", delay_s=2.5)
    first = _run(config, "pay", "--amount", "21000", "--code", wallet_code(emulator, "an"),
                 "--json")
    assert first.returncode == 1  # concluded "never reached the service"...
    tid = _answer(first.stdout)["app_trans_id"]
    end = time.monotonic() + 30
    while not charged(emulator, tid):  # ... then the charge lands
        assert time.monotonic() < end
        time.sleep(0.05)
    human = _run(config, "status", tid)
    assert human.returncode == 3  # charged late: not the sale's money, never "paid" (exit 0)
    assert human.stdout.decode().startswith("SUCCEEDED (LATE: charged after the terminal said "
                                            "failed)  21.000 ₫")
    data = _answer(_run(config, "status", tid, "--json").stdout)
    assert (data["state"], data["late"], data["outcome"]) == ("succeeded", True, "late")
    assert (data["paid"], data["money"], data["exit_code"]) == (False, "shop", 3)
    report = _run(config, "report", "x")
    assert "CHARGED LATE" in report.stdout.decode()


def _catches_sigterm(pid: int) -> bool:
    try:
        status = Path(f"/proc/{pid}/status").read_text()
    except OSError:
        return False
    mask = next(line.split()[1] for line in status.splitlines() if line.startswith("SigCgt"))
    return bool(int(mask, 16) & (1 << (signal.SIGTERM - 1)))


def test_sigterm_during_start_up_still_answers(settings: Settings, emulator: Any,
                                               tmp_path: Path) -> None:
    """The handlers are in place before click and the payment code are even imported: a
    SIGTERM then is never fatal; the answer is JSON and its exit code is the process's."""
    config = write_config(settings, tmp_path / "pos.toml")
    proc = subprocess.Popen(
        cli(config, "pay", "--amount", "21000", "--code", wallet_code(emulator, "an"),
             "--json"),
        env=child_env(), stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    _wait_for("the signal handlers", lambda: _catches_sigterm(proc.pid), proc)
    proc.send_signal(signal.SIGTERM)
    code, data, err = _finish(proc)
    assert code == data["exit_code"], err
    assert data["signal"] == "SIGTERM"
    if code == 2:  # the usual case: before the intent, nothing recorded or sent
        assert data["outcome"] == "nothing_sent" and data["app_trans_id"] is None
        assert ledger(emulator)["requests"].get("quick_pay", 0) == 0
