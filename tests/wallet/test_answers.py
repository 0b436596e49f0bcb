"""Reading answers: one result for both generations; anything untrustworthy is "unreadable"."""

from __future__ import annotations

import pytest

from pos_terminal.wallets.errors import ServiceRefused, UnreadableAnswer
from pos_terminal.wallets.zalopay import answers
from pos_terminal.wallets.zalopay.results import AnswerStatus

ID = "241121_T1_1"


@pytest.mark.parametrize(
    ("answer", "outcome", "duplicate"),
    [
        ({"return_code": 1, "sub_return_code": 1, "zp_trans_id": 2411210001, "amount": 5000},
         AnswerStatus.SUCCEEDED, False),
        ({"return_code": 3, "sub_return_code": 3, "is_processing": True}, AnswerStatus.PROCESSING,
         False),
        ({"return_code": 2, "sub_return_code": -63}, AnswerStatus.FAILED, False),
        ({"return_code": 2, "sub_return_code": -101}, AnswerStatus.NOT_FOUND, False),
        ({"return_code": 2, "sub_return_code": -68}, AnswerStatus.PROCESSING, True),
        ({"return_code": -322}, AnswerStatus.FAILED, False),
    ],
)
def test_v2_outcomes(answer: dict[str, object], outcome: AnswerStatus, duplicate: bool) -> None:
    result = answers.payment_result(answer, "v2", ID)
    assert (result.outcome, result.duplicate, result.app_trans_id) == (outcome, duplicate, ID)


@pytest.mark.parametrize(
    ("answer", "outcome", "duplicate"),
    [
        ({"returncode": 1, "zptransid": "2411210001"}, AnswerStatus.SUCCEEDED, False),
        ({"returncode": 10, "isprocessing": True}, AnswerStatus.PROCESSING, False),
        ({"returncode": 0, "isprocessing": "true"}, AnswerStatus.PROCESSING, False),
        ({"returncode": -63, "isprocessing": False}, AnswerStatus.FAILED, False),
        # Issue 12: a positive legacy code that is neither success nor a documented failure
        # may be a charge in progress: status queries decide, never "failed".
        ({"returncode": 2}, AnswerStatus.PROCESSING, False),
        ({"returncode": 7}, AnswerStatus.PROCESSING, False),
        ({"returncode": -101}, AnswerStatus.NOT_FOUND, False),
        ({"returncode": -68}, AnswerStatus.PROCESSING, True),
    ],
)
def test_legacy_outcomes(answer: dict[str, object], outcome: AnswerStatus, duplicate: bool) -> None:
    result = answers.payment_result(answer, "v001", ID)
    assert (result.outcome, result.duplicate) == (outcome, duplicate)
    assert result.sub_return_code is None


def test_v2_success_fields() -> None:
    result = answers.payment_result(
        {"return_code": 1, "return_message": "Giao dịch thành công", "sub_return_code": 1,
         "sub_return_message": "", "zp_trans_id": 2411210001, "amount": 5000,
         "is_processing": False, "app_trans_id": ID}, "v2", ID)
    assert result.zp_trans_id == "2411210001"
    assert result.amount == 5000
    assert result.message == "Giao dịch thành công"
    assert str(result.why) == "Payment received. The sale is complete."
    assert not result.is_processing


def test_failure_message_prefers_the_detailed_one() -> None:
    result = answers.payment_result(
        {"return_code": 2, "return_message": "failed", "sub_return_code": -63,
         "sub_return_message": "insufficient balance", "zp_trans_id": 0}, "v2", ID)
    assert result.message == "insufficient balance"
    assert result.zp_trans_id is None
    assert str(result.why).startswith("The customer's wallet balance is too low.")


def test_an_answer_about_another_order_is_never_applied() -> None:
    with pytest.raises(UnreadableAnswer, match="instead of 241121_T1_1"):
        answers.payment_result({"return_code": 1, "app_trans_id": "241121_T1_2"}, "v2", ID)
    with pytest.raises(UnreadableAnswer):
        answers.payment_result({"returncode": 1, "apptransid": "241121_T1_2"}, "v001", ID)
    with pytest.raises(UnreadableAnswer):
        answers.refund_result({"return_code": 1, "m_refund_id": "x"}, "v2", "241121_2553_1")


@pytest.mark.parametrize(
    "answer",
    [{}, {"return_code": "abc"}, {"return_code": True},
     {"return_code": 1, "amount": "lots"}, {"return_code": 1, "is_processing": "maybe"}],
)
def test_missing_or_mistyped_fields_are_unreadable(answer: dict[str, object]) -> None:
    with pytest.raises(UnreadableAnswer):
        answers.payment_result(answer, "v2", ID)


@pytest.mark.parametrize(
    ("body", "says"),
    [(b"", "empty"), (b"<html><body>502 Bad Gateway</body></html>", "HTML"),
     (b'{"return_code": 1, "sub_re', "not valid JSON"), (b"\xff\xfe garbage", "not valid JSON"),
     (b"[1, 2]", "not an object")],
)
def test_bodies_that_are_not_a_json_object(body: bytes, says: str) -> None:
    with pytest.raises(UnreadableAnswer, match=says):
        answers.parse_json_body(body, 200)


def test_refund_outcomes() -> None:
    r = "241121_2553_1"
    assert answers.refund_result({"return_code": 1, "refund_id": 77}, "v2", r).refund_id == "77"
    assert answers.refund_result({"return_code": 3}, "v2", r).outcome is AnswerStatus.PROCESSING
    # Issue 29: -101 on a refund is "not found" in one published table and "refund succeeded"
    # in another, and -13 is not published: neither decides anything.
    assert answers.refund_result({"return_code": 2, "sub_return_code": -101}, "v2",
                                 r).outcome is AnswerStatus.UNDECIDED
    assert answers.refund_result({"return_code": 2, "sub_return_code": -13}, "v2",
                                 r).outcome is AnswerStatus.UNDECIDED
    assert answers.refund_result({"returncode": 1}, "v001", r).outcome is AnswerStatus.SUCCEEDED
    assert answers.refund_result({"returncode": 2}, "v001", r).outcome is AnswerStatus.PROCESSING
    assert answers.refund_result({"returncode": 0}, "v001", r).outcome is AnswerStatus.UNDECIDED
    assert answers.refund_result({"returncode": -101}, "v001", r).outcome is AnswerStatus.UNDECIDED


def test_bank_list_grouped_and_sorted() -> None:
    result = answers.bank_list({
        "returncode": 1, "returnmessage": "",
        "banks": {
            "39": [{"bankcode": "VCB", "name": "Vietcombank", "displayorder": 2, "pmcid": 39,
                    "minamount": 10000, "maxamount": 50000000},
                   {"bankcode": "VTB", "name": "Vietinbank", "displayorder": 1, "pmcid": 39,
                    "minamount": 10000, "maxamount": 50000000}],
            "38": [{"bankcode": "zalopayapp", "name": "Wallet", "displayorder": 1, "pmcid": 38,
                    "minamount": 1000, "maxamount": 100000000}],
        },
    })
    assert list(result.banks_by_pmcid) == [38, 39]
    assert [b.bankcode for b in result.banks_by_pmcid[39]] == ["VTB", "VCB"]
    assert result.banks_by_pmcid[38][0].maxamount == 100000000


def test_bank_list_refusal_and_garbage() -> None:
    with pytest.raises(ServiceRefused) as err:
        answers.bank_list({"returncode": -402, "returnmessage": "invalid mac"})
    assert err.value.return_code == -402
    with pytest.raises(UnreadableAnswer):
        answers.bank_list({"returncode": 1})
    with pytest.raises(UnreadableAnswer):
        answers.bank_list({"returncode": 1, "banks": {"38": [{"bankcode": "x"}]}})


def test_gateway_order() -> None:
    ok = answers.gateway_order_result(
        {"return_code": 1, "order_url": "https://gw/pay?token=t", "zp_trans_token": "t",
         "qr_code": "000201"}, "v2", ID)
    assert (ok.order_url, ok.zp_trans_token, ok.qr_code) == ("https://gw/pay?token=t", "t",
                                                             "000201")
    legacy = answers.gateway_order_result(
        {"returncode": 1, "orderurl": "https://gw/o", "zptranstoken": "z"}, "v001", ID)
    assert (legacy.order_url, legacy.zp_trans_token, legacy.qr_code) == ("https://gw/o", "z",
                                                                         None)
    with pytest.raises(ServiceRefused) as err:
        answers.gateway_order_result({"return_code": 2, "sub_return_code": -401}, "v2", ID)
    assert (err.value.return_code, err.value.sub_return_code) == (2, -401)
    with pytest.raises(UnreadableAnswer):
        answers.gateway_order_result({"return_code": 1}, "v2", ID)
