"""ShopeePay through the CLI, against the emulator's ShopeePay part, beside ZaloPay: its code
goes to it alone; pay, status, refund (in parts), the refund's status; reports, lists and exports
name it (everything read from the registry)."""

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
from tests.wallets.shopeepay_help import code_of, with_shopeepay


@pytest.fixture
def cli(settings: Settings, emulator: Any, tmp_path: Path) -> Run:
    return runner_for(write_config(with_shopeepay(settings, emulator), tmp_path / "pos.toml"))


def _json(result: Any) -> dict[str, Any]:
    assert result.exit_code in (0, 1, 2, 3, 4, 5), result.stderr
    data: dict[str, Any] = json.loads(result.stdout)
    return data


def test_pay_status_refund_and_report_through_the_cli(cli: Run, emulator: Any) -> None:
    spay = emulator.control.part("shopeepay")
    code = code_of(emulator, "spay-paid")
    paid = cli("pay", "--amount", "60000", "--code", code, "--json")
    assert paid.exit_code == 0, paid.stderr
    payment = _json(paid)
    assert payment["provider"] == "shopeepay" and payment["state"] == "succeeded"
    assert code not in paid.stdout and code not in paid.stderr  # the code is secret
    order = payment["app_trans_id"]
    assert list(spay.payments) == [order]
    status = _json(cli("status", order, "--json"))
    assert status["state"] == "succeeded" and status["provider"] == "shopeepay"
    refund = cli("refund", order, "--amount", "15000", "--json")
    assert refund.exit_code == 0, refund.stderr
    assert _json(refund)["provider"] == "shopeepay"
    assert [spay.refunds[r].amount for r in spay.payments[order].refunds] == [15_000]
    report = _json(cli("report", "x", "--json"))
    assert report["by_provider"]["shopeepay"] == {
        "count": 1, "amount": 60_000, "refunds_count": 1, "refunds_amount": 15_000,
        "net_amount": 45_000}
    assert "ShopeePay" in cli("report", "x").stdout
    listed = _json(cli("journal", "list", "--provider", "shopeepay", "--json"))
    assert [p["app_trans_id"] for p in listed["payments"]] == [order]
    rows = list(csv.DictReader(io.StringIO(cli("journal", "export", "--format", "csv").stdout)))
    assert [r["provider"] for r in rows] == ["shopeepay"]


def test_a_declined_customer_is_declined_at_once(cli: Run, emulator: Any) -> None:
    declined = cli("pay", "--amount", "20000", "--code", code_of(emulator, "spay-declined"),
                   "--json")
    answer = _json(declined)
    assert answer["provider"] == "shopeepay" and answer["state"] == "failed", declined.stdout
    assert emulator.control.part("shopeepay").requests["check"] == 0
