"""Every path of the payment state machine, in both generations, against the emulator over HTTP
with a real journal file. The emulator's ledger proves what was charged."""

from __future__ import annotations

import threading
from typing import Any

import pytest

from pos_terminal.base.reasons import Reason
from pos_terminal.checkout import Checkout, CodeRefused, PaymentState, PaymentView
from pos_terminal.checkout.outcomes import NEVER_ARRIVED, apply_payment_result
from pos_terminal.config import Settings
from pos_terminal.counter import open_checkout
from pos_terminal.journal import Journal
from pos_terminal.wallets.zalopay.adapter import charge_answer
from pos_terminal.wallets.zalopay.client import WalletClient
from pos_terminal.wallets.zalopay.ids import new_app_trans_id
from pos_terminal.wallets.zalopay.messages import Item, QuickPayOrder
from pos_terminal.wallets.zalopay.results import AnswerStatus, PaymentResult
from tests.checkout.conftest import BALANCES, add_fault, charged, ledger, wallet_code
from tests.conftest import ProcessingHold

S = PaymentState


def _path(co: Checkout, view: PaymentView) -> list[tuple[str | None, str]]:
    return [(e.from_state, e.to_state) for e in co.journal.events(view.app_trans_id)]


def test_instant_success(any_settings: Settings, emulator: Any) -> None:
    seen: list[str] = []
    with open_checkout(any_settings) as co:
        view = co.pay(12_000, wallet_code(emulator, "an"), description="Tea",
                      items=[Item("t1", "Tea", 12_000, 1)],
                      on_progress=lambda v: seen.append(v.state.value))
        assert view.state is S.SUCCEEDED
        assert view.return_code == 1 and view.zp_trans_id
        assert view.message == "Payment received. The sale is complete."
        assert _path(co, view) == [("new", "submitting"), ("submitting", "succeeded")]
        assert co.journal.get(view.app_trans_id) == view  # committed before we were told
    assert seen[0] == "submitting" and seen[-1] == "succeeded"
    [charge] = charged(emulator, view.app_trans_id)
    assert (charge["amount"], str(charge["zp_trans_id"])) == (12_000, view.zp_trans_id)
    assert ledger(emulator)["balances"]["an"] == BALANCES["an"] - 12_000


def test_processing_then_paid(any_settings: Settings, emulator: Any) -> None:
    with open_checkout(any_settings) as co:
        view = co.pay(30_000, wallet_code(emulator, "binh"))
        assert view.state is S.SUCCEEDED and view.polls >= 1
        assert _path(co, view) == [("new", "submitting"), ("submitting", "processing"),
                                   ("processing", "succeeded")]
    assert len(charged(emulator, view.app_trans_id)) == 1


def test_processing_then_failed(any_settings: Settings, emulator: Any) -> None:
    with open_checkout(any_settings) as co:
        view = co.pay(30_000, wallet_code(emulator, "chi"))
        assert view.state is S.FAILED
        assert _path(co, view) == [("new", "submitting"), ("submitting", "processing"),
                                   ("processing", "failed")]
        assert -217 in (view.return_code, view.sub_return_code)
    assert charged(emulator, view.app_trans_id) == []
    assert ledger(emulator)["balances"]["chi"] == BALANCES["chi"]


def test_declined_insufficient_balance(any_settings: Settings, emulator: Any) -> None:
    with open_checkout(any_settings) as co:
        view = co.pay(30_000, wallet_code(emulator, "dung"))
        assert view.state is S.FAILED
        assert -63 in (view.return_code, view.sub_return_code)
        assert view.message.startswith("The customer's wallet balance is too low.")
        assert _path(co, view) == [("new", "submitting"), ("submitting", "failed")]


def test_unknown_code_is_declined_by_the_service(any_settings: Settings, emulator: Any) -> None:
    with open_checkout(any_settings) as co:
        view = co.pay(1_000, "999999999999999999")
        assert view.state is S.FAILED
        assert -401 in (view.return_code, view.sub_return_code)
    assert charged(emulator, view.app_trans_id) == []


def test_deadline_leaves_processing_open_then_reconcile_settles_it(
        any_settings: Settings, emulator: Any) -> None:
    with open_checkout(any_settings) as co:
        view = co.pay(5_000, wallet_code(emulator, "binh"), deadline_s=0.05)
        assert view.state is S.PROCESSING
        assert view.message.startswith("No final result after 0 s. The payment stays open")
        assert co.pending_count() == 1
    with open_checkout(any_settings) as co:
        report = co.reconcile(wait_s=5)
        assert (report.checked, report.resolved, report.still_open) == (1, 1, 0)
        assert co.journal.get(view.app_trans_id).state is S.SUCCEEDED
        assert co.pending_count() == 0
    assert len(charged(emulator, view.app_trans_id)) == 1


def test_cancel_hands_the_payment_to_reconciliation(settings: Settings, emulator: Any) -> None:
    cancel = threading.Event()
    cancel.set()
    with open_checkout(settings) as co:
        view = co.pay(5_000, wallet_code(emulator, "binh"), cancel=cancel)
        assert view.state is S.PROCESSING
        follow = co.follow(view.app_trans_id, deadline_s=5)
        assert follow.state is S.SUCCEEDED


def test_status_asks_once_and_final_rows_are_not_asked(
        settings: Settings, emulator: Any, hold_processing: ProcessingHold) -> None:
    with open_checkout(settings) as co:
        view = co.pay(5_000, wallet_code(emulator, "binh"), deadline_s=0.01)
        assert view.state is S.PROCESSING
        before = ledger(emulator)["requests"].get("query", 0)
        assert co.status(view.app_trans_id).state is S.PROCESSING
        assert ledger(emulator)["requests"].get("query", 0) == before + 1
        hold_processing.release()
        done = co.follow(view.app_trans_id, deadline_s=5)
        assert done.state is S.SUCCEEDED
        queries = ledger(emulator)["requests"].get("query", 0)
        assert co.status(view.app_trans_id) == done
        assert ledger(emulator)["requests"].get("query", 0) == queries


def test_code_read_twice_and_code_already_charged_are_refused(settings: Settings,
                                                              emulator: Any) -> None:
    code = wallet_code(emulator, "binh")
    with open_checkout(settings) as co:
        first = co.pay(5_000, code, deadline_s=0.01)
        assert first.state is S.PROCESSING
        with pytest.raises(CodeRefused, match="already being charged in payment") as err:
            co.pay(5_000, code)
        assert (err.value.reason, err.value.app_trans_id) == ("in_flight", first.app_trans_id)
        assert "••••" + code[-4:] in err.value.message and code not in err.value.message
        co.follow(first.app_trans_id, deadline_s=5)
        with pytest.raises(CodeRefused, match="already charged on this terminal") as err:
            co.pay(5_000, code)
        assert err.value.reason == "charged"
    assert ledger(emulator)["requests"]["quick_pay"] == 1
    assert len(charged(emulator, first.app_trans_id)) == 1


def test_code_of_an_old_unresolved_payment_is_refused(settings: Settings,
                                                      emulator: Any) -> None:
    settings = settings.replace_section("checkout", code_reuse_window_s=0.0)
    code = wallet_code(emulator, "binh")
    with open_checkout(settings) as co:
        first = co.pay(5_000, code, deadline_s=0.01)
        with pytest.raises(CodeRefused, match=r"still unknown: the terminal keeps checking it\. "
                           "Ask the customer to show a fresh code") as err:
            co.pay(5_000, code)
        assert err.value.reason == "unresolved" and err.value.app_trans_id == first.app_trans_id


def test_code_used_by_another_terminal_is_declined_by_the_service(
        settings: Settings, emulator: Any, tmp_path: Any) -> None:
    code = wallet_code(emulator, "an")
    with open_checkout(settings) as co:
        assert co.pay(5_000, code).state is S.SUCCEEDED
    other = settings.replace_section("terminal", journal=tmp_path / "other.sqlite3")
    with open_checkout(other) as co:
        view = co.pay(5_000, code)
    assert view.state is S.FAILED and -322 in (view.return_code, view.sub_return_code)
    assert ledger(emulator)["balances"]["an"] == BALANCES["an"] - 5_000


def test_duplicate_app_trans_id_answer_is_queried_not_failed(settings: Settings,
                                                             emulator: Any) -> None:
    """-68 means the order exists: the terminal queries it and takes the real outcome."""
    with WalletClient(settings.service) as client, Journal.open(
            settings.terminal.journal) as journal:
        now = journal.now()
        order = QuickPayOrder(app_trans_id=new_app_trans_id("t", now), app_user="u",
                              app_time=now, amount=7_000)
        view = journal.record_intent(app_trans_id=order.app_trans_id, amount=7_000,
                                     generation="v2", payment_code="x")
        first = client.quick_pay(order, wallet_code(emulator, "an"))
        assert first.outcome is AnswerStatus.SUCCEEDED
        again = client.quick_pay(order, wallet_code(emulator, "binh"))
        assert again.duplicate
        view = apply_payment_result(
            journal, view, charge_answer(again, from_query=False), from_query=False,
            not_found_grace_s=0)
        assert view.state is S.UNKNOWN
    with open_checkout(settings) as co:
        assert co.follow(view.app_trans_id, deadline_s=5).state is S.SUCCEEDED
    assert len(charged(emulator, order.app_trans_id)) == 1


def test_an_answer_about_another_payment_is_never_applied(settings: Settings) -> None:
    with Journal.open(settings.terminal.journal) as journal:
        view = journal.record_intent(app_trans_id="261121_t_mine", amount=7_000,
                                     generation="v2", payment_code="x")
        other = PaymentResult(app_trans_id="261121_t_other", outcome=AnswerStatus.SUCCEEDED,
                              return_code=1, sub_return_code=1, message="ok",
                              why=Reason.text("paid"), zp_trans_id="5", amount=7_000,
                              is_processing=False, raw={})
        after = apply_payment_result(
            journal, view, charge_answer(other, from_query=True), from_query=True,
            not_found_grace_s=0)
        assert after.state is S.UNKNOWN and after.zp_trans_id is None
        assert after.message.startswith("An answer about another payment (261121_t_other)")


def test_not_found_waits_for_the_grace_period(settings: Settings, emulator: Any) -> None:
    """A dropped request never reached the service: FAILED only once the grace has passed."""
    settings = settings.replace_section("checkout", not_found_grace_s=0.5)
    add_fault(emulator, endpoint="quick_pay", mode="drop")
    with open_checkout(settings) as co:
        seen: list[str] = []
        view = co.pay(5_000, wallet_code(emulator, "an"),
                      on_progress=lambda v: seen.append(v.state.value))
        assert view.state is S.FAILED and view.why == NEVER_ARRIVED
        assert "unknown" in seen
        assert _path(co, view) == [("new", "submitting"), ("submitting", "unknown"),
                                   ("unknown", "failed")]
        age = view.updated_ms - (view.submitted_ms or 0)
        assert age >= 500
    assert ledger(emulator)["charges"] == []


def test_a_stale_answer_from_another_process_keeps_the_settled_state(
        settings: Settings, emulator: Any) -> None:
    with open_checkout(settings) as first:
        view = first.pay(5_000, wallet_code(emulator, "binh"), deadline_s=0.01)
        assert view.state is S.PROCESSING
        with open_checkout(settings) as second:  # its own connection, like another process
            assert second.follow(view.app_trans_id, deadline_s=5).state is S.SUCCEEDED
        late = PaymentResult(app_trans_id=view.app_trans_id, outcome=AnswerStatus.PROCESSING,
                             return_code=3, sub_return_code=3, message="processing",
                             why=Reason.text("still processing"), zp_trans_id=None,
                             amount=5_000, is_processing=True, raw={})
        after = apply_payment_result(
            first.journal, view, charge_answer(late, from_query=True), from_query=True,
            not_found_grace_s=0)
        assert after.state is S.SUCCEEDED
        assert [e.to_state for e in first.journal.events(view.app_trans_id)] == [
            "submitting", "processing", "succeeded"]
