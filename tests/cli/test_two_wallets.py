"""`pay` on a counter taking ZaloPay and MoMo (issue 31): each code goes to its own wallet; a
code no wallet takes is refused with a sentence (exit 2, nothing sent) unless --provider names
the wallet; reports count each wallet; exports and lists carry and filter the provider."""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path
from typing import Any

import pytest

from pos_terminal.config import Settings
from tests.checkout.conftest import write_config
from tests.cli.conftest import Run, runner_for
from tests.conftest import fresh_code


@pytest.fixture
def cli(both_settings: Settings, tmp_path: Path) -> Run:
    return runner_for(write_config(both_settings, tmp_path / "pos.toml"))


def _json(result: Any) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(result.stdout)
    return data


def test_a_zalopay_code_and_a_momo_code_each_to_its_own_wallet(cli: Run, emulator: Any) -> None:
    momo = emulator.control.momo
    zp = cli("pay", "--amount", "25000", "--code", fresh_code(emulator, "an"), "--json")
    mm = cli("pay", "--amount", "45000", "--code", emulator.control.momo_code("momo-paid"),
             "--json")
    assert zp.exit_code == 0 and mm.exit_code == 0, (zp.stderr, mm.stderr)
    assert (_json(zp)["provider"], _json(mm)["provider"]) == ("zalopay", "momo")
    assert list(momo.orders) == [_json(mm)["app_trans_id"]]
    refund = cli("refund", _json(mm)["app_trans_id"], "--amount", "5000", "--json")
    assert refund.exit_code == 0, refund.stderr
    assert _json(refund)["provider"] == "momo"
    assert [r["amount"] for r in momo.orders[_json(mm)["app_trans_id"]].refunds] == [5_000]
    report = _json(cli("report", "x", "--json"))
    assert report["by_provider"] == {
        "momo": {"count": 1, "amount": 45_000, "refunds_count": 1, "refunds_amount": 5_000,
                 "net_amount": 40_000},
        "zalopay": {"count": 1, "amount": 25_000, "refunds_count": 0, "refunds_amount": 0,
                    "net_amount": 25_000}}
    shown = cli("report", "x")
    assert "MoMo wallet" in shown.stdout and "ZaloPay" in shown.stdout
    listed = _json(cli("journal", "list", "--provider", "momo", "--json"))
    assert [p["app_trans_id"] for p in listed["payments"]] == [_json(mm)["app_trans_id"]]
    exported = cli("journal", "export", "--format", "csv")
    rows = list(csv.DictReader(io.StringIO(exported.stdout)))
    assert sorted(r["provider"] for r in rows) == ["momo", "zalopay"]


def test_a_code_no_wallet_takes_is_refused_unless_named(cli: Run, emulator: Any) -> None:
    code = fresh_code(emulator, "an") + "M"
    refused = cli("pay", "--amount", "25000", "--code", code, "--json")
    assert refused.exit_code == 2
    data = _json(refused)
    assert data["outcome"] == "nothing_sent" and "not sent" in data["message"]
    assert "--provider" in data["message"] and code not in refused.stdout + refused.stderr
    assert not emulator.control.books.orders and emulator.control.momo.requests["pay"] == 0
    named = cli("pay", "--amount", "25000", "--code", code, "--provider", "zalopay", "--json")
    assert _json(named)["provider"] == "zalopay"
    assert emulator.control.momo.requests["pay"] == 0
