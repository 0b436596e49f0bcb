"""One vocabulary for a payment's life, at every door, from outside: `pos-terminal serve` as a
real process (raw HTTP, its SSE stream), the CLI and headless mode as subprocesses over the same
journal. Each life (paid; declined; refunded; aborted, then charged late, then returned
automatically) reads the same everywhere: a late charge and money returned are never "paid" and
never "the sale is complete"; `outcome`, `paid`, `late` and `money` follow the latest state."""

from __future__ import annotations

import json
import subprocess
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
import requests

from tests.conftest import ProcessingHold, fresh_code
from tests.processes import REPO, child_env, cli_command
from tests.scanners import SerialScanner

pytestmark = pytest.mark.e2e

#: the words of each outcome a POS may rely on (docs/terminal-api.md's table)
LIVES = {
    "paid": {"outcome": "paid", "paid": True, "money": "shop", "exit_code": 0},
    "declined": {"outcome": "not_paid", "paid": False, "money": "customer", "exit_code": 1},
    "returned": {"outcome": "returned", "paid": False, "money": "customer", "exit_code": 1},
    "late": {"outcome": "late", "paid": False, "money": "shop", "exit_code": 3},
}
#: a background reconciliation pass of `serve` runs every 30 s: a bound, not a timing claim
RETURNED_WITHIN_S = 150.0


def _run(config: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(cli_command("--config", str(config), *args), text=True,
                          capture_output=True, env=child_env(), cwd=REPO, timeout=120)


class Served:
    """`pos-terminal serve` on a free port, and a POS listening to its events."""

    def __init__(self, config: Path) -> None:
        added = _run(config, "api-token", "add", "kassa", "--json")
        self.auth = {"Authorization": f"Bearer {json.loads(added.stdout)['token']}"}
        self.proc = subprocess.Popen(cli_command("--config", str(config), "serve", "--port", "0"),
                                     stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                                     env=child_env(), cwd=REPO)
        assert self.proc.stdout is not None
        self.url = json.loads(self.proc.stdout.readline())["url"]
        self.events: list[dict[str, Any]] = []
        self._listening = threading.Event()
        threading.Thread(target=self._listen, daemon=True).start()
        assert self._listening.wait(30)

    def _listen(self) -> None:
        with requests.get(self.url + "/v1/events", headers=self.auth, stream=True,
                          timeout=(10, 600)) as stream:
            self._listening.set()
            for line in stream.iter_lines():
                if line.startswith(b"data:"):
                    self.events.append(json.loads(line[5:]))

    def post(self, path: str, body: dict[str, Any]) -> dict[str, Any]:
        answer: dict[str, Any] = requests.post(self.url + path, json=body, headers=self.auth,
                                               timeout=60).json()
        return answer

    def sale(self, sale_ref: str) -> dict[str, Any]:
        answer: dict[str, Any] = requests.get(self.url + "/v1/payments", headers=self.auth,
                                              params={"sale_ref": sale_ref}, timeout=60).json()
        return answer

    def settled(self, sale_ref: str) -> list[dict[str, Any]]:
        return [e for e in list(self.events)
                if e.get("type") == "payment_settled" and e.get("sale_ref") == sale_ref]

    def stop(self) -> None:
        self.proc.terminate()
        try:
            self.proc.wait(30)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait(10)


@pytest.fixture
def served(config_file: Path, emulator: object) -> Iterator[Served]:
    running = Served(config_file)
    try:
        yield running
    finally:
        running.stop()


def _reads_as(answer: dict[str, Any], life: str) -> None:
    assert {k: answer[k] for k in LIVES[life]} == LIVES[life], answer
    if life != "paid":
        assert "sale is complete" not in answer["message"]


def _until(what: str, check: Callable[[], bool], within_s: float = RETURNED_WITHIN_S) -> None:
    end = time.monotonic() + within_s
    while not check():
        assert time.monotonic() < end, f"never: {what}"
        time.sleep(0.25)


def test_every_life_reads_the_same_at_every_door(
        served: Served, config_file: Path, emulator: object,
        hold_processing: ProcessingHold) -> None:
    # aborted while the customer confirms slowly, then charged late, then returned
    late_body = {"amount": 41000, "sale_ref": "life-late",
                 "payment_code": fresh_code(emulator, "binh")}
    poster = threading.Thread(target=lambda: served.post("/v1/payments", late_body), daemon=True)
    poster.start()
    _until("the payment processing", lambda: served.sale("life-late").get("state") ==
           "processing", within_s=60)
    aborted = served.post("/v1/payments/abort", {"sale_ref": "life-late"})
    assert (aborted["outcome"], aborted["abandoned"], aborted["paid"]) == ("unknown", True, False)
    poster.join(60)
    hold_processing.release()

    # paid, then refunded in full: money returned is "returned", never "paid"
    paid = served.post("/v1/payments", {"amount": 25000, "sale_ref": "life-paid",
                                        "payment_code": fresh_code(emulator, "an")})
    _reads_as(paid, "paid")
    assert paid["late"] is False
    refund = served.post("/v1/refunds", {"app_trans_id": paid["app_trans_id"], "amount": 25000,
                                         "refund_ref": "life-refund"})
    assert (refund["state"], refund["outcome"], refund["exit_code"]) == ("refunded", "refunded",
                                                                         0)
    refunded = served.sale("life-paid")
    _reads_as(refunded, "returned")
    assert (refunded["state"], refunded["late"]) == ("refunded", False)

    declined = served.post("/v1/payments", {"amount": 30000, "sale_ref": "life-declined",
                                            "payment_code": fresh_code(emulator, "dung")})
    _reads_as(declined, "declined")

    # the late charge: found by a look-up, returned by the server's background reconciliation
    seen: list[dict[str, Any]] = []

    def returned() -> bool:
        seen.append(served.sale("life-late"))  # each look-up asks the wallet if still open
        return seen[-1]["outcome"] == "returned"

    _until("the late charge returned", returned)
    assert all(s["outcome"] in ("unknown", "late", "returned") and not s["paid"] for s in seen)
    assert all(s["late"] for s in seen if s["state"] in ("succeeded", "refunded"))
    _reads_as(seen[-1], "returned")
    assert (seen[-1]["state"], seen[-1]["late"], seen[-1]["abandoned"]) == ("refunded", True,
                                                                            True)

    # the POS's event stream says the same, and the last word on each sale is where its money is
    _until("the return on the event stream",
           lambda: any(e["outcome"] == "returned" for e in served.settled("life-late")))
    assert served.settled("life-paid")[0]["outcome"] == "paid"
    assert served.settled("life-paid")[-1]["outcome"] == "returned"
    assert [e["outcome"] for e in served.settled("life-declined")] == ["not_paid"]
    late_events = served.settled("life-late")
    assert {e["outcome"] for e in late_events} <= {"late", "returned"}
    assert not any(e["paid"] for e in late_events) and all(e["late"] for e in late_events)
    assert not any("sale is complete" in e["message"] for e in late_events)
    refund_events = [e for e in list(served.events) if e["type"] == "refund_settled"]
    assert {e["outcome"] for e in refund_events} == {"refunded"}
    for sale_ref in ("life-paid", "life-declined", "life-late"):
        for event in served.settled(sale_ref):
            assert event["paid"] is (event["outcome"] == "paid")

    # the CLI, a process of its own over the same journal: the same words and exit codes
    ids = {"life-paid": ("returned", paid["app_trans_id"]),
           "life-declined": ("declined", declined["app_trans_id"]),
           "life-late": ("returned", seen[-1]["app_trans_id"])}
    for life, app_trans_id in ids.values():
        shown = _run(config_file, "status", app_trans_id, "--json")
        _reads_as(json.loads(shown.stdout), life)
        assert shown.returncode == LIVES[life]["exit_code"]
    reconciled = _run(config_file, "reconcile", "--json")
    assert reconciled.returncode == 0, reconciled.stderr

    # headless mode: "ok" only when paid for the sale
    scanner = SerialScanner()
    try:
        headless = subprocess.run(
            cli_command("--config", str(config_file), "headless", "--scanner",
                        f"serial:{scanner.path}"),
            input="STATUS REF=life-late\nSTATUS REF=life-declined\nQUIT\n", text=True,
            capture_output=True, env=child_env(), cwd=REPO, timeout=120)
    finally:
        scanner.close()
    lines = [json.loads(line) for line in headless.stdout.splitlines()]
    late_line, declined_line = (line for line in lines if line.get("command") == "STATUS")
    _reads_as(late_line, "returned")
    _reads_as(declined_line, "declined")
    assert late_line["ok"] is False and declined_line["ok"] is False
