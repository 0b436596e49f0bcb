"""Issue 29, "done when": each row of the issue's table ends as the service's truth (paid,
refunded), with no NOT PAID or `failed` on the way, from the CLI, headless mode, the Terminal
API and the UI, against the emulator answering ZaloPay's published codes on demand."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
import requests

from pos_terminal.config import Settings
from tests.checkout.conftest import add_fault, charged, wallet_code
from tests.cli.conftest import runner_for
from tests.conftest import fresh_code
from tests.e2e.conftest import write_config
from tests.e2e.test_headless import Counter
from tests.scanners import SerialScanner

pytestmark = pytest.mark.e2e

#: The quick pay answered "processing" although the charge was made at once.
PROCESSING = {"endpoint": "quick_pay", "mode": "answer_code", "return_code": 3}


def _queries(code: int, sub: int | None = None) -> dict[str, Any]:
    rule: dict[str, Any] = {"endpoint": "query", "mode": "answer_code", "count": 2,
                            "return_code": code}
    if sub is not None:
        rule["sub_return_code"] = sub
    return rule


#: The issue's payment rows: the faults that make the service answer as the row says.
PAYMENT_ROWS = {
    "2/-135 twice": [PROCESSING, _queries(2, -135)],
    "2/-32 twice": [PROCESSING, _queries(2, -32)],
    "-405 twice": [PROCESSING, _queries(-405)],
    "406 twice": [PROCESSING, _queries(406)],
    "quick pay 2/-301": [{"endpoint": "quick_pay", "mode": "answer_code", "return_code": 2,
                          "sub_return_code": -301}],
}
#: The refund row: the refund answered processing, then two refund-status answers 2/-135.
REFUND_ROW = [{"endpoint": "refund", "mode": "answer_code", "return_code": 3},
              {"endpoint": "query_refund", "mode": "answer_code", "return_code": 2,
               "sub_return_code": -135, "count": 2}]


def _settings(settings: Settings) -> Settings:
    # A real not-found grace (nothing here is ever not found), quick polling.
    return settings.replace_section("checkout", poll_intervals_s=(0.1,), not_found_grace_s=30.0)


def _inject(emulator: Any, rules: list[dict[str, Any]]) -> None:
    for rule in rules:
        add_fault(emulator, **rule)


def _refunded_in_ledger(emulator: Any, app_trans_id: str) -> list[str]:
    book = requests.get(f"{emulator.base_url}/_emulator/ledger", timeout=5).json()
    return [r["state"] for r in book["refunds"] if r["app_trans_id"] == app_trans_id]


# --- the CLI --------------------------------------------------------------------------------


@pytest.mark.parametrize("row", list(PAYMENT_ROWS))
def test_cli_pay_then_status(row: str, settings: Settings, emulator: Any,
                             tmp_path: Path) -> None:
    cli = runner_for(write_config(_settings(settings), tmp_path / "pos.toml"))
    _inject(emulator, PAYMENT_ROWS[row])
    paid = cli("pay", "--amount", "15000", "--code-stdin", "--json",
               stdin=wallet_code(emulator, "an") + "\n")
    data = json.loads(paid.stdout)
    assert (paid.exit_code, data["state"]) == (0, "succeeded"), paid.stdout
    assert "NOT PAID" not in paid.stdout + paid.stderr
    assert len(charged(emulator, data["app_trans_id"])) == 1
    assert cli("reconcile").exit_code == 0
    status = json.loads(cli("status", data["app_trans_id"], "--json").stdout)
    assert status["state"] == "succeeded"


def test_cli_refund(settings: Settings, emulator: Any, tmp_path: Path) -> None:
    cli = runner_for(write_config(_settings(settings), tmp_path / "pos.toml"))
    paid = json.loads(cli("pay", "--amount", "15000", "--code", wallet_code(emulator, "an"),
                          "--json").stdout)
    _inject(emulator, REFUND_ROW)
    refund = cli("refund", paid["app_trans_id"], "--json")
    assert refund.exit_code == 0, refund.stdout + refund.stderr
    assert json.loads(refund.stdout)["state"] == "refunded"
    assert "failed" not in refund.stdout
    assert _refunded_in_ledger(emulator, paid["app_trans_id"]) == ["succeeded"]


# --- headless mode ----------------------------------------------------------------------------


def test_headless_every_row(settings: Settings, emulator: Any, scanner: SerialScanner,
                            tmp_path: Path) -> None:
    config = write_config(_settings(settings), tmp_path / "pos.toml")
    with Counter(config, scanner) as counter:
        assert counter.read()["command"] == "READY"
        last = ""
        for row, rules in PAYMENT_ROWS.items():
            _inject(emulator, rules)
            paid = counter.ask_showing(fresh_code(emulator, "an"), "PAY 21000")
            assert (paid["ok"], paid["state"]) == (True, "succeeded"), (row, paid)
            assert len(charged(emulator, paid["app_trans_id"])) == 1
            last = paid["app_trans_id"]
        _inject(emulator, REFUND_ROW)
        refund = counter.ask(f"REFUND {last}")
        assert (refund["ok"], refund["state"]) == (True, "refunded"), refund
        assert counter.ask("QUIT")["ok"] is True


# --- the Terminal API -------------------------------------------------------------------------


def test_terminal_api_every_row(settings: Settings, emulator: Any) -> None:
    from tests.api.conftest import start_api

    api, stop = start_api(_settings(settings), emulator)
    try:
        last = ""
        for number, (row, rules) in enumerate(PAYMENT_ROWS.items()):
            _inject(emulator, rules)
            answer = api.post("/v1/payments", {"amount": 23000, "sale_ref": f"c29-{number}",
                                               "payment_code": api.wallet_code("an")})
            paid = answer.json()
            assert (answer.status_code, paid["state"], paid["outcome"]) == (
                200, "succeeded", "paid"), (row, paid)
            last = paid["app_trans_id"]
        _inject(emulator, REFUND_ROW)
        refund = api.post("/v1/refunds", {"app_trans_id": last, "amount": 23000,
                                          "refund_ref": "c29-r"}).json()
        assert refund["state"] == "refunded", refund
    finally:
        stop()
