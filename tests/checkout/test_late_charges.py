"""Void of abandoned payments (issue 14): a payment charged after the cashier gave up waiting
for it, or after the terminal had said it failed, is returned by one automatic refund
([checkout] late_success = "refund", the default) or left for a person ("review"). Real
emulator over HTTP, real journal files, real processes for the races and the crash."""

from __future__ import annotations

import json
import signal
import subprocess
from pathlib import Path
from typing import Any

from pos_terminal.checkout import Checkout, PaymentState
from pos_terminal.checkout.hooks import PAUSE_AT, PAUSE_FILE
from pos_terminal.config import Settings
from pos_terminal.counter import answers, open_checkout
from pos_terminal.counter.answers import headline
from pos_terminal.sentences.reports import report_lines
from tests.checkout.conftest import (
    add_fault,
    charged,
    ledger,
    wait_until,
    wallet_code,
    write_config,
)
from tests.conftest import ProcessingHold
from tests.processes import child_env, cli

S = PaymentState
RETURNED = ("Charged late and returned automatically (15.000 ₫): the customer has the money "
            "back.")
GAVE_UP_REFUND = (
    "Outcome still unknown: ask the customer to pay another way. The terminal keeps checking "
    "this payment; if the wallet charges it after all, the charge is returned to the customer "
    "automatically."
)


def _refunds_at_service(emulator: Any, tid: str) -> list[dict[str, Any]]:
    return [r for r in ledger(emulator)["refunds"] if r["app_trans_id"] == tid]


def _abandoned_then_charged(settings: Settings, emulator: Any, hold: ProcessingHold,
                            cashier_id: str | None = None) -> tuple[Checkout, str]:
    """Wallet binh answers "processing" (held); the terminal stops waiting after 0.3 s and the
    cashier gives up. Then the customer confirms: the wallet charges it."""
    co = open_checkout(settings)
    view = co.pay(15_000, wallet_code(emulator, "binh"), deadline_s=0.3, cashier_id=cashier_id)
    assert view.state is S.PROCESSING
    gave_up = co.abandon(view.app_trans_id)
    assert (gave_up.state, gave_up.abandoned, gave_up.message) == (S.PROCESSING, True,
                                                                   GAVE_UP_REFUND)
    assert answers.payment_exit(gave_up) == 3
    hold.release()
    wait_until("the late charge", lambda: charged(emulator, view.app_trans_id))
    return co, view.app_trans_id


def _returned(co: Checkout, tid: str) -> None:
    """Reconcile until the automatic return is settled."""
    def settled() -> bool:
        co.reconcile(wait_s=5)
        refund = co.journal.auto_refund_of(tid)
        return refund is not None and refund.is_final
    wait_until("the automatic return", settled)


def test_an_abandoned_payment_charged_later_is_returned_once(
        settings: Settings, emulator: Any, hold_processing: ProcessingHold) -> None:
    co, tid = _abandoned_then_charged(settings, emulator, hold_processing, cashier_id="ann")
    try:
        _returned(co, tid)
        view = co.journal.get(tid)
        refund = co.journal.auto_refund_of(tid)
        assert refund is not None
        assert (view.state, view.abandoned, view.charged_late, view.needs_review) == (
            S.REFUNDED, True, True, False)
        assert view.message == RETURNED
        assert (refund.state, refund.amount, refund.auto, refund.cashier_id) == (
            S.REFUNDED, 15_000, True, "ann")  # counted for the cashier of the sale
        assert headline(view) == "CHARGED LATE, RETURNED"
        co.reconcile()  # and again: nothing more is returned
        assert len(co.journal.refunds(tid)) == 1
        x = co.journal.x_report()
        assert (x.auto_returned_count, x.auto_returned_amount) == (1, 15_000)
        assert any(line.startswith("  AUTO-RETURNED     1           15.000 ₫")
                   for line in report_lines(x)), report_lines(x)
        [ann] = co.journal.grouped_report("cashier")
        assert (ann.cashier_id, ann.sales_amount, ann.refunds_amount, ann.net_amount,
                ann.auto_returned_count, ann.auto_returned_amount) == (
            "ann", 15_000, 15_000, 0, 1, 15_000)
        z = co.journal.close_day()
        assert (z.auto_returned_count, z.auto_returned_amount) == (1, 15_000)
    finally:
        co.close()
    [at_service] = _refunds_at_service(emulator, tid)
    assert (at_service["amount"], at_service["state"]) == (15_000, "succeeded")


def test_a_late_success_after_failed_is_returned(settings: Settings, emulator: Any) -> None:
    settings = settings.replace_service(timeout_s=0.5)
    add_fault(emulator, endpoint="quick_pay", mode="delay_before_commit", delay_s=2.5)
    with open_checkout(settings) as co:
        view = co.pay(15_000, wallet_code(emulator, "an"))
        assert view.state is S.FAILED
        wait_until("the late charge", lambda: charged(emulator, view.app_trans_id))
        _returned(co, view.app_trans_id)
        final = co.journal.get(view.app_trans_id)
        assert (final.state, final.late, final.message) == (S.REFUNDED, True, RETURNED)
    assert len(_refunds_at_service(emulator, view.app_trans_id)) == 1


def test_review_leaves_a_late_charge_to_a_person(
        settings: Settings, emulator: Any, hold_processing: ProcessingHold) -> None:
    settings = settings.replace_section("checkout", late_success="review")
    co = open_checkout(settings)
    try:
        view = co.pay(15_000, wallet_code(emulator, "binh"), deadline_s=0.3)
        gave_up = co.abandon(view.app_trans_id)
        assert gave_up.message == (
            "Outcome still unknown: do not take another payment for this sale yet. The terminal "
            "keeps checking this payment; if the wallet charges it late, it is marked NEEDS "
            "REVIEW and a supervisor refunds it or settles the sale."
        )
        hold_processing.release()
        wait_until("the late charge", lambda: charged(emulator, view.app_trans_id))
        co.reconcile(wait_s=5)
        final = co.journal.get(view.app_trans_id)
        assert (final.state, final.needs_review, final.charged_late) == (S.SUCCEEDED, True, True)
        assert final.message.startswith("CHARGED LATE: the wallet charged 15.000 ₫")
        assert headline(final) == "NEEDS REVIEW"
        assert co.journal.refunds(view.app_trans_id) == []
        # a person decides: the customer paid only this way, the sale stands
        kept = co.override(view.app_trans_id, S.SUCCEEDED, "customer paid only by wallet", "lan")
        assert (kept.state, kept.needs_review, answers.payment_exit(kept)) == (S.SUCCEEDED,
                                                                               False, 0)
        co.reconcile()  # and it is not flagged or returned again
        assert co.journal.get(view.app_trans_id).needs_review is False
    finally:
        co.close()
    assert _refunds_at_service(emulator, view.app_trans_id) == []


def test_a_payment_settled_before_the_cashier_gives_up_is_not_abandoned(
        settings: Settings, emulator: Any) -> None:
    with open_checkout(settings) as co:
        view = co.pay(15_000, wallet_code(emulator, "an"))
        assert view.state is S.SUCCEEDED
        after = co.abandon(view.app_trans_id)
        assert (after.state, after.abandoned) == (S.SUCCEEDED, False)
        co.reconcile()
        assert co.journal.refunds(view.app_trans_id) == []


# ---------------------------------------------------------------- real processes

def test_pay_exiting_3_gives_up_and_the_late_charge_is_returned(
        settings: Settings, emulator: Any, hold_processing: ProcessingHold,
        tmp_path: Path) -> None:
    config = write_config(settings, tmp_path / "pos.toml", poll_deadline_s=0.3)
    done = subprocess.run(cli(config, "pay", "--amount", "15000", "--code",
                               wallet_code(emulator, "binh"), "--json"),
                          env=child_env(), capture_output=True, timeout=60, check=False)
    assert done.returncode == 3, done.stderr.decode()
    answer = json.loads(done.stdout)
    tid = answer["app_trans_id"]
    assert (answer["state"], answer["abandoned"]) == ("processing", True)
    assert answer["message"] == (
        "Outcome still unknown: ask the customer to pay another way. Run `pos-terminal "
        f"reconcile` (or `pos-terminal status {tid}`) to keep checking it; if the wallet "
        "charges it after all, the charge is returned to the customer automatically."
    )
    hold_processing.release()
    wait_until("the late charge", lambda: charged(emulator, tid))
    # Two processes reconcile at once: one return, never two.
    procs = [subprocess.Popen(cli(config, "reconcile", "--wait", "5", "--json"), env=child_env(),
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE) for _ in range(2)]
    for proc in procs:
        _out, err = proc.communicate(timeout=60)
        assert proc.returncode == 0, err.decode()
    with open_checkout(settings) as co:
        _returned(co, tid)
        assert [r.auto for r in co.journal.refunds(tid)] == [True]
        assert co.journal.get(tid).state is S.REFUNDED
    assert len(_refunds_at_service(emulator, tid)) == 1


def test_a_crash_between_the_late_success_and_its_return(
        settings: Settings, emulator: Any, hold_processing: ProcessingHold,
        tmp_path: Path) -> None:
    co, tid = _abandoned_then_charged(settings, emulator, hold_processing)
    co.close()
    config = write_config(settings, tmp_path / "pos.toml")
    marker = tmp_path / "paused"
    proc = subprocess.Popen(cli(config, "reconcile", "--json"),
                            env=child_env(**{PAUSE_AT: "late_charge_before_return",
                                        PAUSE_FILE: str(marker)}),
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    try:
        wait_until("the pause before the return", marker.exists)
    finally:
        proc.send_signal(signal.SIGKILL)
        proc.wait(timeout=10)
    with open_checkout(settings) as co:
        view = co.journal.get(tid)
        assert (view.state, view.charged_late, co.journal.refunds(tid)) == (S.SUCCEEDED, True,
                                                                             [])
        _returned(co, tid)  # the next reconcile returns it
        assert co.journal.get(tid).state is S.REFUNDED
        assert len(co.journal.refunds(tid)) == 1
    assert len(_refunds_at_service(emulator, tid)) == 1
