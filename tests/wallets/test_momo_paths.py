"""Every MoMo path through the checkout, against the emulator over real HTTP: paid, processing
then paid, declined, limits checked before sending, a lost answer then the status query, a code
that says nothing, partial refunds and their status."""

from __future__ import annotations

from typing import Any

import pytest

from pos_terminal.checkout import Checkout
from pos_terminal.journal import Journal, PaymentState, RefundState
from pos_terminal.wallets.momo.fields import MomoFieldError
from tests.wallets.conftest import add_fault

S = PaymentState


def _code(emulator: Any, customer: str) -> str:
    code: str = emulator.control.momo_code(customer)
    return code


def test_paid_at_once(checkout: Checkout, emulator: Any, momo: Any) -> None:
    view = checkout.pay(45_000, _code(emulator, "momo-paid"), description="Cà phê sữa")
    assert view.state is S.SUCCEEDED and view.why.code == "paid"
    order = momo.orders[view.app_trans_id]
    assert (order.status, order.amount, str(order.trans_id)) == ("paid", 45_000, view.zp_trans_id)
    assert view.generation == "momo-pos-v2"


def test_processing_then_paid(checkout: Checkout, emulator: Any, momo: Any) -> None:
    momo.processing_s = 0.5
    seen: list[PaymentState] = []
    view = checkout.pay(30_000, _code(emulator, "momo-slow"),
                        on_progress=lambda v: seen.append(v.state))
    assert S.PROCESSING in seen
    assert view.state is S.SUCCEEDED
    assert momo.requests["query"] >= 1


def test_declined_for_balance_is_final(checkout: Checkout, emulator: Any, momo: Any) -> None:
    view = checkout.pay(30_000, _code(emulator, "momo-poor"))
    assert view.state is S.FAILED and view.why.code == "declined.balance"
    assert view.return_code == 1001
    assert momo.balances["momo-poor"] == 0


@pytest.mark.parametrize("amount", [999, 5_000_001])
def test_amounts_outside_momo_s_limits_are_refused_before_anything_is_sent(
        checkout: Checkout, emulator: Any, momo: Any, amount: int) -> None:
    with pytest.raises(MomoFieldError) as refused:
        checkout.pay(amount, _code(emulator, "momo-paid"))
    reason = refused.value.why
    assert reason.code == "wallet.amount_out_of_range"
    assert (reason.params["minimum"], reason.params["maximum"]) == (1_000, 5_000_000)
    from pos_terminal.sentences import render

    assert "1.000" in render(reason, "en") and "5.000.000" in render(reason, "en")
    assert "giới hạn" in render(reason, "vi")
    assert momo.requests["pay"] == 0 and checkout.journal.pending_count() == 0
    assert not checkout.journal.payments_with_code(_code(emulator, "momo-paid"))


def test_lost_answer_then_the_status_query_settles_it_once(
        checkout: Checkout, emulator: Any, momo: Any) -> None:
    add_fault(emulator, endpoint="momo_pay", mode="drop_after_commit")
    states: list[PaymentState] = []
    view = checkout.pay(52_000, _code(emulator, "momo-paid"),
                        on_progress=lambda v: states.append(v.state))
    assert S.UNKNOWN in states  # the answer was lost: unknown, never "failed"
    assert view.state is S.SUCCEEDED
    assert len(momo.orders) == 1 and momo.requests["pay"] == 1
    assert momo.balances["momo-paid"] == 50_000_000 - 52_000


def test_a_code_that_says_nothing_never_fails_the_payment(
        checkout: Checkout, emulator: Any, momo: Any) -> None:
    """The send is answered 1234 (no row of MoMo's table): no information; the status query
    then finds no order, and only that (after the grace period) concludes "never arrived"."""
    add_fault(emulator, endpoint="momo_pay", mode="refuse", return_code=1234)
    states: list[tuple[PaymentState, str]] = []
    view = checkout.pay(20_000, _code(emulator, "momo-paid"),
                        on_progress=lambda v: states.append((v.state, v.why.code)))
    assert states[1] == (S.UNKNOWN, "unknown.query_refused")
    assert view.state is S.FAILED and view.why.code == "not_sent.never_arrived"


def test_maintenance_on_the_status_query_keeps_asking(
        checkout: Checkout, emulator: Any, momo: Any) -> None:
    momo.processing_s = 3600.0
    add_fault(emulator, endpoint="momo_query", mode="refuse", return_code=10, count=0)
    view = checkout.pay(20_000, _code(emulator, "momo-slow"), deadline_s=0.5)
    assert view.state is S.PROCESSING  # still open: asked again later, never "not paid"
    emulator.control.clear_faults()
    momo.processing_s = 0.0
    for order in momo.orders.values():
        order.ready_at = 0.0
    assert checkout.follow(view.app_trans_id, deadline_s=10).state is S.SUCCEEDED


def test_partial_refunds_then_the_rest(checkout: Checkout, emulator: Any, momo: Any) -> None:
    paid = checkout.pay(100_000, _code(emulator, "momo-paid"))
    first = checkout.refund(paid.app_trans_id, 30_000)
    second = checkout.refund(paid.app_trans_id, 20_000)
    assert first.state is RefundState.REFUNDED and second.state is RefundState.REFUNDED
    assert first.m_refund_id != second.m_refund_id != paid.app_trans_id
    order = momo.orders[paid.app_trans_id]
    assert [r["amount"] for r in order.refunds] == [30_000, 20_000]
    assert [r["orderId"] for r in order.refunds] == [first.m_refund_id, second.m_refund_id]
    rest = checkout.refund(paid.app_trans_id)
    assert rest.state is RefundState.REFUNDED and rest.amount == 50_000
    assert checkout.journal.get(paid.app_trans_id).state is S.REFUNDED
    assert momo.balances["momo-paid"] == 50_000_000


def test_a_refund_below_momo_s_minimum_is_refused_before_sending(
        checkout: Checkout, emulator: Any, momo: Any) -> None:
    paid = checkout.pay(10_000, _code(emulator, "momo-paid"))
    with pytest.raises(MomoFieldError) as refused:
        checkout.refund(paid.app_trans_id, 500)
    assert refused.value.why.code == "wallet.amount_out_of_range"
    assert refused.value.why.params["call"] == "refund"
    journal = checkout.journal
    assert isinstance(journal, Journal)
    assert momo.requests["refund"] == 0 and journal.refunds(paid.app_trans_id) == []


def test_refund_status_from_the_payment_s_refund_list(
        checkout: Checkout, emulator: Any, momo: Any) -> None:
    paid = checkout.pay(80_000, _code(emulator, "momo-paid"))
    add_fault(emulator, endpoint="momo_refund", mode="drop_after_commit")
    refund = checkout.refund(paid.app_trans_id, 25_000, deadline_s=0.0)
    assert refund.state is RefundState.REFUNDING  # its answer was lost
    done = checkout.refund_status(refund.m_refund_id)
    assert done.state is RefundState.REFUNDED and done.why.code == "refund.done"
    assert len(momo.orders[paid.app_trans_id].refunds) == 1  # refunded once


def test_the_service_check_is_a_signed_query(checkout: Checkout) -> None:
    state, detail = checkout.client.check_service("POS01-probe")
    assert state.value == "ok", detail


@pytest.mark.parametrize("code", [1006, 4100])
def test_a_final_decline_ends_the_payment_at_once_naming_momo_s_reason(
        checkout: Checkout, emulator: Any, momo: Any, code: int) -> None:
    """A final code of MoMo's table (here "the customer declined to confirm") is a verdict:
    declined at once, in the cashier's language; never "unknown, do not charge again"."""
    from pos_terminal.sentences import render

    add_fault(emulator, endpoint="momo_pay", mode="refuse", return_code=code)
    view = checkout.pay(20_000, _code(emulator, "momo-paid"), deadline_s=30)
    assert view.state is S.FAILED and view.why.code == "declined.code"
    assert view.return_code == code and view.polls == 0  # no status query was needed
    if code == 1006:
        assert "declined to confirm" in render(view.why, "en")
        assert "từ chối xác nhận" in render(view.why, "vi")
        assert "declined" not in render(view.why, "vi")


def test_a_final_decline_on_the_status_query_ends_it_too(
        checkout: Checkout, emulator: Any, momo: Any) -> None:
    momo.processing_s = 3600.0
    add_fault(emulator, endpoint="momo_query", mode="refuse", return_code=1005)
    view = checkout.pay(20_000, _code(emulator, "momo-slow"), deadline_s=30)
    assert view.state is S.FAILED and view.return_code == 1005
    assert "hết hạn" in view.why.params["detail_vi"]


def test_a_refund_answered_1088_is_refused_at_once(
        checkout: Checkout, emulator: Any, momo: Any) -> None:
    from pos_terminal.sentences import render

    paid = checkout.pay(40_000, _code(emulator, "momo-paid"))
    add_fault(emulator, endpoint="momo_refund", mode="refuse", return_code=1088)
    refund = checkout.refund(paid.app_trans_id, 10_000, deadline_s=30)
    assert refund.state is RefundState.FAILED and refund.why.code == "refund.failed.code"
    assert "not eligible for a refund" in render(refund.why, "en")
    assert "không đủ điều kiện hoàn tiền" in render(refund.why, "vi")
    assert "never reached" not in render(refund.why, "en")
    assert checkout.journal.get(paid.app_trans_id).state is S.SUCCEEDED
