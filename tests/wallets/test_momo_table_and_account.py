"""MoMo's result codes as data (every row with its source; the final column decides; a code not
listed is no information) and its account (explicit, its secrets never in a repr, MoMo's 30 s)."""

from __future__ import annotations

from collections.abc import Callable, Iterator

import pytest

from pos_terminal.base.reasons import Reason
from pos_terminal.base.wallet_types import WalletOutcome
from pos_terminal.config import Settings
from pos_terminal.wallets.code_table import CodeClass, Operation
from pos_terminal.wallets.momo import MomoAccount, MomoWallet, codes
from pos_terminal.wallets.momo.client import MomoAnswer

KEY = "MFwwDQYJKoZIhvcNAQEBBQADSwAwSAJBAK"  # not read: the account only holds it


def _account(**changes: object) -> MomoAccount:
    values: dict[str, object] = {"base_url": "https://test-payment.momo.vn",
                                 "partner_code": "MOMO", "access_key": "ak-secret-1",
                                 "secret_key": "sk-secret-2", "public_key": KEY}
    values.update(changes)
    return MomoAccount(**values)  # type: ignore[arg-type]


def test_every_row_names_its_source() -> None:
    for row in codes.TABLE.rows.values():
        assert row.source and row.meaning_en and row.meaning_vi


@pytest.mark.parametrize(("code", "final"), [(0, True), (1001, True), (1002, True),
                                             (9000, False), (1000, False), (7000, False),
                                             (7002, False), (8000, False), (10, False),
                                             (11, False), (12, False), (13, False)])
def test_the_final_column_decides(code: int, final: bool) -> None:
    assert codes.is_final(codes.TABLE.classify(Operation.QUICK_PAY, code)) is final


def test_a_code_not_listed_is_no_information() -> None:
    row = codes.TABLE.classify(Operation.STATUS, 4242)
    assert row.cls is CodeClass.NO_INFORMATION and not row.published


@pytest.fixture
def wallet_for(base_settings: Settings) -> Iterator[Callable[[bool], MomoWallet]]:
    made: list[MomoWallet] = []

    def make(auto_capture: bool) -> MomoWallet:
        made.append(MomoWallet(_account(public_key=base_settings.service.rsa_public_key,
                                        auto_capture=auto_capture), terminal_id="POS-01"))
        return made[-1]

    yield make
    for wallet in made:
        wallet.close()


def _answer(code: int, order_id: str = "POS01-1") -> MomoAnswer:
    return MomoAnswer(result_code=code, message="m", order_id=order_id, request_id="r",
                      amount=10_000, trans_id="4000000001")


@pytest.mark.parametrize(("code", "outcome"), [
    (0, WalletOutcome.PAID), (1001, WalletOutcome.DECLINED), (1000, WalletOutcome.PROCESSING),
    (13, WalletOutcome.REFUSED_REQUEST), (4242, WalletOutcome.REFUSED_REQUEST),
    (42, WalletOutcome.NOT_FOUND)])
def test_a_status_answer_in_the_terminal_s_words(
        wallet_for: Callable[[bool], MomoWallet], code: int, outcome: WalletOutcome) -> None:
    wallet = wallet_for(True)
    assert wallet.charge_answer(_answer(code), Operation.STATUS).outcome is outcome


def test_9000_is_paid_with_auto_capture_and_authorised_without(
        wallet_for: Callable[[bool], MomoWallet]) -> None:
    assert wallet_for(True).charge_answer(_answer(9000), Operation.QUICK_PAY).outcome is (
        WalletOutcome.PAID)
    held = wallet_for(False).charge_answer(_answer(9000), Operation.QUICK_PAY)
    assert held.outcome is WalletOutcome.AUTHORISED
    assert held.why == Reason.of("two_step.authorised", wallet="MoMo")


def test_a_done_cancel_is_money_released_not_paid(
        wallet_for: Callable[[bool], MomoWallet]) -> None:
    wallet = wallet_for(False)
    assert wallet.charge_answer(_answer(0), Operation.CANCEL).outcome is WalletOutcome.DECLINED
    assert wallet.charge_answer(_answer(0), Operation.CAPTURE).outcome is WalletOutcome.PAID
    assert wallet.charge_answer(_answer(7000), Operation.CAPTURE).outcome is (
        WalletOutcome.PROCESSING)


def test_the_secrets_are_never_in_the_account_s_repr() -> None:
    text = repr(_account())
    assert "ak-secret-1" not in text and "sk-secret-2" not in text and KEY not in text
    assert "MOMO" in text


@pytest.mark.parametrize(("change", "words"), [
    ({"timeout_s": 10.0}, "at least 30"), ({"secret_key": " "}, "secret_key is empty"),
    ({"base_url": "ftp://x"}, "http(s) URL"), ({"lang": "fr"}, "vi or en")])
def test_an_unusable_account_is_refused(change: dict[str, object], words: str) -> None:
    with pytest.raises(ValueError, match=words.replace("(", r"\(").replace(")", r"\)")):
        _account(**change)
