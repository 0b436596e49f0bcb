"""The journal refuses a refund with a reason, not an English sentence (issue 22 item 1): the
code and the sums it was refused on, rendered by pos_terminal.sentences in the language shown."""

from __future__ import annotations

from pathlib import Path

import pytest

from pos_terminal.base.reasons import render
from pos_terminal.journal import (
    AlreadyReturned,
    IllegalTransition,
    Journal,
    PaymentState,
    RefundNotAllowed,
    RefundState,
)

PAYMENT = "261121_t1_a"


@pytest.fixture
def journal(tmp_path: Path):
    j = Journal.open(tmp_path / "j.sqlite3")
    j.record_intent(app_trans_id=PAYMENT, amount=50_000, generation="v2", description="tea",
                    payment_code="123456789012345678", payload_hash="ab" * 32,
                    message="sending")
    yield j
    j.close()


def _refund(j: Journal, m_refund_id: str, amount: int | None, **kw: object):
    return j.record_refund_intent(m_refund_id=m_refund_id, app_trans_id=PAYMENT, amount=amount,
                                  description="", request_ms=1, **kw)  # type: ignore[arg-type]


def test_a_refund_refused_by_the_journal_says_why_in_both_languages(journal: Journal) -> None:
    with pytest.raises(RefundNotAllowed) as not_paid:
        _refund(journal, "r0", 1)
    assert not_paid.value.code == "refund.not_allowed.state"
    assert not_paid.value.why.params == {"app_trans_id": PAYMENT, "state": "submitting"}

    journal.transition(PAYMENT, PaymentState.SUCCEEDED, message="paid", zp_trans_id="9")
    _refund(journal, "r1", 30_000)
    with pytest.raises(RefundNotAllowed) as too_much:
        _refund(journal, "r2", 20_001)
    why = too_much.value.why
    assert why.code == "refund.more_than_left"
    assert (why.params["wanted"], why.params["left"], why.params["in_flight"]) == (
        20_001, 20_000, 30_000)
    assert render(why, "en") == (
        f"Cannot refund 20.001 ₫ on {PAYMENT}: only 20.000 ₫ is left (50.000 ₫ paid, "
        "0 ₫ refunded, 30.000 ₫ in progress).")
    assert render(why, "vi") == (
        f"Không thể hoàn 20.001 ₫ cho giao dịch {PAYMENT}: chỉ còn 20.000 ₫ (đã thanh toán "
        "50.000 ₫, đã hoàn 0 ₫, đang hoàn 30.000 ₫).")

    _refund(journal, "r3", 20_000, auto=True)
    with pytest.raises(AlreadyReturned) as twice:
        _refund(journal, "r4", None, auto=True)
    assert twice.value.code == "refund.already_returned"
    assert PAYMENT in render(twice.value.why, "vi")
    with pytest.raises(RefundNotAllowed) as nothing:
        _refund(journal, "r5", None)
    assert nothing.value.code == "refund.nothing_left"
    assert render(nothing.value.why, "en").endswith("(refunds still in progress count too).")
    assert "không còn gì để hoàn" in render(nothing.value.why, "vi")


def test_a_refund_moved_backwards_is_refused_with_a_reason(journal: Journal) -> None:
    journal.transition(PAYMENT, PaymentState.SUCCEEDED, message="paid", zp_trans_id="9")
    _refund(journal, "r1", 10_000)
    journal.refund_transition("r1", RefundState.REFUNDED, message="done")
    with pytest.raises(IllegalTransition) as back:
        journal.refund_transition("r1", RefundState.REFUNDING, message="again")
    assert back.value.code == "refund.illegal_move"
    assert render(back.value.why, "en") == "Refund r1 cannot go from refunded to refunding."
