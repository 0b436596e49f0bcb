"""Issue 21 defect 5: a partial refund authorised by a supervisor belongs to the cashier who
asked for it. Its slip totals the refunded amount (the sale's amount labelled as the original)
and names the cashier and the supervisor; `report x|z --by cashier` counts it for the cashier,
so the cashier's handover total is right (click against the emulator, a real journal)."""

from __future__ import annotations

import json
from typing import Any

import pytest

from tests.checkout.conftest import wallet_code
from tests.cli.conftest import Run


@pytest.fixture
def cli(cli: Run) -> Run:
    """The CLI of tests/cli/conftest.py, with a supervisor and two cashiers."""
    run = cli
    assert run("cashier", "add", "boss", "--name", "Minh Lê", "--supervisor", "--pin-stdin",
               stdin="9753\n").exit_code == 0
    for cid, name in (("ann", "Ann Trần"), ("bao", "Bảo Phạm")):
        added = run("cashier", "add", cid, "--name", name, "--by", "boss", "--pin-stdin",
                    stdin="9753\n2468\n")
        assert added.exit_code == 0, added.stderr
    return run


def _sale(cli: Any, emulator: Any, cashier: str) -> str:
    paid = cli("pay", "--amount", "50000", "--code", wallet_code(emulator, "an"), "--cashier",
               cashier, "--json")
    assert paid.exit_code == 0, paid.stderr
    app_trans_id: str = json.loads(paid.stdout)["app_trans_id"]
    return app_trans_id


def _refund(cli: Any, app_trans_id: str, *extra: str) -> dict[str, Any]:
    done = cli("refund", app_trans_id, "--amount", "20000", *extra, "--supervisor", "boss",
               "--pin-stdin", "--json", stdin="9753\n")
    assert done.exit_code == 0, done.stderr
    data: dict[str, Any] = json.loads(done.stdout)
    return data


def test_partial_refund_slip_totals_the_refund_and_names_both(cli: Any, emulator: Any) -> None:
    refund = _refund(cli, _sale(cli, emulator, "ann"))
    assert (refund["cashier_id"], refund["authorised_by"]) == ("ann", "boss")
    slip = cli("receipt", refund["m_refund_id"], "--lang", "vi")
    assert slip.exit_code == 0, slip.stderr
    lines = slip.stdout.splitlines()
    assert "Thu ngân" + "Ann Trần (ann)".rjust(34) in lines
    assert "Người duyệt" + "Minh Lê (boss)".rjust(31) in lines
    assert "Số tiền GD gốc" + "50.000 ₫".rjust(28) in lines
    body = lines[:lines.index("Chữ ký khách hàng") - 1]  # the signature lines follow
    assert body[-2] == "TỔNG TIỀN HOÀN" + "20.000 ₫".rjust(28)  # the slip's total
    assert not any("50.000" in line for line in lines if line.startswith("TỔNG"))
    english = cli("receipt", refund["m_refund_id"]).stdout.splitlines()
    assert "Cashier" + "Ann Trần (ann)".rjust(35) in english
    assert "Authorised by" + "Minh Lê (boss)".rjust(29) in english
    english = english[:english.index("Customer's signature") - 1]
    assert english[-2] == "TOTAL REFUNDED" + "20.000 ₫".rjust(28)


def test_reports_count_the_refund_for_the_cashier_not_the_supervisor(cli: Any,
                                                                     emulator: Any) -> None:
    _refund(cli, _sale(cli, emulator, "ann"))  # asked for by nobody named: the sale's cashier
    other = _refund(cli, _sale(cli, emulator, "ann"), "--cashier", "bao")  # bao asks at his shift
    assert (other["cashier_id"], other["authorised_by"]) == ("bao", "boss")
    x = json.loads(cli("report", "x", "--by", "cashier", "--json").stdout)
    groups = {g["key"]: (g["sales_amount"], g["refunds_amount"], g["net_amount"])
              for g in x["groups"]}
    assert groups == {"ann": (100_000, 20_000, 80_000), "bao": (0, 20_000, -20_000)}
    z = json.loads(cli("report", "z", "--by", "cashier", "--json").stdout)
    assert {g["key"]: g["net_amount"] for g in z["groups"]} == {"ann": 80_000, "bao": -20_000}
    unknown = cli("refund", "261125_nosuch_1", "--cashier", "nobody", "--supervisor", "boss",
                  "--pin-stdin", stdin="9753\n")
    assert unknown.exit_code == 2 and "There is no cashier 'nobody'" in unknown.stderr
