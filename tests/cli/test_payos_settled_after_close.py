"""Money that reaches a payOS QR after it closed empty, settled by a person through the CLI
(`override`), against the emulator's payOS part over real HTTP with a real journal:

- part of a transfer lands after the QR was cancelled: `reconcile` flags the FAILED row for
  review; a supervisor settles it, paid (the rest collected in cash) or not paid (what arrived
  returned by the shop), and every later answer still says what arrived and what was missing;
- an ordinary failed QR (nothing arrived) still refuses every override, with a sentence;
- the whole amount lands late: the automatic return is refused (payOS has no refund), the row is
  left for review, and a supervisor keeps it as the sale's payment."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
import requests

from pos_terminal.config import Settings
from pos_terminal.journal import Journal
from tests.checkout.conftest import write_config
from tests.cli.conftest import Run, runner_for
from tests.wallets.payos_help import bank_app, shown, with_payos


@pytest.fixture
def cli(settings: Settings, emulator: Any, tmp_path: Path) -> Run:
    return runner_for(write_config(with_payos(settings, emulator), tmp_path / "pos.toml"))


def _json(cli: Run, *args: str, stdin: str | None = None) -> tuple[int, dict[str, Any]]:
    result = cli(*args, "--json", stdin=stdin)
    assert result.stdout, result.stderr
    data: dict[str, Any] = json.loads(result.stdout)
    return result.exit_code, data


def _closed_empty(cli: Run, emulator: Any, amount: int) -> dict[str, Any]:
    """A QR nobody paid, cancelled when the wait ended: FAILED, nothing arrived."""
    bank_app(emulator, "none")
    code, answer = _json(cli, "pay", "--amount", str(amount), "--qr", "--provider", "payos",
                         "--deadline", "1")
    assert code == 1 and answer["state"] == "failed", answer
    [request] = [r for r in shown(emulator) if str(r["orderCode"]) == answer["app_trans_id"]]
    assert request["status"] == "CANCELLED"
    return answer


def _transfer_lands(emulator: Any, app_trans_id: str, amount: int | None = None) -> None:
    """The customer's bank transfer reaches the closed request of payment `app_trans_id` (all
    that is missing: None)."""
    [order_code] = [r["orderCode"] for r in shown(emulator)
                    if str(r["orderCode"]) == app_trans_id]
    requests.post(f"{emulator.base_url}/_emulator/payos/requests/{order_code}/pay",
                  json={} if amount is None else {"amount": amount},
                  timeout=30).raise_for_status()


def _flagged_part_paid(cli: Run, emulator: Any) -> str:
    """40.000 ₫ asked, the QR cancelled empty, then 15.000 ₫ arrives: flagged by reconcile."""
    answer = _closed_empty(cli, emulator, 40_000)
    _transfer_lands(emulator, answer["app_trans_id"], 15_000)
    _code, found = _json(cli, "reconcile")
    row = next(p for p in found["payments"] if p["app_trans_id"] == answer["app_trans_id"])
    assert (row["state"], row["needs_review"], row["reason_code"]) == (
        "failed", True, "shop_qr.closed_with_money"), row
    return str(answer["app_trans_id"])


def _staff(cli: Run) -> None:
    boss = cli("cashier", "add", "boss", "--name", "Bà Chủ", "--supervisor", "--pin-stdin",
               stdin="9753\n")
    assert boss.exit_code == 0, boss.stderr


@pytest.mark.parametrize(("mark", "exit_code", "outcome", "money", "said"), [
    ("paid", 0, "paid", "shop",
     "15.000 ₫ arrived of 40.000 ₫; the missing 25.000 ₫ was collected another way"),
    ("failed", 1, "not_paid", "customer",
     "the 15.000 ₫ that arrived was returned by the shop (not by payOS)"),
])
def test_part_of_a_transfer_after_the_qr_closed_is_settled_by_a_supervisor(
        cli: Run, emulator: Any, settings: Settings, mark: str, exit_code: int, outcome: str,
        money: str, said: str) -> None:
    _staff(cli)
    app_trans_id = _flagged_part_paid(cli, emulator)
    reason = "rest in cash" if mark == "paid" else "shop transfer VCB 123"
    refused = cli("override", app_trans_id, "--mark", mark, "--reason", reason)
    assert refused.exit_code == 2 and "supervisor" in refused.stderr  # the PIN is asked first
    code, settled = _json(cli, "override", app_trans_id, "--mark", mark, "--reason", reason,
                          "--supervisor", "boss", "--pin-stdin", stdin="9753\n")
    assert code == exit_code, settled
    assert (settled["outcome"], settled["money"], settled["needs_review"]) == (
        outcome, money, False), settled
    assert settled["paid"] is (mark == "paid")
    assert (settled["amount_paid"], settled["amount_missing"]) == (15_000, 25_000), settled
    assert said in settled["message"] and reason in settled["message"], settled["message"]
    assert "refunded" not in settled["message"]  # payOS refunded nothing
    _code, found = _json(cli, "reconcile")  # asked again, it stays as the person settled it
    assert app_trans_id not in {p["app_trans_id"] for p in found["payments"]}
    code, status = _json(cli, "status", app_trans_id)
    assert code == exit_code and status["outcome"] == outcome, status
    assert (status["amount_paid"], status["amount_missing"]) == (15_000, 25_000), status
    with Journal.open(settings.terminal.journal) as journal:
        event = journal.events(app_trans_id)[-1]
    assert (event.kind, event.from_state, event.who, event.cashier_id, event.reason) == (
        "override", "failed", "boss", "boss", reason)
    assert event.to_state == ("succeeded" if mark == "paid" else "failed")


def test_a_failed_qr_nothing_arrived_at_still_refuses_an_override(
        cli: Run, emulator: Any, settings: Settings) -> None:
    answer = _closed_empty(cli, emulator, 30_000)
    with Journal.open(settings.terminal.journal) as journal:
        before = (journal.get(answer["app_trans_id"]), len(journal.events(answer["app_trans_id"])))
    for mark in ("paid", "failed"):
        refused = cli("override", answer["app_trans_id"], "--mark", mark, "--reason", "x")
        assert refused.exit_code == 2, refused.stdout
        assert "only an unresolved payment" in refused.stderr
        assert "or one flagged for review can be overridden. Nothing changed." in refused.stderr
    with Journal.open(settings.terminal.journal) as journal:
        after = (journal.get(answer["app_trans_id"]), len(journal.events(answer["app_trans_id"])))
    assert after == before
    _code, status = _json(cli, "status", answer["app_trans_id"])
    assert (status["state"], status["outcome"]) == ("failed", "not_paid"), status


def test_the_whole_amount_after_the_qr_closed_is_kept_by_a_supervisor(
        cli: Run, emulator: Any) -> None:
    """A late payment: SUCCEEDED and late, its automatic return refused (payOS has no refund),
    left for review; the supervisor keeps it as the sale's payment (override paid), and a
    "not paid" for money the shop holds is refused."""
    _staff(cli)
    answer = _closed_empty(cli, emulator, 40_000)
    _transfer_lands(emulator, answer["app_trans_id"])
    _json(cli, "reconcile")
    code, late = _json(cli, "status", answer["app_trans_id"])
    assert code == 3 and (late["state"], late["late"], late["needs_review"]) == (
        "succeeded", True, True), late
    assert late["reason_params"]["why"]["reason"] == "wallet.no_refunds"
    not_paid = cli("override", answer["app_trans_id"], "--mark", "failed", "--reason", "x",
                   "--supervisor", "boss", "--pin-stdin", stdin="9753\n")
    assert not_paid.exit_code == 2 and "Nothing changed" in not_paid.stderr
    code, kept = _json(cli, "override", answer["app_trans_id"], "--mark", "paid", "--reason",
                       "customer keeps the goods", "--supervisor", "boss", "--pin-stdin",
                       stdin="9753\n")
    assert code == 0, kept
    assert (kept["state"], kept["outcome"], kept["paid"], kept["money"]) == (
        "succeeded", "paid", True, "shop"), kept
    assert kept["late"] and not kept["needs_review"]  # charged late, kept by a person
    _json(cli, "reconcile")  # the sweep of late charges leaves a kept one alone
    code, status = _json(cli, "status", answer["app_trans_id"])
    assert code == 0 and (status["outcome"], status["needs_review"]) == ("paid", False), status
    assert status["reason_code"] == "override.paid"


def test_the_whole_amount_after_the_qr_closed_returned_by_the_shop_is_recorded(
        cli: Run, emulator: Any, settings: Settings) -> None:
    """payOS has no refund: once the shop has returned the late payment by its own bank
    transfer, a supervisor records it (`refund --returned-by-shop`): a refund born and settled
    at once, nothing sent to payOS, the payment RETURNED (the money is the customer's)."""
    _staff(cli)
    answer = _closed_empty(cli, emulator, 40_000)
    _transfer_lands(emulator, answer["app_trans_id"])
    _json(cli, "reconcile")
    app_trans_id = answer["app_trans_id"]
    sent = cli("refund", app_trans_id, "--supervisor", "boss", "--pin-stdin", stdin="9753\n")
    assert sent.exit_code == 2 and "bank transfer" in sent.stderr  # never "refunded by payOS"
    no_reason = cli("refund", app_trans_id, "--returned-by-shop", "--supervisor", "boss",
                    "--pin-stdin", stdin="9753\n")
    assert no_reason.exit_code == 2 and "needs --reason" in no_reason.stderr
    unauthorised = cli("refund", app_trans_id, "--returned-by-shop", "--reason", "VCB 123")
    assert unauthorised.exit_code == 2 and "supervisor" in unauthorised.stderr
    code, refund = _json(cli, "refund", app_trans_id, "--returned-by-shop", "--reason",
                         "VCB transfer 123", "--supervisor", "boss", "--pin-stdin",
                         stdin="9753\n")
    assert code == 0, refund
    assert (refund["state"], refund["outcome"], refund["amount"], refund["authorised_by"]) == (
        "refunded", "refunded", 40_000, "boss"), refund
    assert ("40.000 ₫ returned to the customer by the shop's own bank transfer, not by payOS"
            in refund["message"]), refund["message"]
    code, status = _json(cli, "status", app_trans_id)
    assert code == 1, status
    assert (status["state"], status["outcome"], status["money"], status["needs_review"]) == (
        "refunded", "returned", "customer", False), status
    assert "refunded by payOS" not in status["message"]
    with Journal.open(settings.terminal.journal) as journal:
        [row] = journal.refunds(app_trans_id)
        events = [e for e in journal.events(app_trans_id) if e.m_refund_id == row.m_refund_id]
    assert row.refund_id is None and not row.auto  # nothing came from payOS
    assert [(e.kind, e.from_state, e.to_state) for e in events] == [
        ("transition", "new", "refunding"), ("override", "refunding", "refunded"),
        ("transition", "succeeded", "refunded")]
    assert (events[1].who, events[1].reason, events[1].cashier_id) == (
        "boss", "VCB transfer 123", "boss")
    again = cli("refund", app_trans_id, "--returned-by-shop", "--reason", "twice",
                "--supervisor", "boss", "--pin-stdin", stdin="9753\n")
    assert again.exit_code == 2  # nothing is left to return


def test_a_wallet_with_its_own_refund_takes_no_refund_by_the_shop(
        cli: Run, emulator: Any) -> None:
    from tests.checkout.conftest import wallet_code

    paid = cli("pay", "--amount", "20000", "--code", wallet_code(emulator, "an"), "--json")
    assert paid.exit_code == 0, paid.stderr
    app_trans_id = json.loads(paid.stdout)["app_trans_id"]
    refused = cli("refund", app_trans_id, "--returned-by-shop", "--reason", "cash back")
    assert refused.exit_code == 2
    assert "refund this payment the usual way. Nothing was recorded." in refused.stderr
    _code, status = _json(cli, "status", app_trans_id)
    assert (status["state"], status["refunded_amount"]) == ("succeeded", 0)
