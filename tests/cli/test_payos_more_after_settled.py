"""More money reaching a payOS QR after the terminal flagged (or a person settled) what had
arrived, through the CLI against the emulator's payOS over real HTTP with a real journal:

- a second part transfer after the row was flagged is seen: `reconcile` updates what arrived
  and what is missing, and `override` writes what a FRESH status answer says (asked once, even
  without a reconcile in between), so the reports count at payOS exactly what payOS holds;
- a wallet that cannot be asked refuses the override with a sentence and nothing changes;
- after the shop returned what arrived (override not paid), the rest transferred later is never
  a late success of the whole amount (payOS still counts the money the shop sent back): the row
  is flagged for a person, their earlier decision kept in the sentence."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from pos_terminal import wallet_registry
from pos_terminal.config import Settings
from pos_terminal.journal import Journal
from tests.checkout.conftest import write_config
from tests.cli import test_payos_settled_after_close as settled_after_close
from tests.cli.conftest import Run, runner_for
from tests.cli.test_payos_settled_after_close import (
    _flagged_part_paid,
    _json,
    _staff,
    _transfer_lands,
)
from tests.wallets.payos_help import with_payos

cli = settled_after_close.cli  # its CLI taking payOS at the emulator
SUPERVISOR = ("--supervisor", "boss", "--pin-stdin")


def _override(cli: Run, app_trans_id: str, mark: str, reason: str) -> tuple[int, dict[str, Any]]:
    return _json(cli, "override", app_trans_id, "--mark", mark, "--reason", reason,
                 *SUPERVISOR, stdin="9753\n")


@pytest.mark.parametrize("reconciled", [True, False], ids=["reconciled", "not-reconciled"])
def test_a_second_part_after_the_flag_is_what_the_override_and_the_reports_say(
        cli: Run, emulator: Any, reconciled: bool) -> None:
    """40.000 ₫ asked, 15.000 ₫ arrives after the QR closed (flagged), then 10.000 ₫ more:
    payOS holds 25.000 ₫. Reconcile updates the flag to 25.000 ₫ arrived / 15.000 ₫ missing;
    without it, the override asks payOS itself. Either way the override says 25.000 ₫ arrived
    and 15.000 ₫ collected otherwise, and the X report counts 25.000 ₫ at payOS."""
    _staff(cli)
    app_trans_id = _flagged_part_paid(cli, emulator)
    _transfer_lands(emulator, app_trans_id, 10_000)
    if reconciled:
        _code, found = _json(cli, "reconcile")
        [row] = [p for p in found["payments"] if p["app_trans_id"] == app_trans_id]
        assert (row["needs_review"], row["reason_code"]) == (True, "shop_qr.closed_with_money")
        assert (row["amount_paid"], row["amount_missing"]) == (25_000, 15_000), row
        _code, status = _json(cli, "status", app_trans_id)
        assert (status["amount_paid"], status["amount_missing"]) == (25_000, 15_000), status
        _code, same = _json(cli, "reconcile")  # asked again, nothing new: not listed again
        assert app_trans_id not in {p["app_trans_id"] for p in same["payments"]}
    code, settled = _override(cli, app_trans_id, "paid", "rest in cash")
    assert code == 0 and settled["outcome"] == "paid", settled
    assert (settled["amount_paid"], settled["amount_missing"]) == (25_000, 15_000), settled
    assert ("25.000 ₫ arrived of 40.000 ₫; the missing 15.000 ₫ was collected another way"
            in settled["message"]), settled["message"]
    _code, report = _json(cli, "report", "x")
    assert report["by_provider"]["payos"]["amount"] == 25_000, report["by_provider"]
    assert report["collected_otherwise_amount"] == 15_000, report


def test_an_override_the_wallet_cannot_confirm_is_refused_and_changes_nothing(
        cli: Run, emulator: Any, settings: Settings, tmp_path: Path) -> None:
    """What arrived is never written from the row's older reason: with payOS out of reach the
    override is refused with a sentence, the row and its events as they were."""
    _staff(cli)
    app_trans_id = _flagged_part_paid(cli, emulator)
    section = wallet_registry.wallet("payos").section
    unreachable = with_payos(settings, emulator).replace_section(
        section, base_url="http://127.0.0.1:9")
    offline_toml = write_config(unreachable, tmp_path / "offline.toml")
    offline_toml.chmod(0o600)
    offline = runner_for(offline_toml)
    with Journal.open(settings.terminal.journal) as journal:
        before = (journal.get(app_trans_id), journal.events(app_trans_id))
    refused = offline("override", app_trans_id, "--mark", "paid", "--reason", "rest in cash",
                      *SUPERVISOR, stdin="9753\n")
    assert refused.exit_code == 2, refused.output
    assert "could not confirm what arrived" in refused.stderr, refused.stderr
    assert "Nothing changed" in refused.stderr
    with Journal.open(settings.terminal.journal) as journal:
        assert (journal.get(app_trans_id), journal.events(app_trans_id)) == before


@pytest.mark.parametrize(("mark", "said", "at_payos"), [
    ("paid", "25.000 ₫ arrived of 40.000 ₫; the missing 15.000 ₫ was collected another way",
     25_000),
    ("failed", "the 25.000 ₫ that arrived was returned by the shop", 0),
])
def test_the_rest_transferred_after_the_shop_returned_the_part_is_flagged_not_paid(
        cli: Run, emulator: Any, mark: str, said: str, at_payos: int) -> None:
    """15.000 ₫ of 40.000 ₫ arrived after the QR closed; the shop returned it (override not
    paid). The customer then transfers the 25.000 ₫ "rest": payOS says 40.000 ₫ paid, but
    15.000 ₫ of it went back. Never a late success of 40.000 ₫: flagged for a person, the
    sentence saying what payOS counts, what the shop had returned and what had been decided;
    asked again, nothing more changes. The person settles it again from a fresh answer, with
    what the shop holds (25.000 ₫), and it stays settled."""
    _staff(cli)
    app_trans_id = _flagged_part_paid(cli, emulator)
    code, returned = _override(cli, app_trans_id, "failed", "shop transfer VCB 123")
    assert code == 1 and returned["reason_code"] == "override.part_returned", returned
    _code, same = _json(cli, "reconcile")  # nothing more arrived: it stays as settled
    assert app_trans_id not in {p["app_trans_id"] for p in same["payments"]}
    _transfer_lands(emulator, app_trans_id, 25_000)
    _code, found = _json(cli, "reconcile")
    [row] = [p for p in found["payments"] if p["app_trans_id"] == app_trans_id]
    assert (row["state"], row["late"], row["needs_review"], row["paid"]) == (
        "failed", False, True, False), row
    assert row["reason_code"] == "shop_qr.more_after_settled", row
    assert ("now counts 40.000 ₫ arrived of 40.000 ₫, 15.000 ₫ of it returned by the shop"
            in row["message"]), row["message"]
    assert "VCB 123" in row["message"]  # what was decided stays visible
    _code, again = _json(cli, "reconcile")
    assert again["late"] == 0
    assert app_trans_id not in {p["app_trans_id"] for p in again["payments"]}
    code, status = _json(cli, "status", app_trans_id)
    assert (status["state"], status["late"], status["message"]) == (
        "failed", False, row["message"]), status
    code, settled = _override(cli, app_trans_id, mark, "second look, VCB 124")
    assert code == (0 if mark == "paid" else 1) and not settled["needs_review"], settled
    assert said in settled["message"], settled["message"]
    _code, after = _json(cli, "reconcile")  # payOS still counts 40.000 ₫: nothing new
    assert app_trans_id not in {p["app_trans_id"] for p in after["payments"]}
    _code, report = _json(cli, "report", "x")
    assert report["by_provider"].get("payos", {}).get("amount", 0) == at_payos, report
