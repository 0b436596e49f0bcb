"""The money soak (bench/soak_money.py), briefly: real `pay` processes with random stalls,
kills, SIGTERM and emulator faults while `reconcile` runs alongside with a tiny grace; then
nothing lost, nothing charged twice, nothing reported "not charged" that was charged. Run it
by hand with --payments 300 for the figures in docs/reliability.md."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from tests.processes import child_env

REPO = Path(__file__).resolve().parents[2]
pytestmark = pytest.mark.e2e


def test_a_short_money_soak_holds() -> None:
    done = subprocess.run([sys.executable, str(REPO / "bench" / "soak_money.py"),
                           "--payments", "14", "--parallel", "3", "--seed", "7"],
                          capture_output=True, timeout=600, check=False, cwd=REPO,
                          env=child_env())
    summary = json.loads(done.stdout)
    assert summary["problems"] == [], summary
    assert done.returncode == 0
    assert (summary["lost"], summary["charged_twice"],
            summary["reported_not_charged_but_charged"]) == (0, 0, 0)
    assert summary["payments"] == 14
