"""`pos-terminal emulator` as a user runs it: a real process, a real port, Ctrl-C to stop."""

from __future__ import annotations

import signal
import socket
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
import requests

from tests.emulator.wirehelp import QuickPay
from tests.processes import child_env

pytestmark = pytest.mark.e2e

REPO = Path(__file__).resolve().parents[2]
CONFIG = REPO / "config" / "default.toml"


def _start(*args: str) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, "-m", "pos_terminal", "emulator", "--config", str(CONFIG), *args],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=child_env(), cwd=REPO)


def _base_url(process: subprocess.Popen[str]) -> str:
    assert process.stdout is not None
    line = process.stdout.readline()
    prefix = "wallet emulator listening on "
    assert line.startswith(prefix), (line, process.stderr.read() if process.stderr else "")
    return line[len(prefix):].strip()


@pytest.fixture
def running() -> Iterator[tuple[subprocess.Popen[str], str]]:
    process = _start("--port", "0", "--fault", "quick_pay:http500:1")
    try:
        yield process, _base_url(process)
    finally:
        if process.poll() is None:
            process.kill()
            process.wait(10)


def test_serves_until_ctrl_c(running: tuple[subprocess.Popen[str], str]) -> None:
    process, base_url = running
    assert base_url.startswith("http://127.0.0.1:")
    wallets = requests.get(base_url + "/_emulator/wallets", timeout=5).json()["wallets"]
    order = QuickPay(code=wallets[0]["code"])
    first = requests.post(base_url + "/v2/quick_pay", data=order.form("v2"), timeout=5)
    assert first.status_code == 500  # the --fault given on the command line
    second = requests.post(base_url + "/v2/quick_pay", data=order.form("v2"), timeout=5)
    assert second.json()["return_code"] == 1
    process.send_signal(signal.SIGINT)
    _out, err = process.communicate(timeout=15)
    assert process.returncode == 0
    assert "wallet emulator stopped" in err
    assert "Traceback" not in err


def test_port_in_use_is_a_clear_error() -> None:
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        port = busy.getsockname()[1]
        process = _start("--port", str(port))
        _out, err = process.communicate(timeout=30)
    assert process.returncode == 2
    # one line, the documented sentence: what happened + what to do (not asyncio's long
    # "error while attempting to bind on address ('127.0.0.1', N): address already in use")
    assert err.strip().splitlines() == [
        f"error: cannot listen on 127.0.0.1:{port}: Address already in use. "
        "Is another emulator running? Pick another port with --port."]
    assert "attempting to bind" not in err


def test_bad_fault_option() -> None:
    process = _start("--port", "0", "--fault", "quick_pay:explode")
    _out, err = process.communicate(timeout=30)
    assert process.returncode == 2
    assert "mode must be one of" in err
