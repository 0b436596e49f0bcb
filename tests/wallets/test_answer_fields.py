"""Every JSON wallet reads its answers with the same readers (pos_terminal/wallets/answer_fields):
an answer to the terminal's own request that names no order is about that request, so a refusal
without an order id (MoMo's, ShopeePay's) is tied to its payment, never dropped."""

from __future__ import annotations

import pytest

from pos_terminal.base.wallet_errors import MismatchedAnswer, UnreadableAnswer
from pos_terminal.wallets.answer_fields import AnswerFields
from pos_terminal.wallets.momo.client import read_answer

FIELDS = AnswerFields("Kiwi")


def test_a_momo_refusal_naming_no_order_is_tied_to_the_order_asked_about() -> None:
    answer = read_answer({"resultCode": 1001, "message": "balance"}, "pos-17")
    assert answer.order_id == "pos-17" and answer.result_code == 1001


def test_an_answer_naming_another_order_is_mismatched() -> None:
    with pytest.raises(MismatchedAnswer, match="'pos-18', not 'pos-17'"):
        read_answer({"resultCode": 0, "orderId": "pos-18"}, "pos-17")


def test_the_readers_name_the_wallet_in_what_they_refuse() -> None:
    assert FIELDS.integer({"n": "42"}, "n") == 42 and FIELDS.integer({}, "n") is None
    with pytest.raises(UnreadableAnswer, match="Kiwi's answer has no errcode"):
        FIELDS.required_integer({}, "errcode")
    with pytest.raises(UnreadableAnswer, match="not a number"):
        FIELDS.integer({"n": True}, "n")
    assert FIELDS.text({"t": "a\x1bb"}, "t") != "a\x1bb"
    assert FIELDS.positive_id({"id": 0}, "id") is None
    assert FIELDS.positive_id({"id": 7}, "id") == "7"
