"""A MoMo payment's process is SIGKILLed mid-payment (after its intent, before its capture),
then a new process reconciles: nothing lost, nothing taken twice, the journal agrees with
MoMo's books (the emulator's)."""

from __future__ import annotations

import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from pos_terminal.checkout.hooks import PAUSE_AT, PAUSE_FILE
from pos_terminal.config import Settings
from pos_terminal.journal import PaymentState
from tests.checkout.conftest import write_config
from tests.processes import child_env
from tests.wallets.conftest import momo_checkout

pytestmark = pytest.mark.e2e
S = PaymentState


def _paused_then_killed(settings: Settings, emulator: Any, tmp_path: Path, step: str,
                        auto_capture: bool, customer: str = "momo-paid") -> None:
    config = write_config(settings, tmp_path / "pos.toml")
    marker = tmp_path / "paused"
    code = emulator.control.momo_code(customer)
    proc = subprocess.Popen(
        [sys.executable, "-m", "tests.wallets.momo_child", str(config), emulator.base_url, code,
         "37000", "true" if auto_capture else "false"],
        env=child_env(**{PAUSE_AT: step, PAUSE_FILE: str(marker)}),
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=Path(__file__).parents[2])
    end = time.monotonic() + 60
    while not (marker.exists() and marker.read_text() == step):
        if proc.poll() is not None:
            _out, err = proc.communicate()
            raise AssertionError(f"the payment exited first: {err.decode()}")
        assert time.monotonic() < end, "the payment never reached its pause point"
        time.sleep(0.02)
    proc.send_signal(signal.SIGKILL)
    proc.wait(timeout=10)
    assert proc.returncode == -signal.SIGKILL


@pytest.mark.parametrize("step", ["after_intent", "after_answer"])
def test_killed_mid_payment_then_reconciled(settings: Settings, emulator: Any, momo: Any,
                                            tmp_path: Path, step: str) -> None:
    _paused_then_killed(settings, emulator, tmp_path, step, auto_capture=True)
    with momo_checkout(settings, emulator) as co:
        (row,) = co.journal.pending()
        report = co.reconcile(wait_s=10)
        after = co.journal.get(row.app_trans_id)
    sent = row.app_trans_id in momo.orders
    assert sent is (step == "after_answer")
    assert after.state is (S.SUCCEEDED if sent else S.FAILED)
    assert report.still_open == 0
    assert momo.requests["pay"] == (1 if sent else 0)  # never sent again
    assert momo.balances["momo-paid"] == 50_000_000 - (37_000 if sent else 0)


def test_killed_before_its_capture_then_reconcile_captures_once(
        settings: Settings, emulator: Any, momo: Any, tmp_path: Path) -> None:
    _paused_then_killed(settings, emulator, tmp_path, "before_capturing", auto_capture=False)
    (order,) = momo.orders.values()
    assert order.status == "held"  # authorised; the capture was recorded, never sent
    with momo_checkout(settings, emulator, auto_capture=False) as co:
        row = co.journal.get(order.order_id)
        assert row.state is S.PROCESSING and row.why.code == "two_step.capturing"
        co.reconcile(wait_s=10)
        assert co.journal.get(order.order_id).state is S.SUCCEEDED
    assert order.status == "paid" and momo.balances["momo-paid"] == 50_000_000 - 37_000
