"""The wallet classifies its own return codes into the vocabulary the checkout acts on."""

from __future__ import annotations

import pytest

from pos_terminal.wallet import answers
from pos_terminal.wallet.results import WalletOutcome
from pos_terminal.wallet.returncodes import deciding_code, never_arrived

W = WalletOutcome
ID = "261121_1_a"


@pytest.mark.parametrize(("rc", "sub", "code"), [
    (1, 1, 1), (3, 3, 3), (2, -63, -63), (2, None, 2), (-401, None, -401), (-2, -429, -429),
    (1, -63, 1),  # a success never takes a failure's detail: answer_checks flags it instead
    (3, -101, 3),  # nor does "processing"
])
def test_one_rule_for_the_deciding_code(rc: int, sub: int | None, code: int) -> None:
    assert deciding_code(rc, sub) == code


@pytest.mark.parametrize(("answer", "sent", "queried"), [
    ({"return_code": 1, "sub_return_code": 1, "zp_trans_id": 7}, W.PAID, W.PAID),
    ({"return_code": 3, "sub_return_code": 3, "is_processing": True}, W.PROCESSING,
     W.PROCESSING),
    ({"return_code": 2, "sub_return_code": -68}, W.PROCESSING, W.PROCESSING),
    ({"return_code": 2, "sub_return_code": -101}, W.NOT_FOUND, W.NOT_FOUND),
    ({"return_code": 2, "sub_return_code": -63}, W.DECLINED, W.DECLINED),
    ({"return_code": 2, "sub_return_code": -429}, W.DECLINED, W.REFUSED_REQUEST),
    ({"return_code": 2, "sub_return_code": -500}, W.UNKNOWN, W.REFUSED_REQUEST),
    ({"return_code": 2, "sub_return_code": -999}, W.DECLINED, W.REFUSED_REQUEST),
])
def test_what_a_payment_answer_means(answer: dict[str, object], sent: WalletOutcome,
                                     queried: WalletOutcome) -> None:
    result = answers.payment_result({"app_trans_id": ID, **answer}, "v2", ID)
    assert result.meaning(from_query=False) is sent
    assert result.meaning(from_query=True) is queried


def test_a_refund_refused_at_sending_moved_no_money() -> None:
    result = answers.refund_result({"return_code": 2, "sub_return_code": -500}, "v2", ID)
    assert result.meaning(from_query=False) is W.DECLINED
    assert result.meaning(from_query=True) is W.REFUSED_REQUEST


@pytest.mark.parametrize(("rc", "sub", "never"), [
    (-101, None, True), (2, -101, True), (2, -63, False), (None, None, False), (1, 1, False)])
def test_never_arrived_reads_a_journal_rows_codes(rc: int | None, sub: int | None,
                                                  never: bool) -> None:
    assert never_arrived(rc, sub) is never
