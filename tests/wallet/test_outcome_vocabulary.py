"""The wallet classifies its own return codes into the vocabulary the checkout acts on."""

from __future__ import annotations

import pytest

from pos_terminal.wallets.code_table import Operation
from pos_terminal.wallets.zalopay import answers
from pos_terminal.wallets.zalopay.results import WalletOutcome
from pos_terminal.wallets.zalopay.returncodes import deciding_code, never_arrived

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
    ({"return_code": 2, "sub_return_code": -322}, W.DECLINED, W.DECLINED),
    # Issue 29: a refusal for the request's own sake says nothing about the payment; after a
    # system error on a send, the charge may have happened.
    ({"return_code": 2, "sub_return_code": -429}, W.REFUSED_REQUEST, W.REFUSED_REQUEST),
    ({"return_code": 2, "sub_return_code": -500}, W.UNKNOWN, W.REFUSED_REQUEST),
    ({"return_code": 2, "sub_return_code": -301}, W.UNKNOWN, W.REFUSED_REQUEST),
    ({"return_code": 2, "sub_return_code": -135}, W.UNKNOWN, W.REFUSED_REQUEST),
    ({"return_code": 2, "sub_return_code": -32}, W.UNKNOWN, W.REFUSED_REQUEST),
    ({"return_code": 2, "sub_return_code": -999}, W.REFUSED_REQUEST, W.REFUSED_REQUEST),
    ({"return_code": 2, "sub_return_code": -777}, W.REFUSED_REQUEST, W.REFUSED_REQUEST),
    ({"return_code": 2}, W.REFUSED_REQUEST, W.REFUSED_REQUEST),
    ({"return_code": -405}, W.DECLINED, W.REFUSED_REQUEST),
    ({"return_code": 406}, W.REFUSED_REQUEST, W.REFUSED_REQUEST),
    ({"return_code": 7}, W.REFUSED_REQUEST, W.REFUSED_REQUEST),
])
def test_what_a_payment_answer_means(answer: dict[str, object], sent: WalletOutcome,
                                     queried: WalletOutcome) -> None:
    def meaning(operation: Operation) -> WalletOutcome:
        return answers.payment_result({"app_trans_id": ID, **answer}, "v2", ID,
                                      operation=operation).meaning
    assert meaning(Operation.QUICK_PAY) is sent
    assert meaning(Operation.STATUS) is queried


def test_a_refund_answer_means_what_the_table_says() -> None:
    def meaning(answer: dict[str, object], operation: Operation) -> WalletOutcome:
        return answers.refund_result(answer, "v2", ID, operation=operation).meaning
    refused = {"return_code": 2, "sub_return_code": -401}
    system_error = {"return_code": 2, "sub_return_code": -500}
    assert meaning(refused, Operation.REFUND) is W.DECLINED  # refused: no money moved
    assert meaning(system_error, Operation.REFUND) is W.UNKNOWN  # it may have been made
    assert meaning(system_error, Operation.REFUND_STATUS) is W.REFUSED_REQUEST
    assert meaning({"return_code": 2, "sub_return_code": -101},
                   Operation.REFUND_STATUS) is W.REFUSED_REQUEST


@pytest.mark.parametrize(("rc", "sub", "never"), [
    (-101, None, True), (2, -101, True), (2, -63, False), (None, None, False), (1, 1, False)])
def test_never_arrived_reads_a_journal_rows_codes(rc: int | None, sub: int | None,
                                                  never: bool) -> None:
    assert never_arrived(rc, sub) is never
