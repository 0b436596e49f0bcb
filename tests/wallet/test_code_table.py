"""Issue 29: ZaloPay's code table as data, and every row read back through the client's parsing.

Each row: its answer on the wire (both generations) reads as the table's class, for the call it
answers; its reason words it in English and Vietnamese; a row that decides nothing says "still
checking". A code the table does not hold is no_information. docs/protocol.md holds the table.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from pos_terminal.base.i18n import set_language
from pos_terminal.wallets.code_table import CodeClass, CodeRow, Operation
from pos_terminal.wallets.zalopay import answers
from pos_terminal.wallets.zalopay.code_table import (
    ERRORS_V1,
    STATUS_CODES,
    TABLES,
    ZLP_ORDER_CREATE,
    ZLP_ORDER_QUERY,
    ZLP_REFUND_QUERY,
    classify,
    markdown_table,
)
from pos_terminal.wallets.zalopay.results import MEANINGS

Op = Operation
DOCS = Path(__file__).resolve().parents[2] / "docs" / "protocol.md"
ID = "261128_T1_1"
REFUND_ID = "261128_2553_1"
UNDECIDING = (CodeClass.NO_INFORMATION, CodeClass.MAY_HAVE_CHARGED)


def wire_answer(generation: str, row: CodeRow) -> dict[str, object]:
    if generation == "v001":
        return {"returncode": row.code, "returnmessage": "m"}
    answer: dict[str, object] = {"return_code": row.code, "return_message": "m"}
    if row.sub_code is not None:
        answer["sub_return_code"] = row.sub_code
    return answer


def check_row(generation: str, row: CodeRow) -> None:
    assert row.published
    assert row.source in (ZLP_ORDER_QUERY, ZLP_REFUND_QUERY, ZLP_ORDER_CREATE, STATUS_CODES,
                          ERRORS_V1)
    assert row.meaning_en and row.meaning_vi
    if row.operation not in (Op.QUICK_PAY, Op.STATUS, Op.REFUND, Op.REFUND_STATUS):
        return
    answer = wire_answer(generation, row)
    if row.operation in (Op.QUICK_PAY, Op.STATUS):
        result = answers.payment_result(answer, generation, ID, operation=row.operation)
        again = "do not charge again"
    else:
        result = answers.refund_result(answer, generation, REFUND_ID, operation=row.operation)
        again = "do not refund again"
    assert (result.cls, result.meaning) == (row.cls, MEANINGS[row.cls])
    english = str(result.why)
    set_language("vi")
    vietnamese = str(result.why)
    set_language("en")
    assert english and vietnamese and english != vietnamese
    if row.cls in UNDECIDING:
        assert "still checking" in english and again in english, english
        assert "lần nữa" in vietnamese, vietnamese
        assert "failed" not in english and "not charged" not in english


@pytest.mark.parametrize("generation", ["v2", "v001"])
def test_every_row_reads_as_its_class_in_both_languages(generation: str) -> None:
    """Every row of the table: its answer on the wire reads as its class for its call, with
    its public source, its meanings, and a reason worded in English and Vietnamese."""
    for row in TABLES[generation]:
        try:
            check_row(generation, row)
        except AssertionError as exc:
            raise AssertionError(f"{generation} {row}: {exc}") from exc


def test_the_spec_status_codes_are_all_in_the_table() -> None:
    # zlp.yaml's OrderQueryResponse / RefundQueryResponse lists (zalopay-oss/zalopay-nodejs).
    for operation in (Op.STATUS, Op.REFUND_STATUS):
        for code in (1, 3, -500, -429, 406, -405, -403, -402, -401):
            assert classify("v2", operation, code, None).published, (operation, code)
        for sub in (-32, -33, -34, -35, -43, -88, -101, -135, -301, -322, -329):
            assert classify("v2", operation, 2, sub).published, (operation, sub)


@pytest.mark.parametrize(("operation", "code", "sub", "cls"), [
    # The issue's rows: what a refused status query proves (nothing), and what does not.
    (Op.STATUS, 2, -135, CodeClass.NO_INFORMATION),
    (Op.STATUS, 2, -32, CodeClass.NO_INFORMATION),
    (Op.STATUS, -405, None, CodeClass.NO_INFORMATION),
    (Op.STATUS, 406, None, CodeClass.NO_INFORMATION),
    (Op.QUICK_PAY, 2, -301, CodeClass.MAY_HAVE_CHARGED),
    (Op.REFUND_STATUS, 2, -135, CodeClass.NO_INFORMATION),
    (Op.STATUS, 2, -322, CodeClass.NOT_CHARGED),
    (Op.QUICK_PAY, 2, -63, CodeClass.NOT_CHARGED),
    (Op.REFUND_STATUS, 2, -101, CodeClass.NO_INFORMATION),  # the two readings: never final
    (Op.STATUS, 2, -101, CodeClass.NOT_FOUND),
])
def test_the_issues_codes(operation: Operation, code: int, sub: int | None,
                          cls: CodeClass) -> None:
    assert classify("v2", operation, code, sub).cls is cls


@given(generation=st.sampled_from(("v2", "v001")), operation=st.sampled_from(list(Op)),
       code=st.integers(-10**6, 10**6), sub=st.none() | st.integers(-10**6, 10**6))
def test_a_code_not_in_the_table_is_no_information(generation: str, operation: Operation,
                                                   code: int, sub: int | None) -> None:
    row = classify(generation, operation, code, sub)
    if not row.published:
        assert row.cls is CodeClass.NO_INFORMATION
    assert row.cls is not CodeClass.NOT_CHARGED or row.published


def test_the_docs_hold_the_table() -> None:
    text = DOCS.read_text(encoding="utf-8")
    begin, end = "<!-- code-table:begin -->\n", "<!-- code-table:end -->"
    held = text[text.index(begin) + len(begin):text.index(end)]
    assert held == markdown_table(), (
        "docs/protocol.md's table is not the code table's: paste the output of "
        "`python -m pos_terminal.wallets.zalopay.code_table` between its code-table markers")
