"""`pos-terminal serve` as a real process: it prints where it listens, answers with a token made
by `api-token add`, refuses to bind beyond loopback without TLS, and stops on SIGTERM."""

from __future__ import annotations

import json
import re
import signal
import subprocess
from datetime import datetime, timedelta
from pathlib import Path

import requests

from pos_terminal.base.clock import VN_TZ
from tests.conftest import fresh_code
from tests.processes import REPO, child_env, cli_command


def run(config: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(cli_command("--config", str(config), *args), text=True,
                          capture_output=True, env=child_env(), cwd=REPO, timeout=60)


def test_serve_answers_every_call_with_a_token_and_stops_on_sigterm(
        config_file: Path, emulator: object) -> None:
    token = json.loads(run(config_file, "api-token", "add", "kassa", "--json").stdout)["token"]
    # a server's clock in UTC: the log is stamped in Vietnam time all the same
    proc = subprocess.Popen(cli_command("--config", str(config_file), "serve", "--port", "0"),
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            env=child_env(TZ="UTC"), cwd=REPO)
    try:
        assert proc.stdout is not None
        serving = json.loads(proc.stdout.readline())
        assert serving["command"] == "SERVING" and serving["url"].startswith("http://127.0.0.1:")
        url = serving["url"]
        assert requests.get(serving["openapi"], timeout=10).json()["info"]["title"]
        assert requests.get(url + "/v1/reports/x", timeout=10).status_code == 401
        auth = {"Authorization": f"Bearer {token}"}
        code = fresh_code(emulator, "an")
        paid = requests.post(url + "/v1/payments", headers=auth, timeout=30, json={
            "amount": 25000, "sale_ref": "cli-1", "payment_code": code}).json()
        assert paid["state"] == "succeeded" and paid["sale_ref"] == "cli-1"
        assert requests.get(url + "/v1/reports/x", headers=auth,
                            timeout=10).json()["sales_count"] == 1
        proc.send_signal(signal.SIGTERM)
        assert proc.wait(timeout=30) == 0
        assert proc.stderr is not None
        logged = proc.stderr.read()
        assert "POST /v1/payments 200" in logged  # the access log: method, path, status
        stamp = re.search(r"^(\S+ \S+) INFO pos_terminal\.api\.access: POST /v1/payments 200",
                          logged, re.MULTILINE)
        assert stamp is not None, logged
        logged_at = datetime.strptime(stamp[1], "%Y-%m-%d %H:%M:%S").replace(tzinfo=VN_TZ)
        assert abs(logged_at - datetime.now(VN_TZ)) < timedelta(minutes=10)
        assert code not in logged and token not in logged
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait(10)


def test_serve_beyond_loopback_without_tls_is_refused(config_file: Path) -> None:
    refused = run(config_file, "serve", "--host", "0.0.0.0", "--port", "0")
    assert refused.returncode == 2
    assert "clear text" in refused.stderr and "--cert" in refused.stderr
    half = run(config_file, "serve", "--cert", str(config_file), "--port", "0")
    assert half.returncode == 2 and "both a certificate file and its key" in half.stderr
