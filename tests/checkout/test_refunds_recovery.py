"""Refunds (full, partial, never more than what is left), recovery of old rows (flagged, never
guessed), manual overrides, and gateway orders, against the emulator with a real journal."""

from __future__ import annotations

from typing import Any

import pytest

from pos_terminal.checkout import Checkout, InvalidPayment, PaymentState, RefundState
from pos_terminal.checkout.recovery import too_old
from pos_terminal.config import Settings
from pos_terminal.journal import Journal, RefundNotAllowed
from tests.checkout.conftest import BALANCES, add_fault, ledger, wallet_code

S = PaymentState
HOUR_MS = 3_600_000


def test_partial_then_full_refund(any_settings: Settings, emulator: Any) -> None:
    with Checkout(any_settings) as co:
        paid = co.pay(50_000, wallet_code(emulator, "an"))
        part = co.refund(paid.app_trans_id, 20_000, "one tea returned")
        assert (part.state, part.amount) == (S.REFUNDED, 20_000)
        after_part = co.journal.get(paid.app_trans_id)
        assert (after_part.state, after_part.refunded_amount) == (S.SUCCEEDED, 20_000)
        with pytest.raises(RefundNotAllowed, match=r"only 30\.000 ₫ is left"):
            co.refund(paid.app_trans_id, 30_001)
        rest = co.refund(paid.app_trans_id)
        assert (rest.state, rest.amount) == (S.REFUNDED, 30_000)
        final = co.journal.get(paid.app_trans_id)
        assert (final.state, final.refunded_amount) == (S.REFUNDED, 50_000)
        with pytest.raises(RefundNotAllowed, match="only a succeeded payment"):
            co.refund(paid.app_trans_id, 1)
    book = ledger(emulator)
    assert sorted(r["amount"] for r in book["refunds"] if r["state"] == "succeeded"
                  or r["state"] == "refunded") == [20_000, 30_000]
    assert book["balances"]["an"] == BALANCES["an"]


def test_refund_of_a_failed_payment_and_bad_amounts_are_refused(settings: Settings,
                                                                emulator: Any) -> None:
    with Checkout(settings) as co:
        failed = co.pay(5_000, wallet_code(emulator, "dung"))
        with pytest.raises(RefundNotAllowed, match="is failed; only a succeeded payment"):
            co.refund(failed.app_trans_id)
        paid = co.pay(5_000, wallet_code(emulator, "an"))
        for bad in (0, -1):
            with pytest.raises(InvalidPayment, match="must be positive"):
                co.refund(paid.app_trans_id, bad)
    assert ledger(emulator)["requests"].get("refund", 0) == 0


def test_refund_with_a_lost_answer_is_resolved_by_the_refund_status(settings: Settings,
                                                                    emulator: Any) -> None:
    with Checkout(settings) as co:
        paid = co.pay(40_000, wallet_code(emulator, "an"))
        add_fault(emulator, endpoint="refund", mode="drop_after_commit")
        refund = co.refund(paid.app_trans_id, 10_000)
        assert refund.state is RefundState.REFUNDED
        events = [(e.from_state, e.to_state) for e in co.journal.events(paid.app_trans_id)
                  if e.m_refund_id]
        assert events == [("new", "refunding"), ("refunding", "refunded")]
    assert ledger(emulator)["requests"]["refund"] == 1


def test_refund_left_in_flight_is_settled_by_reconcile(settings: Settings,
                                                       emulator: Any) -> None:
    with Checkout(settings) as co:
        paid = co.pay(40_000, wallet_code(emulator, "an"))
        add_fault(emulator, endpoint="refund", mode="drop_after_commit")
        add_fault(emulator, endpoint="query_refund", mode="http500", count=0)
        refund = co.refund(paid.app_trans_id, 10_000, deadline_s=0.3)
        assert refund.state is RefundState.REFUNDING
        # In flight counts against what is left.
        with pytest.raises(RefundNotAllowed, match=r"only 30\.000 ₫ is left"):
            co.refund(paid.app_trans_id, 30_001)
    emulator.control.clear_faults()
    with Checkout(settings) as co:
        report = co.reconcile(wait_s=5)
        assert (report.refunds_checked, report.refunds_resolved) == (1, 1)
        assert co.journal.get_refund(refund.m_refund_id).state is RefundState.REFUNDED
        assert co.journal.get(paid.app_trans_id).refunded_amount == 10_000


def test_rows_too_old_to_query_are_flagged_not_guessed(settings: Settings,
                                                       emulator: Any) -> None:
    with Journal.open(settings.terminal.journal) as journal:
        old = journal.now() - 49 * HOUR_MS
        journal.record_intent(app_trans_id="261119_t_old", amount=8_000, generation="v2",
                              payment_code="123412341234123412", now=old)
    with Checkout(settings) as co:
        report = co.reconcile()
        assert (report.checked, report.resolved, report.still_open, report.flagged) == (1, 0, 1, 1)
        view = co.journal.get("261119_t_old")
        assert view.state is S.SUBMITTING and view.needs_review
        assert view.why == too_old(48)
        assert co.journal.events("261119_t_old")[-1].kind == "review"
        again = co.reconcile()
        assert again.flagged == 1 and len(co.journal.events("261119_t_old")) == 2
        settled = co.override("261119_t_old", S.FAILED, "portal has no such order", "lan")
        assert (settled.state, settled.needs_review) == (S.FAILED, False)
        assert settled.message == "Marked failed by hand by lan: portal has no such order"
        last = co.journal.events("261119_t_old")[-1]
        assert (last.kind, last.reason, last.who) == ("override", "portal has no such order",
                                                      "lan")
        assert co.pending_count() == 0
    assert ledger(emulator)["requests"].get("query", 0) == 0


def test_recover_at_start_resolves_rows_left_by_a_previous_run(settings: Settings,
                                                               emulator: Any) -> None:
    add_fault(emulator, endpoint="quick_pay", mode="drop_after_commit")
    add_fault(emulator, endpoint="query", mode="drop", count=0)
    with Checkout(settings) as co:
        lost = co.pay(6_000, wallet_code(emulator, "an"), deadline_s=0.3)
        assert lost.state is S.UNKNOWN
    emulator.control.clear_faults()
    with Checkout(settings) as co:
        report = co.recover()
        assert report.resolved == 1 and report.requests == 1
        assert co.journal.get(lost.app_trans_id).state is S.SUCCEEDED


def test_gateway_order_paid_and_cancelled(any_settings: Settings, emulator: Any) -> None:
    books = emulator.control.books
    with Checkout(any_settings) as co:
        order = co.create_gateway_order(25_000, "Show QR")
        assert order.state is S.PROCESSING and order.order_url
        assert co.journal.get(order.app_trans_id).kind == "gateway"
        assert co.follow(order.app_trans_id, deadline_s=0.2).state is S.PROCESSING
        books.pay_gateway_order(order.zp_trans_token, "an", 38, "")
        assert co.follow(order.app_trans_id, deadline_s=5).state is S.SUCCEEDED

        other = co.create_gateway_order(7_000, "Show QR")
        books.cancel_gateway_order(other.zp_trans_token)
        cancelled = co.follow(other.app_trans_id, deadline_s=5)
        assert cancelled.state is S.FAILED and -329 in (cancelled.return_code,
                                                        cancelled.sub_return_code)
