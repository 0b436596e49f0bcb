"""examples/pos_client.py against a real server: a sale, a lost answer retried under the same
sale_ref (one charge), a refund, a receipt, a refusal as TerminalError."""

from __future__ import annotations

import importlib.util
import json
import shutil
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


SYSTEM_PYTHON = Path("/usr/bin/python3")


@pytest.mark.skipif(not SYSTEM_PYTHON.exists(), reason="no system python3 at /usr/bin/python3")
def test_the_example_runs_as_its_docstring_says(api: Api, tmp_path: Path) -> None:
    """The docstring's shell lines after the first (which waits for a scanner), run as written
    by sh with the system's python3 (no venv, nothing of the project installed: the standard
    library alone), from a copy of the example in another folder; only the addresses and the
    token are this test's. The code it fetches is the emulator's customer An's: paid, then its
    status."""
    doc = (REPO / "examples" / "pos_client.py").read_text("utf-8").split('"""')[1]
    block = [line[4:] for line in doc.splitlines() if line.startswith("    ")]
    first = next(i for i, line in enumerate(block)
                 if line.startswith("python3 examples/pos_client.py"))
    script = "\n".join(["set -e", *block[first + 1:]])
    assert script.count("python3 examples/pos_client.py") == 2
    script = (script.replace("http://127.0.0.1:8780", api.url)
              .replace("http://127.0.0.1:8765", api.emulator.base_url)
              .replace("pt_...", api.token))
    (tmp_path / "examples").mkdir()
    shutil.copy2(REPO / "examples" / "pos_client.py", tmp_path / "examples")
    bin_dir = tmp_path / "bin"  # `python3` is the system's, whatever the PATH of the suite
    bin_dir.mkdir()
    (bin_dir / "python3").symlink_to(SYSTEM_PYTHON)
    done = subprocess.run(["sh", "-c", script], cwd=tmp_path, capture_output=True, text=True,
                          timeout=120, check=False,
                          env={"PATH": f"{bin_dir}:/usr/bin:/bin", "HOME": str(tmp_path)})
    assert done.returncode == 0, done.stderr
    answers = [json.loads(line) for line in done.stdout.splitlines()]
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
