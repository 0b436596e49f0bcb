"""MoMo's two-step flow (auto_capture = false) against the emulator: an authorised payment is
captured by the terminal (capture_sent journaled before it leaves, repeated safely), and a
payment the cashier gives up on is cancelled, its held money back with the customer at once."""

from __future__ import annotations

import sqlite3
from typing import Any

from pos_terminal.checkout import Checkout
from pos_terminal.journal import PaymentState
from tests.wallets.conftest import add_fault

S = PaymentState


def _event_codes(path: Any, app_trans_id: str) -> list[str]:
    raw = sqlite3.connect(path)
    try:
        rows = raw.execute("SELECT message FROM events WHERE app_trans_id = ? ORDER BY id",
                           (app_trans_id,)).fetchall()
    finally:
        raw.close()
    import json

    return [json.loads(m)["reason"] if m.startswith("{") else m for (m,) in rows]


def test_an_authorised_payment_is_captured(two_step: Checkout, emulator: Any, momo: Any,
                                           settings: Any) -> None:
    view = two_step.pay(61_000, emulator.control.momo_code("momo-paid"))
    assert view.state is S.SUCCEEDED
    order = momo.orders[view.app_trans_id]
    assert order.status == "paid" and not order.auto_capture
    assert momo.requests["confirm"] == 1
    codes = _event_codes(settings.terminal.journal, view.app_trans_id)
    # held, then the capture recorded BEFORE it was sent, then paid
    assert codes.index("two_step.authorised") < codes.index("two_step.capturing") < (
        codes.index("paid"))


def test_a_lost_capture_answer_is_settled_by_the_status_query(
        two_step: Checkout, emulator: Any, momo: Any) -> None:
    add_fault(emulator, endpoint="momo_confirm", mode="drop_after_commit")
    view = two_step.pay(33_000, emulator.control.momo_code("momo-paid"))
    assert view.state is S.SUCCEEDED
    assert momo.balances["momo-paid"] == 50_000_000 - 33_000  # taken once


def test_a_capture_that_never_arrived_is_sent_again_as_the_same_request(
        two_step: Checkout, emulator: Any, momo: Any) -> None:
    add_fault(emulator, endpoint="momo_confirm", mode="drop")  # lost before MoMo saw it
    view = two_step.pay(34_000, emulator.control.momo_code("momo-paid"))
    assert view.state is S.SUCCEEDED
    captures = [key for key in momo.answers if key[0] == "confirm"]
    assert captures == [("confirm", f"{view.app_trans_id}-capture")]  # one requestId, always
    assert momo.balances["momo-paid"] == 50_000_000 - 34_000


def test_held_then_captured_by_the_terminal_for_the_hold_customer(
        two_step: Checkout, emulator: Any, momo: Any) -> None:
    view = two_step.pay(70_000, emulator.control.momo_code("momo-hold"))
    assert view.state is S.SUCCEEDED and momo.orders[view.app_trans_id].status == "paid"


def test_giving_up_cancels_the_held_payment_never_refunds_it(
        two_step: Checkout, emulator: Any, momo: Any) -> None:
    momo.processing_s = 3600.0  # the customer has not confirmed in the app yet
    view = two_step.pay(40_000, emulator.control.momo_code("momo-slow"), deadline_s=0.3)
    assert view.state is S.PROCESSING
    gave_up = two_step.abandon(view.app_trans_id)
    assert gave_up.state is S.PROCESSING and gave_up.abandoned  # asked once: not held yet
    for order in momo.orders.values():  # the customer confirms now: MoMo holds the money
        order.ready_at = 0.0
    two_step.reconcile()
    after = two_step.journal.get(view.app_trans_id)
    assert after.state is S.FAILED and after.why.code == "two_step.voided"
    order = momo.orders[view.app_trans_id]
    assert order.status == "cancelled" and order.refunds == []
    assert momo.balances["momo-slow"] == 50_000_000
    assert momo.requests["refund"] == 0
    assert [k for k in momo.answers if k[0] == "confirm"] == [
        ("confirm", f"{view.app_trans_id}-cancel")]


def test_giving_up_on_a_held_payment_cancels_it_at_once(
        two_step: Checkout, emulator: Any, momo: Any) -> None:
    """The capture could not reach MoMo; the cashier gives up: the one status query of giving
    up finds the money held and cancels it there and then."""
    add_fault(emulator, endpoint="momo_confirm", mode="drop", count=0)
    view = two_step.pay(42_000, emulator.control.momo_code("momo-paid"), deadline_s=0.3)
    assert view.state is S.PROCESSING and momo.orders[view.app_trans_id].status == "held"
    emulator.control.clear_faults()
    after = two_step.abandon(view.app_trans_id)
    assert after.state is S.FAILED and after.why.code == "two_step.voided"
    assert momo.orders[view.app_trans_id].status == "cancelled"
    assert momo.balances["momo-paid"] == 50_000_000


def test_money_held_for_a_payment_concluded_failed_goes_back(
        two_step: Checkout, emulator: Any, momo: Any) -> None:
    """Concluded "never reached MoMo", then MoMo holds its money after all (the request landed
    late): the next look at it releases the hold; the payment stays not paid."""
    from pos_terminal.emulator.momo.customers import CUSTOMERS
    from pos_terminal.emulator.momo.service import MomoOrder

    add_fault(emulator, endpoint="momo_pay", mode="drop")  # lost before MoMo saw it
    view = two_step.pay(26_000, emulator.control.momo_code("momo-paid"))
    assert view.state is S.FAILED and view.why.code == "not_sent.never_arrived"
    with momo.lock:  # the request reaches MoMo late: the money is held
        order = MomoOrder(view.app_trans_id, CUSTOMERS[0], 26_000, 4_100_000_001, False,
                          "held", 9000)
        momo.orders[order.order_id] = order
        momo.by_trans[order.trans_id] = order
    after = two_step.status(view.app_trans_id)
    assert after.state is S.FAILED
    assert order.status == "cancelled" and momo.balances["momo-paid"] == 50_000_000


def test_a_capture_answered_for_another_amount_is_left_for_a_person(
        two_step: Checkout, emulator: Any, momo: Any) -> None:
    add_fault(emulator, endpoint="momo_confirm", mode="answer_amount")
    view = two_step.pay(27_000, emulator.control.momo_code("momo-paid"))
    assert view.state is S.PROCESSING and view.needs_review  # never shown as paid


def test_a_payment_answer_about_another_order_is_never_applied(
        checkout: Checkout, emulator: Any, momo: Any) -> None:
    add_fault(emulator, endpoint="momo_pay", mode="answer_other_id")
    view = checkout.pay(28_000, emulator.control.momo_code("momo-paid"))
    assert view.needs_review and view.state is S.UNKNOWN  # a person checks; never "failed"
