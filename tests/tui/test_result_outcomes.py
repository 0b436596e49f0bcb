"""The Result screen's words come from the one outcome rule: a late success is paid and says
so; an answer that did not fit its order is neither paid nor "not paid"."""

from __future__ import annotations

from dataclasses import replace

from pos_terminal.base.reasons import Reason
from pos_terminal.checkout import PaymentState
from pos_terminal.tui.result_summary import ResultSummary
from tests.tui.scenes import success_view

S = PaymentState


def test_a_late_success_is_paid_and_says_so() -> None:
    view = replace(success_view(), late=True,
                   why=Reason.of("late.success", amount=50_000))
    outcome = ResultSummary.from_view(view)
    assert (outcome.success, outcome.headline) == (True, "PAID (LATE)")
    assert outcome.lines[0].startswith("LATE SUCCESS")


def test_needs_review_is_neither_paid_nor_not_paid() -> None:
    view = replace(success_view(), state=S.UNKNOWN, needs_review=True,
                   why=Reason.text("The wallet service's answer does not fit this order: ..."))
    outcome = ResultSummary.from_view(view)
    assert (outcome.success, outcome.headline) == (False, "NEEDS REVIEW")
    assert outcome.lines[0] == view.message
