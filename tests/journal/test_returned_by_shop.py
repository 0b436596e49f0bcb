"""Money the shop returned by its own bank transfer (a wallet with no refund: payOS), recorded
by a person: `Journal.record_returned_by_shop` writes the refund row born and settled in one
transaction (never left REFUNDING for a status query no wallet can answer), its move an
`override` event with the reason and who decided; the whole amount returns the payment."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from pos_terminal.base.reasons import Reason
from pos_terminal.journal import IllegalTransition, Journal, PaymentState, RefundState
from pos_terminal.journal.machine import Answer
from pos_terminal.journal.states import RefundEvent

SAID = Reason.of("refund.by_shop", wallet="payOS", amount=10_000, who="boss", reason="VCB 1")


@pytest.fixture
def journal(tmp_path: Path) -> Journal:
    j = Journal.open(tmp_path / "j.sqlite3")
    yield j
    j.close()


def _paid_late_left_for_review(journal: Journal) -> str:
    journal.record_intent(app_trans_id="1795000000000123", amount=10_000, generation="v2",
                          kind="gateway", provider="payos")
    journal.transition("1795000000000123", PaymentState.FAILED, message="closed")
    journal.record_late_success("1795000000000123", message="late", return_code=0,
                                sub_return_code=None, service_message="PAID",
                                zp_trans_id="payos-id")
    journal.flag_answer("1795000000000123", "left for review")
    return "1795000000000123"


def _returned(journal: Journal, key: str, amount: int | None, reason: str = "VCB 1"):
    return journal.record_returned_by_shop(
        m_refund_id=f"{key}R{amount}", app_trans_id=key, amount=amount, description=reason,
        message=SAID, reason=reason, who="boss", authorised_by="boss")


def test_the_whole_amount_returns_the_payment_in_one_write(journal: Journal) -> None:
    key = _paid_late_left_for_review(journal)
    refund = _returned(journal, key, None)
    assert (refund.state, refund.amount, refund.refund_id, refund.auto) == (
        RefundState.REFUNDED, 10_000, None, False)
    payment = journal.get(key)
    assert (payment.state, payment.refunded_amount, payment.needs_review) == (
        PaymentState.REFUNDED, 10_000, False)
    assert payment.why == SAID  # "returned by the shop", never "refunded by payOS"
    events = [e for e in journal.events(key) if e.m_refund_id == refund.m_refund_id]
    assert [(e.kind, e.to_state, e.reason, e.who) for e in events] == [
        ("transition", "refunding", None, None), ("override", "refunded", "VCB 1", "boss"),
        ("transition", "refunded", None, None)]


def test_part_of_it_keeps_the_payment_succeeded(journal: Journal) -> None:
    key = _paid_late_left_for_review(journal)
    _returned(journal, key, 4_000)
    payment = journal.get(key)
    assert (payment.state, payment.refunded_amount) == (PaymentState.SUCCEEDED, 4_000)


@pytest.mark.parametrize(("reason", "who"), [(" ", "boss"), ("VCB 1", "")])
def test_without_a_reason_or_a_name_nothing_is_recorded(journal: Journal, reason: str,
                                                        who: str) -> None:
    key = _paid_late_left_for_review(journal)
    with pytest.raises(IllegalTransition):
        journal.record_returned_by_shop(m_refund_id="r", app_trans_id=key, amount=None,
                                        description="", message=SAID, reason=reason, who=who)
    assert journal.refunds(key) == [] and journal.get(key).state is PaymentState.SUCCEEDED


def test_apply_names_its_own_writer(journal: Journal) -> None:
    key = _paid_late_left_for_review(journal)
    refund = journal.record_refund_intent(m_refund_id="r1", app_trans_id=key, amount=1_000,
                                          description="", request_ms=1)
    with pytest.raises(IllegalTransition, match="record_returned_by_shop"):
        journal.apply(refund, RefundEvent.BY_SHOP, Answer(), message="x")
    assert journal.get_refund("r1").state is RefundState.REFUNDING


def test_a_crash_inside_the_write_leaves_nothing(journal: Journal, tmp_path: Path) -> None:
    """One transaction: a refund row the database refuses half-way leaves no REFUNDING row."""
    key = _paid_late_left_for_review(journal)
    raw = sqlite3.connect(journal.path, isolation_level=None)
    raw.execute("CREATE TRIGGER refuse_settle BEFORE UPDATE OF state ON refunds "
                "BEGIN SELECT RAISE(ABORT, 'disk gone'); END")
    raw.close()
    with pytest.raises(Exception, match="disk gone"):
        _returned(journal, key, None)
    assert journal.refunds(key) == []
    assert journal.get(key).refunded_amount == 0
