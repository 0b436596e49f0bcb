"""A VietQR sale through the CLI (`pay --qr --provider payos`) against the emulator's payOS part,
real HTTP: paid in full, paid in part (never "paid": what arrived and what is missing), expired,
cancelled when the wait ends (and a transfer after that found as a late payment), refunds
refused with what to do."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from pos_terminal.config import Settings
from tests.checkout.conftest import add_fault, write_config
from tests.cli.conftest import Run, runner_for
from tests.wallets.payos_help import bank_app, shown, with_payos


@pytest.fixture
def cli(settings: Settings, emulator: Any, tmp_path: Path) -> Run:
    return runner_for(write_config(with_payos(settings, emulator), tmp_path / "pos.toml"))


def _pay(cli: Run, amount: int, *extra: str) -> tuple[int, dict[str, Any]]:
    result = cli("pay", "--amount", str(amount), "--qr", "--provider", "payos", "--json", *extra)
    assert result.stdout, result.stderr
    data: dict[str, Any] = json.loads(result.stdout)
    return result.exit_code, data


def test_a_vietqr_paid_in_full_is_paid(cli: Run, emulator: Any) -> None:
    bank_app(emulator, "pay")
    code, answer = _pay(cli, 50_000)
    assert code == 0, answer
    assert (answer["provider"], answer["state"], answer["outcome"]) == (
        "payos", "succeeded", "paid")
    assert answer["qr_content"].startswith("000201010212") and "5405" + "50000" in answer[
        "qr_content"]
    assert "amount_paid" not in answer
    assert shown(emulator)[0]["status"] == "PAID"
    report = json.loads(cli("report", "x", "--json").stdout)
    assert report["by_provider"]["payos"]["amount"] == 50_000


def test_a_vietqr_paid_in_part_is_never_paid(cli: Run, emulator: Any) -> None:
    bank_app(emulator, "pay", 20_000)
    code, answer = _pay(cli, 50_000, "--deadline", "2")
    assert code == 3, answer  # unresolved: the money that arrived is the cashier's to handle
    assert answer["provider"] == "payos" and answer["outcome"] != "paid"
    assert (answer.get("amount_paid"), answer.get("amount_missing")) == (20_000, 30_000), answer
    assert shown(emulator)[0]["status"] == "CANCELLED"  # no more money is asked for


@pytest.mark.parametrize(("mark", "outcome", "said"), [
    ("paid", "paid", "30.000 ₫ was collected another way"),
    ("failed", "not_paid", "20.000 ₫ that arrived was returned by the shop (not by payOS)"),
])
def test_a_vietqr_paid_in_part_is_settled_by_override_saying_what_arrived(
        cli: Run, emulator: Any, mark: str, outcome: str, said: str) -> None:
    """The rest collected another way (paid), or what arrived returned by the shop (not paid):
    an override with its reason, and every later answer still says what arrived."""
    bank_app(emulator, "pay", 20_000)
    _code, answer = _pay(cli, 50_000, "--deadline", "2")
    settled = cli("override", answer["app_trans_id"], "--mark", mark,
                  "--reason", "rest in cash" if mark == "paid" else "shop transfer", "--json")
    assert settled.exit_code == (0 if mark == "paid" else 1), settled.stdout + settled.stderr
    result = json.loads(settled.stdout)
    assert result["outcome"] == outcome, result
    assert (result.get("amount_paid"), result.get("amount_missing")) == (20_000, 30_000), result
    assert said in result["message"], result["message"]
    cli("reconcile", "--json")  # a sale kept by hand is no late charge to return or flag
    status = json.loads(cli("status", answer["app_trans_id"], "--json").stdout)
    assert status["amount_paid"] == 20_000 and status["outcome"] == outcome, status
    assert not status["needs_review"] and said in status["message"], status
    report = json.loads(cli("report", "x", "--json").stdout)
    # through payOS only what arrived; the rest collected another way, apart (the till's)
    assert report["by_provider"].get("payos", {}).get("amount", 0) == (
        20_000 if mark == "paid" else 0), report["by_provider"]
    assert (report["collected_otherwise_count"], report["collected_otherwise_amount"]) == (
        (1, 30_000) if mark == "paid" else (0, 0)), report
    assert report["sales_amount"] == (50_000 if mark == "paid" else 0), report
    receipt = cli("receipt", answer["app_trans_id"])
    if mark == "paid":  # the customer's paper says how the sale was paid: both parts
        lines = [" ".join(line.split()) for line in receipt.stdout.splitlines()]
        assert "TOTAL 50.000 ₫" in lines, receipt.stdout
        assert "VietQR (payOS) 20.000 ₫" in lines and "another way 30.000 ₫" in lines, lines
    else:  # not paid: no receipt of a sale
        assert receipt.exit_code != 0


def test_an_expired_vietqr_is_not_paid(cli: Run, emulator: Any) -> None:
    bank_app(emulator, "expire")
    code, answer = _pay(cli, 30_000)
    assert code == 1, answer
    assert (answer["provider"], answer["state"], answer["outcome"]) == (
        "payos", "failed", "not_paid")


def test_a_vietqr_nobody_pays_is_cancelled_and_a_late_transfer_is_found(
        cli: Run, emulator: Any) -> None:
    bank_app(emulator, "none")
    code, answer = _pay(cli, 40_000, "--deadline", "1")
    assert code == 1, answer
    assert answer["state"] == "failed"
    request = shown(emulator)[0]
    assert request["status"] == "CANCELLED"
    late = bank_app(emulator, "pay")  # the customer's transfer lands after all
    late.join()
    cli("reconcile", "--json")
    status = json.loads(cli("status", answer["app_trans_id"], "--json").stdout)
    assert status["outcome"] != "not_paid", status
    assert status["late"] and status["needs_review"], status  # the cashier's to handle
    assert status["reason_params"]["why"]["reason"] == "wallet.no_refunds"  # never "refunded"


def test_part_of_a_transfer_landing_after_the_qr_closed_empty_is_found_as_underpaid(
        cli: Run, emulator: Any) -> None:
    bank_app(emulator, "none")
    code, answer = _pay(cli, 40_000, "--deadline", "1")
    assert code == 1 and answer["state"] == "failed", answer
    late = bank_app(emulator, "pay", 15_000)  # part of the transfer lands after the close
    late.join()
    found = json.loads(cli("reconcile", "--json").stdout)
    row = next(p for p in found["payments"] if p["app_trans_id"] == answer["app_trans_id"])
    assert row["outcome"] != "not_paid" and row["needs_review"], row  # the cashier's to handle
    assert (row.get("amount_paid"), row.get("amount_missing")) == (15_000, 25_000), row
    status = json.loads(cli("status", answer["app_trans_id"], "--json").stdout)
    assert status["outcome"] != "not_paid" and status["amount_paid"] == 15_000, status
    assert "15.000" in status["message"] and "25.000" in status["message"], status["message"]


def test_a_vietqr_whose_create_answer_was_lost_is_closed_at_once_not_watched(
        cli: Run, emulator: Any) -> None:
    """payOS made the request but its answer (with the QR) never came back: nobody sees the QR,
    so nobody pays it. It is cancelled at once and its status decides, without a wait for a
    payment that cannot come (the default wait is minutes)."""
    add_fault(emulator, endpoint="payos_create", mode="drop_after_commit")
    code, answer = _pay(cli, 35_000)
    assert code == 1, answer
    assert (answer["state"], answer["outcome"], answer["qr_content"]) == (
        "failed", "not_paid", None)
    assert answer["polls"] == 1, answer  # the one status query after the cancel
    [request] = shown(emulator)
    assert request["status"] == "CANCELLED" and request["amountPaid"] == 0


def test_a_payos_refund_is_refused_with_what_to_do(cli: Run, emulator: Any) -> None:
    bank_app(emulator, "pay")
    _code, answer = _pay(cli, 25_000)
    refund = cli("refund", answer["app_trans_id"], "--json")
    assert refund.exit_code == 2, refund.stdout
    assert "bank transfer" in refund.stderr


def test_without_json_the_qr_string_is_printed_and_a_code_is_refused(
        cli: Run, emulator: Any) -> None:
    bank_app(emulator, "pay")
    paid = cli("pay", "--amount", "15000", "--qr", "--provider", "payos")
    assert paid.exit_code == 0, paid.stderr
    assert paid.stdout.startswith("QR: 000201")
    both = cli("pay", "--amount", "15000", "--qr", "--code-stdin", "--json")
    assert both.exit_code == 2 and json.loads(both.stdout)["field"] == "qr"
    assert len(shown(emulator)) == 1  # nothing more was created
