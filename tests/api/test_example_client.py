"""examples/pos_client.py against a real server: a sale, a lost answer retried under the same
sale_ref (one charge), a refund, a receipt, a refusal as TerminalError."""

from __future__ import annotations

import importlib.util
import json
import shlex
import subprocess
import sys
import threading
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from tests.api.conftest import Api, wait_until
from tests.conftest import ProcessingHold
from tests.processes import REPO


def example() -> ModuleType:
    spec = importlib.util.spec_from_file_location("pos_client", REPO / "examples" /
                                                  "pos_client.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["pos_client"] = module
    spec.loader.exec_module(module)
    return module


def test_the_example_client_retries_a_lost_answer_without_charging_twice(
        api: Api, hold_processing: ProcessingHold) -> None:
    client_module = example()
    impatient = client_module.TerminalClient(api.url, api.token, timeout_s=1.0, tries=2)
    code = api.wallet_code("binh")
    with pytest.raises(client_module.LOST):  # both tries time out while it processes
        impatient.pay("ex-1", 64000, code)
    assert api.charges() == 1
    hold_processing.release()
    client = client_module.TerminalClient(api.url, api.token)
    paid = client.pay("ex-1", 64000, code)
    assert paid["outcome"] == "paid" and client.payment("ex-1")["app_trans_id"] == (
        paid["app_trans_id"])
    assert api.charges() == 1
    refund = client.refund(paid["app_trans_id"], 4000, "ex-1-r1")
    assert refund["state"] == "refunded" and refund["refund_ref"] == "ex-1-r1"
    assert any("64.000" in line for line in client.receipt(paid["app_trans_id"]))
    assert client.x_report()["sales_count"] == 1
    with pytest.raises(client_module.TerminalError) as refused:
        client.pay("ex-1", 65000, code)
    assert (refused.value.status, refused.value.code) == (409, "ref_conflict")


def test_the_example_runs_as_its_docstring_says(api: Api, tmp_path: Path) -> None:
    """The commands of the docstring, run as a script by the project's Python from another
    folder (nothing of the repository on the path): paid, then its status."""
    script = REPO / "examples" / "pos_client.py"
    doc = script.read_text("utf-8").split('"""')[1]
    commands = [line.strip() for line in doc.replace("\\\n", " ").splitlines()
                if line.strip().startswith("python examples/pos_client.py")]
    assert len(commands) == 3
    code = api.wallet_code("an")
    answers = []
    for command in commands[1:]:
        argv = shlex.split(command.replace("http://127.0.0.1:8780", api.url)
                           .replace("pt_...", api.token)
                           .replace("8123456789012345678", code))
        done = subprocess.run([sys.executable, "-I", str(script), *argv[2:]], cwd=tmp_path,
                              capture_output=True, text=True, timeout=120, check=False)
        assert done.returncode == 0, done.stderr
        answers.append(json.loads(done.stdout))
    assert answers[0]["outcome"] == "paid" and answers[0]["sale_ref"] == "1002"
    assert answers[1]["app_trans_id"] == answers[0]["app_trans_id"]
    assert api.charges() == 1


def test_the_example_follows_events_across_a_dropped_stream(api: Api) -> None:
    client = example().TerminalClient(api.url, api.token)
    seen: list[dict[str, Any]] = []

    def follow() -> None:
        for event in client.events():
            seen.append(event)
            if event["type"] == "payment_settled":
                return

    reader = threading.Thread(target=follow, daemon=True)
    reader.start()
    wait_until("the stream open", lambda: api.server.terminal.feed.listening)
    client.pay("ex-ev", 1000, api.wallet_code("an"))
    reader.join(30)
    assert seen[-1]["sale_ref"] == "ex-ev" and seen[-1]["paid"] is True
