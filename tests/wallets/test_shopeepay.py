"""ShopeePay CPM through the wallet interface (shared/spec/shopeepay.md), against the emulator's
ShopeePay part: paid at once, processing then paid, declined with no transaction (final at once,
never "unknown"), refunded in parts, and its result table read as the spec's table says."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from pos_terminal.checkout import PaymentState, RefundState
from pos_terminal.config import Settings
from pos_terminal.counter import open_checkout
from pos_terminal.wallets.code_table import CodeClass, Operation
from pos_terminal.wallets.shopeepay import codes, signing
from pos_terminal.wallets.shopeepay.settings import SHOPEEPAY_CODE_PATTERN
from tests.wallets.shopeepay_help import code_of, with_shopeepay

S = PaymentState

#: The spec's result-code table, as shared/spec/shopeepay.md writes it (compared with the file
#: itself when the shared folder is beside the repository).
SPEC_TABLE = """\
| 0 | success: read the transaction's status | see below |
| -2, -1, 1800 | connection dropped, server error | no |
| 1, 2, 4 | parameters, permission (often an invalid status), not found (merchant, store, user or transaction) | no (to a check, 4 is "not found") |
| 11 | duplicate request or transaction | no |
| 121 | update of a completed transaction | no |
| 6, 7, 9, 24 | wallet not activated, expired, account banned, account frozen | yes, nothing charged |
| 42 | insufficient balance | yes, nothing charged |
| 101-104 | a wallet limit (103: the daily one) | yes, nothing charged |
| 105 | authorisation code invalid | yes, nothing charged |
| 301 | invalid payment code or QR content | yes, nothing charged |
| 303 | paying one's own account | yes, nothing charged |
| 304 | refund past its window | yes, nothing refunded |
"""  # noqa: E501
SPEC_FILE = Path(__file__).resolve().parents[3] / "shared" / "spec" / "shopeepay.md"


def _spec_rows() -> list[tuple[tuple[int, ...], str]]:
    rows = []
    for line in SPEC_TABLE.splitlines():
        cells = [cell.strip() for cell in line.strip("|").split("|")]
        numbers: list[int] = []
        for part in cells[0].split(","):
            low, _, high = part.strip().partition("-") if not part.strip().startswith(
                "-") else (part.strip(), "", "")
            numbers += list(range(int(low), int(high) + 1)) if high else [int(low)]
        rows.append((tuple(numbers), cells[2]))
    return rows


def test_the_result_table_is_the_spec_s_table() -> None:
    if SPEC_FILE.exists():
        assert SPEC_TABLE in SPEC_FILE.read_text(encoding="utf-8")
    spec = _spec_rows()
    assert [row.codes for row in codes.ERRCODES] == [numbers for numbers, _ in spec]
    for row, (_, final) in zip(codes.ERRCODES, spec, strict=True):
        assert final.startswith(row.final.value), (row.codes, final)
    assert codes.final_of(999) is codes.Final.NO  # unknown = no information
    assert codes.TABLE.classify(Operation.QUICK_PAY, 999).cls is CodeClass.NO_INFORMATION
    assert codes.TABLE.classify(Operation.STATUS, 4).cls is CodeClass.NOT_FOUND
    assert codes.TABLE.classify(Operation.QUICK_PAY, 4).cls is CodeClass.NO_INFORMATION
    assert codes.TABLE.classify(Operation.REFUND, 304).cls is CodeClass.NOT_CHARGED


def test_the_signature_is_the_spec_s_worked_example() -> None:
    body = (b'{"request_id":"r-1","reference_id":"T31-1","transaction_type":13,'
            b'"merchant_ext_id":"M31","store_ext_id":"S31","amount":5000000}')
    assert signing.signature("SPsecret-31", body) == "UNDtFjvAc7FTwe90fRyCvrXLqtYZGr8xBy1iwb0rV1w="
    spaced = body.replace(b":", b": ").replace(b",", b", ")
    assert signing.signature("SPsecret-31", spaced) != signing.signature("SPsecret-31", body)


@pytest.fixture
def spay_settings(settings: Settings, emulator: Any) -> Settings:
    return with_shopeepay(settings, emulator)


def test_a_code_pays_refunds_in_parts_and_every_call_is_signed(
        spay_settings: Settings, emulator: Any) -> None:
    spay = emulator.control.part("shopeepay")
    code = code_of(emulator, "spay-paid")
    assert re.fullmatch(SHOPEEPAY_CODE_PATTERN, code)
    with open_checkout(spay_settings) as co:
        view = co.pay(50_000, code)
        first = co.refund(view.app_trans_id, 20_000, "two back")
        second = co.refund(view.app_trans_id, 30_000, "the rest")
        after = co.journal.get(view.app_trans_id)
    assert view.state is S.SUCCEEDED and view.provider == "shopeepay"
    payment = spay.payments[view.app_trans_id]
    assert payment.amount == 50_000 and view.zp_trans_id == payment.serial
    assert first.state is second.state is RefundState.REFUNDED
    assert [spay.refunds[r].amount for r in payment.refunds] == [20_000, 30_000]
    assert after.refunded_amount == 50_000
    assert spay.requests["pay"] == 1


def test_processing_then_paid_by_checks_with_the_original_amount(
        spay_settings: Settings, emulator: Any) -> None:
    spay = emulator.control.part("shopeepay")
    seen: list[S] = []
    usual, spay.processing_s = spay.processing_s, 0.3
    try:
        with open_checkout(spay_settings) as co:
            view = co.pay(41_000, code_of(emulator, "spay-slow"),
                          on_progress=lambda v: seen.append(v.state))
    finally:
        spay.processing_s = usual
    assert view.state is S.SUCCEEDED and S.PROCESSING in seen
    assert spay.requests["check"] >= 1 and spay.requests["pay"] == 1


def test_a_decline_without_a_transaction_is_final_at_once(
        spay_settings: Settings, emulator: Any) -> None:
    """ShopeePay's refusals carry no transaction: the decline is tied to its payment and
    settles it (it once showed "unknown" after five polls)."""
    spay = emulator.control.part("shopeepay")
    with open_checkout(spay_settings) as co:
        view = co.pay(30_000, code_of(emulator, "spay-declined"))
    assert view.state is S.FAILED and view.why.code == "declined.balance"
    assert spay.requests["check"] == 0


def test_a_lost_answer_is_settled_by_checks_never_by_a_second_create(
        spay_settings: Settings, emulator: Any) -> None:
    spay = emulator.control.part("shopeepay")
    emulator.control.add_fault(endpoint="spay_pay", mode="drop_after_commit")
    with open_checkout(spay_settings) as co:
        view = co.pay(27_000, code_of(emulator, "spay-paid"))
    assert view.state is S.SUCCEEDED  # charged, its answer lost: a check found it paid
    assert spay.requests["pay"] == 1 and spay.requests["check"] >= 1


def test_a_refund_whose_answer_is_lost_is_checked_with_its_own_reference(
        spay_settings: Settings, emulator: Any) -> None:
    spay = emulator.control.part("shopeepay")
    with open_checkout(spay_settings) as co:
        view = co.pay(40_000, code_of(emulator, "spay-paid"))
        emulator.control.add_fault(endpoint="spay_refund", mode="drop_after_commit")
        refund = co.refund(view.app_trans_id, 10_000, "one back")
    assert refund.state is RefundState.REFUNDED  # a check, type 15 with the refund's amount
    assert spay.requests["refund"] == 1 and spay.refunds[refund.m_refund_id].amount == 10_000


def test_a_refused_create_says_nothing_and_the_checks_decide(
        spay_settings: Settings, emulator: Any) -> None:
    """errcode 2 (permission) is not final: the payment is checked, and a check that finds no
    such payment ends in "never arrived" once its grace period is over, never "declined"."""
    emulator.control.add_fault(endpoint="spay_pay", mode="refuse", return_code=2)
    with open_checkout(spay_settings) as co:
        view = co.pay(15_000, code_of(emulator, "spay-paid"))
        said = {event.why.code for event in co.journal.events(view.app_trans_id)}
    assert view.state is S.FAILED and "declined.code" not in said
    assert emulator.control.part("shopeepay").requests["check"] >= 1
