"""Issue 10 (money safety under adversity), in one process against the real emulator: answers
that do not fit their order, late successes, leases, the code claim, unexpected answers."""

from __future__ import annotations

import math
import os
import sqlite3
import subprocess
import time
from pathlib import Path
from typing import Any

import pytest

from pos_terminal.checkout import Checkout, PaymentState
from pos_terminal.checkout.outcomes import SENDER_LIVE
from pos_terminal.config import Settings
from pos_terminal.counter import answers, open_checkout
from pos_terminal.counter.answers import headline
from pos_terminal.journal import CodeClaimed, Journal, lease
from pos_terminal.sentences import use_front_end
from pos_terminal.sentences.reports import report_lines
from tests.checkout.conftest import (
    add_fault,
    charged,
    ledger,
    quick_pay_requests,
    wait_until,
    wallet_code,
)

S = PaymentState


# ---------------------------------------------------------------- answers checked against orders
REVIEW_CASES = [
    ("answer_amount", {}, "it reports 16.000 ₫ for an order of 15.000 ₫"),
    ("answer_negative_amount", {}, "it reports a negative amount (-15.000 ₫)"),
    ("answer_subcode", {"return_code": -63}, "with the failure sub-code -63"),
    ("answer_no_zptransid", {}, "without a wallet transaction number (zp_trans_id)"),
    ("answer_other_id", {}, "The wallet service answered about another order"),
]


@pytest.mark.parametrize(("mode", "extra", "needle"), REVIEW_CASES,
                         ids=[c[0] for c in REVIEW_CASES])
def test_an_answer_that_does_not_fit_the_order_needs_review(
        settings: Settings, emulator: Any, mode: str, extra: dict[str, Any], needle: str) -> None:
    add_fault(emulator, endpoint="quick_pay", mode=mode, **extra)
    with open_checkout(settings) as co:
        view = co.pay(15_000, wallet_code(emulator, "an"))
        events = co.journal.events(view.app_trans_id)
    assert view.needs_review and view.state is S.UNKNOWN  # never SUCCEEDED, never FAILED
    assert needle in view.message
    assert "do not charge again" in view.message and "History (O: override)" in view.message
    use_front_end("commands")  # the CLI's next step for the same row is its command
    assert view.message.endswith("then mark it with pos-terminal override.")
    assert answers.payment_exit(view) == 3
    assert answers.payment_answer(view)["outcome"] == "needs_review"
    assert events[-1].kind == "review"
    assert len(charged(emulator, view.app_trans_id)) == 1  # it was charged: never "not paid"


def test_a_status_answer_that_does_not_fit_needs_review(settings: Settings,
                                                        emulator: Any) -> None:
    add_fault(emulator, endpoint="query", mode="answer_amount", count=0)
    with open_checkout(settings) as co:
        view = co.pay(8_000, wallet_code(emulator, "binh"), deadline_s=10)
    assert view.needs_review and view.state in (S.PROCESSING, S.UNKNOWN)
    assert "it reports 9.000 ₫ for an order of 8.000 ₫" in view.message


def test_legacy_subcode_free_success_still_needs_its_transaction_id(
        settings_v001: Settings, emulator: Any) -> None:
    add_fault(emulator, endpoint="quick_pay", mode="answer_no_zptransid")
    with open_checkout(settings_v001) as co:
        view = co.pay(15_000, wallet_code(emulator, "an"))
    assert view.needs_review and view.state is S.UNKNOWN


def test_an_undocumented_positive_legacy_code_goes_to_status_queries(
        settings_v001: Settings, emulator: Any) -> None:
    """Issue 12: a legacy 7 is not a failure (the cashier would charge again): query it."""
    add_fault(emulator, endpoint="quick_pay", mode="answer_undocumented_code")
    with open_checkout(settings_v001) as co:
        view = co.pay(15_000, wallet_code(emulator, "an"))
        path = [(e.from_state, e.to_state) for e in co.journal.events(view.app_trans_id)]
    assert view.state is S.SUCCEEDED
    assert ("submitting", "processing") in path
    assert len(charged(emulator, view.app_trans_id)) == 1


# ---------------------------------------------------------------- unexpected answers
def test_an_absurd_return_code_is_unknown_then_resolved(any_settings: Settings,
                                                        emulator: Any) -> None:
    """Thousands of digits: never exit 1; the charge is found by a status query."""
    add_fault(emulator, endpoint="quick_pay", mode="answer_huge_code")
    with open_checkout(any_settings) as co:
        view = co.pay(15_000, wallet_code(emulator, "an"))
        path = [(e.from_state, e.to_state) for e in co.journal.events(view.app_trans_id)]
    assert path[1] == ("submitting", "unknown")
    assert view.state is S.SUCCEEDED
    assert len(charged(emulator, view.app_trans_id)) == 1


def test_absurd_status_answers_keep_the_payment_open(settings: Settings, emulator: Any) -> None:
    add_fault(emulator, endpoint="quick_pay", mode="drop_after_commit")
    add_fault(emulator, endpoint="query", mode="answer_huge_code", count=0)
    with open_checkout(settings) as co:
        view = co.pay(15_000, wallet_code(emulator, "an"), deadline_s=1.0)
    assert view.state is S.UNKNOWN and answers.payment_exit(view) == 3


def test_nan_poll_intervals_given_programmatically(settings: Settings, emulator: Any) -> None:
    # Programmatically, past the configuration's validation (model_copy does not validate).
    checkout = settings.checkout.model_copy(
        update={"poll_intervals_s": (math.nan, -1.0, math.inf)})
    settings = settings.model_copy(update={"checkout": checkout})
    with open_checkout(settings) as co:
        view = co.pay(5_000, wallet_code(emulator, "binh"), deadline_s=math.nan)
        assert view.state is S.PROCESSING  # a nan deadline has passed: open, exit 3
        assert co.follow(view.app_trans_id, deadline_s=10).state is S.SUCCEEDED


# ---------------------------------------------------------------- late success
def _concluded_failed_then_charged(settings: Settings, emulator: Any) -> tuple[Checkout, str]:
    """The request is held 2.5 s in transit; the terminal gives up after 0.5 s and, the order
    not found and the grace (0 s) over, concludes FAILED. Then the charge lands."""
    settings = settings.replace_service(timeout_s=0.5)
    add_fault(emulator, endpoint="quick_pay", mode="delay_before_commit", delay_s=2.5)
    co = open_checkout(settings)
    view = co.pay(15_000, wallet_code(emulator, "an"))
    assert view.state is S.FAILED and answers.payment_exit(view) == 1
    wait_until("the late charge", lambda: charged(emulator, view.app_trans_id))
    return co, view.app_trans_id


def test_a_late_success_is_recorded_and_counted(settings: Settings, emulator: Any) -> None:
    # late_success = "review": recorded, counted, and left to a person (no automatic return;
    # the default "refund" is tested in test_late_charges.py)
    settings = settings.replace_section("checkout", late_success="review")
    co, tid = _concluded_failed_then_charged(settings, emulator)
    try:
        report = co.reconcile()
        view = co.journal.get(tid)
        assert (view.state, view.late, view.needs_review) == (S.SUCCEEDED, True, True)
        assert view.message.startswith("CHARGED LATE: the wallet charged 15.000 ₫ after the "
                                       "cashier had given up or the terminal had said it failed.")
        assert report.late == 1 and report.to_json()["late"] == 1
        assert [p.app_trans_id for p in report.payments] == [tid]
        late, review = co.journal.events(tid)[-2:]
        assert (late.from_state, late.to_state, late.who) == ("failed", "succeeded",
                                                               "wallet service")
        assert late.message.startswith("CHARGED LATE: the wallet service reports this payment "
                                       "charged (15.000 ₫)")
        assert (review.kind, review.to_state) == ("review", "succeeded")
        x = co.journal.x_report()
        assert (x.late_count, x.late_amount, x.sales_count) == (1, 15_000, 1)
        assert any("CHARGED LATE" in line for line in report_lines(x))
        assert answers.payment_exit(view) == 3 and headline(view) == "NEEDS REVIEW"
        assert co.journal.refunds(tid) == []
    finally:
        co.close()
    assert len(charged(emulator, tid)) == 1


def test_status_finds_a_late_success(settings: Settings, emulator: Any) -> None:
    settings = settings.replace_section("checkout", late_success="review")
    co, tid = _concluded_failed_then_charged(settings, emulator)
    try:
        view = co.status(tid)
        assert (view.state, view.late) == (S.SUCCEEDED, True)
        assert co.status(tid) == view  # settled: asked no more
    finally:
        co.close()


def test_the_journal_allows_only_a_late_failed_to_succeeded(tmp_path: Path) -> None:
    with Journal.open(tmp_path / "j.sqlite3") as journal:
        journal.record_intent(app_trans_id="261121_t_f", amount=5, generation="v2")
        journal.transition("261121_t_f", S.FAILED, message="declined")
        journal.record_intent(app_trans_id="261121_t_s", amount=5, generation="v2")
        journal.transition("261121_t_s", S.SUCCEEDED, message="paid")
    raw = sqlite3.connect(tmp_path / "j.sqlite3", isolation_level=None)
    try:
        for sql in ("UPDATE payments SET state='succeeded' WHERE app_trans_id='261121_t_f'",
                    "UPDATE payments SET late=1 WHERE app_trans_id='261121_t_f'",
                    "UPDATE payments SET state='failed', late=1 WHERE app_trans_id='261121_t_s'",
                    "UPDATE payments SET state='unknown', late=1 "
                    "WHERE app_trans_id='261121_t_f'"):
            with pytest.raises(sqlite3.IntegrityError):
                raw.execute(sql)
        raw.execute("UPDATE payments SET state='succeeded', late=1 "
                    "WHERE app_trans_id='261121_t_f'")
        with pytest.raises(sqlite3.IntegrityError, match="never cleared"):
            raw.execute("UPDATE payments SET late=0 WHERE app_trans_id='261121_t_f'")
    finally:
        raw.close()


# ---------------------------------------------------------------- leases
def _dead_pid() -> int:
    done = subprocess.run(["true"], check=True)
    assert done.returncode == 0
    child = subprocess.Popen(["true"])
    child.wait()
    return child.pid


def _set_owner(path: Path, tid: str, owner: str, until_ms: int | None) -> None:
    raw = sqlite3.connect(path, isolation_level=None)
    raw.execute("UPDATE leases SET owner=?, until_mono_ms=? WHERE subject=?",
                (owner, until_ms, f"payment:{tid}"))
    raw.close()


def test_not_found_waits_while_the_sender_lives(tmp_path: Path) -> None:
    path = tmp_path / "j.sqlite3"
    with Journal.open(path) as journal:
        journal.record_intent(app_trans_id="261121_t_1", amount=5, generation="v2",
                              lease_ttl_ms=1)  # the deadline passes at once...
        time.sleep(0.01)
        view, why = journal.conclude_never_arrived("261121_t_1", grace_s=0, message="never")
        assert (view.state, why) == (S.SUBMITTING, "owner_live")  # ... but the owner runs
        here = lease.me()
        dead = f"{here.boot_id}|{here.pid_ns}|{_dead_pid()}|1"
        _set_owner(path, "261121_t_1", dead, None)
        view, why = journal.conclude_never_arrived("261121_t_1", grace_s=0, message="never")
        assert (view.state, why) == (S.FAILED, "failed")


@pytest.mark.parametrize(("owner", "until_delta_ms", "live"), [
    ("other-boot|{ns}|{pid}|{start}", 10_000_000, False),   # rebooted since: owner is gone
    ("{boot}|pid:[other]|1|1", 10_000_000, True),            # unseen namespace, deadline ahead
    ("{boot}|pid:[other]|1|1", -1, False),                   # unseen namespace, deadline passed
    ("{boot}|{ns}|{pid}|{start}", -1, True),                 # this very process: alive
    ("{boot}|{ns}|{pid}|999", 10_000_000, False),            # pid reused by another process
    ("garbled", -1, True),                                   # unprovable: live
])
def test_which_leases_can_be_proven_over(owner: str, until_delta_ms: int, live: bool) -> None:
    here = lease.me()
    text = owner.format(boot=here.boot_id, ns=here.pid_ns, pid=here.pid, start=here.start)
    assert lease.lease_live(text, lease.mono_ms() + until_delta_ms) is live


def test_the_grace_period_ignores_wall_clock_jumps(tmp_path: Path) -> None:
    wall = [1_763_000_000_000]
    with Journal.open(tmp_path / "j.sqlite3", clock=lambda: wall[0]) as journal:
        journal.record_intent(app_trans_id="261121_t_1", amount=5, generation="v2",
                              lease_ttl_ms=60_000)
        journal.release("261121_t_1")
        wall[0] += 3_600_000  # the wall clock jumps an hour ahead
        view, why = journal.conclude_never_arrived("261121_t_1", grace_s=60, message="never")
        assert (view.state, why) == (S.SUBMITTING, "grace")


def test_a_sender_whose_lease_was_taken_over_does_not_send(settings: Settings,
                                                           emulator: Any) -> None:
    with open_checkout(settings) as co:
        co.journal.record_intent(app_trans_id="261121_t_x", amount=5, generation="v2",
                                 lease_ttl_ms=60_000)
        here = lease.me()
        _set_owner(Path(settings.terminal.journal), "261121_t_x",
                   f"{here.boot_id}|{here.pid_ns}|{_dead_pid()}|1", None)
        assert co.journal.claim_send("261121_t_x", 60_000) is False


def test_owner_live_message_while_the_sender_runs(settings: Settings, emulator: Any) -> None:
    """A second Checkout (the UI's reconciler, another terminal) sees "not found" while this
    process still owns the intent: it keeps the payment open."""
    with open_checkout(settings) as co:
        co.journal.record_intent(app_trans_id="261121_t_y", amount=5, generation="v2",
                                 lease_ttl_ms=60_000)
        with open_checkout(settings) as other:
            report = other.reconcile()
        [row] = report.payments
        assert row.state is S.SUBMITTING and row.why == SENDER_LIVE
        assert report.still_open == 1


# ---------------------------------------------------------------- the code claim
def test_the_code_is_claimed_inside_the_intents_transaction(tmp_path: Path) -> None:
    path = tmp_path / "j.sqlite3"
    with Journal.open(path) as first, Journal.open(path) as second:
        first.record_intent(app_trans_id="261121_t_a", amount=5, generation="v2",
                            payment_code="123456789012345678", code_window_ms=120_000)
        with pytest.raises(CodeClaimed) as err:
            second.record_intent(app_trans_id="261121_t_b", amount=5, generation="v2",
                                 payment_code="123456789012345678", code_window_ms=120_000)
        assert (err.value.reason, err.value.app_trans_id) == ("in_flight", "261121_t_a")
        assert second.find("261121_t_b") is None


def test_a_refund_of_a_stalled_refund_is_refused_while_in_flight(settings: Settings,
                                                                 emulator: Any) -> None:
    with open_checkout(settings) as co:
        paid = co.pay(30_000, wallet_code(emulator, "an"))
        assert paid.state is S.SUCCEEDED
        co.journal.record_refund_intent(m_refund_id="261121_1_r", app_trans_id=paid.app_trans_id,
                                        amount=None, description="all",
                                        request_ms=co.journal.now(), lease_ttl_ms=60_000)
        # Our own live lease: "not found" never concludes it.
        assert co.journal.refund_never_arrived_allowed("261121_1_r", 0) == "owner_live"
    assert ledger(emulator)["refunds"] == []
    assert quick_pay_requests(emulator) == 1
    assert os.getpid() == lease.me().pid


def test_a_sender_whose_answer_is_lost_keeps_what_another_process_found(
        settings: Settings, emulator: Any) -> None:
    """The charge is committed at once but its answer comes after the timeout; meanwhile
    another process's status query finds it paid. The sender's "no answer" never overrides that
    (it used to raise IllegalTransition, which the CLI turned into exit 2 "nothing sent")."""
    import threading

    settings = settings.replace_service(timeout_s=1.5)
    add_fault(emulator, endpoint="quick_pay", mode="delay", delay_s=3.0)
    found: list[Any] = []

    def other_process() -> None:
        wait_until("the charge", lambda: ledger(emulator)["charges"])
        with open_checkout(settings) as other:
            found.append(other.reconcile())

    helper = threading.Thread(target=other_process)
    helper.start()
    with open_checkout(settings) as co:
        view = co.pay(15_000, wallet_code(emulator, "an"))
    helper.join()
    assert found and found[0].payments[0].state is S.SUCCEEDED
    assert view.state is S.SUCCEEDED and answers.payment_exit(view) == 0
    assert len(charged(emulator, view.app_trans_id)) == 1
