"""The Result screen's words come from the one outcome rule: a late charge is never "paid"
(it came after the sale was given up), money returned neither; an answer that did not fit its
order is neither paid nor "not paid"."""

from __future__ import annotations

from dataclasses import replace

from pos_terminal.base.reasons import Reason
from pos_terminal.checkout import PaymentState
from pos_terminal.tui.result_summary import ResultSummary
from tests.tui.scenes import success_view

S = PaymentState


def test_a_late_charge_is_not_paid_for_the_sale_and_says_so() -> None:
    view = replace(success_view(), late=True,
                   why=Reason.of("late.success", amount=50_000))
    outcome = ResultSummary.from_view(view)
    assert (outcome.success, outcome.headline) == (False, "CHARGED LATE: NOT FOR THIS SALE")
    assert outcome.lines[0].startswith("CHARGED LATE")
    abandoned = replace(success_view(), abandoned=True,
                        why=Reason.of("late.charged", amount=50_000))
    assert ResultSummary.from_view(abandoned).headline == "CHARGED LATE: NOT FOR THIS SALE"
    assert "sale is complete" not in ResultSummary.from_view(abandoned).lines[0]


def test_money_returned_is_never_paid() -> None:
    whole = success_view().amount
    returned = replace(success_view(), state=S.REFUNDED, abandoned=True, refunded_amount=whole,
                       why=Reason.of("late.returned", amount=whole))
    outcome = ResultSummary.from_view(returned)
    assert (outcome.success, outcome.headline) == (False, "CHARGED LATE, RETURNED")
    refunded = replace(success_view(), state=S.REFUNDED, refunded_amount=whole)
    assert ResultSummary.from_view(refunded).headline == "RETURNED TO THE CUSTOMER"
    assert not ResultSummary.from_view(refunded).success


def test_needs_review_is_neither_paid_nor_not_paid() -> None:
    view = replace(success_view(), state=S.UNKNOWN, needs_review=True,
                   why=Reason.text("The wallet service's answer does not fit this order: ..."))
    outcome = ResultSummary.from_view(view)
    assert (outcome.success, outcome.headline) == (False, "NEEDS REVIEW")
    assert outcome.lines[0] == view.message
