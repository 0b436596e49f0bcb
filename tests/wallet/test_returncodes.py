"""Every code of the notes' table has a cashier sentence: what happened, then what to do."""

from __future__ import annotations

from typing import Any

import pytest
import requests

from pos_terminal.config import Settings
from pos_terminal.sentences import use_front_end
from pos_terminal.wallets.zalopay import returncodes
from pos_terminal.wallets.zalopay.client import WalletClient
from pos_terminal.wallets.zalopay.ids import current_ms, new_app_trans_id
from pos_terminal.wallets.zalopay.messages import QuickPayOrder
from pos_terminal.wallets.zalopay.results import AnswerStatus
from pos_terminal.wallets.zalopay.returncodes import CODE_ALREADY_USED, CODE_NOT_RECOGNISED


def describe(*args: Any, **kwargs: Any) -> str:
    """The reason a code gives, as the cashier reads it (in English here)."""
    return str(returncodes.describe(*args, **kwargs))

NOTES_TABLE = [1, 2, 3, 10, -54, -63, -68, -92, -101, -217, -322, -329, -401, -402, -429, -500,
               -999]


#: Codes that refuse a request for its own sake: "still checking, do not charge again" (issue 29).
CHECKING = (-429, -500, -999)


@pytest.mark.parametrize("code", [c for c in NOTES_TABLE if c not in CHECKING])
def test_every_listed_code_has_its_own_two_part_sentence(code: int) -> None:
    sentence = describe(code, None, "")
    assert f"(code {code})" not in sentence  # not the fallback
    happened, _, next_step = sentence.partition(". ")
    assert happened and next_step.endswith("."), sentence  # what happened. what to do next.
    if code < 0:
        assert describe(2, code, "") == sentence  # v2 carries it as the sub code


def test_expired_code_sentence() -> None:
    assert describe(2, -322, "payment code expired") == (
        "The payment code expired and the customer was not charged. Ask the customer to "
        "refresh the code in the wallet app and scan again."
    )
    assert describe(-322) == describe(2, -322)


def test_code_already_used_is_told_apart_from_expired() -> None:
    assert describe(2, -322, "payment code already used") == (
        "This payment code was already used once and cannot be used again; the customer was not "
        "charged for this attempt. Ask the customer to refresh the code in the wallet app and "
        "scan the new one."
    )
    assert "charged again" not in describe(2, -322, "payment code already used")


def test_unknown_payment_code_asks_for_a_fresh_code() -> None:
    for message in ("invalid request data: payment_code: unknown payment code",
                    "invalid request data: paymentcode: unknown payment code",
                    "Payment code not found"):
        assert describe(2, -401, message) == (
            "The service did not recognise this payment code and the customer was not charged. "
            "Ask the customer to refresh the code in the wallet app and scan again."
        )
        assert describe(-401, None, message) == describe(2, -401, message)


@pytest.mark.parametrize("message", [
    "invalid request data: app_user too long",
    "invalid request data: payment_code is not base64 (standard or URL-safe alphabet)",
])
def test_other_401s_keep_the_generic_sentence(message: str) -> None:
    assert describe(2, -401, message).startswith("The service refused the request data")


def test_an_undecryptable_code_names_the_rsa_key() -> None:
    # Issue 14: the terminal's RSA key does not match the app id; a fresh code would not help,
    # and "check the amount" would mislead.
    # The CLI names the setting; a cashier's screen says whom to tell (issue 21).
    message = "invalid request data: payment_code cannot be decrypted with the application's key"
    use_front_end("commands")
    assert describe(2, -401, message) == describe(-401, None, message) == (
        "The terminal's RSA public key does not match this app id: the service cannot decrypt "
        "the payment code, and nothing was charged. Check [service] rsa_public_key / "
        "POS_RSA_PUBLIC_KEY.")
    use_front_end("screen")
    assert describe(2, -401, message) == (
        "The terminal's encryption key does not match its app id: the service cannot read the "
        "payment code, and nothing was charged. Ask the customer to pay another way and tell "
        "your supervisor: the terminal's wallet settings need fixing.")


# --- the same sentences on real answers of the emulator (both generations) --------------------


def _order() -> QuickPayOrder:
    now = current_ms()
    return QuickPayOrder(app_trans_id=new_app_trans_id("rc", now), app_user="counter-1",
                         app_time=now, amount=20_000)


def _code_of(emulator: Any, wallet: str) -> str:
    wallets = requests.get(f"{emulator.base_url}/_emulator/wallets", timeout=5).json()["wallets"]
    return str(next(w["code"] for w in wallets if w["id"] == wallet))


def test_reused_code_after_a_failed_first_attempt(any_settings: Settings, emulator: Any) -> None:
    code = _code_of(emulator, "dung")  # insufficient balance: the first attempt charges nothing
    with WalletClient(any_settings.service) as client:
        first = client.quick_pay(_order(), code)
        again = client.quick_pay(_order(), code)
    assert first.outcome is AnswerStatus.FAILED
    assert -63 in (first.return_code, first.sub_return_code)
    assert again.outcome is AnswerStatus.FAILED
    assert -322 in (again.return_code, again.sub_return_code)
    assert again.why.code == CODE_ALREADY_USED
    assert "charged again" not in str(again.why)


def test_unknown_code_over_http(any_settings: Settings, emulator: Any) -> None:
    with WalletClient(any_settings.service) as client:
        result = client.quick_pay(_order(), "123456789012345678")  # never issued
    assert result.outcome is AnswerStatus.FAILED
    assert -401 in (result.return_code, result.sub_return_code)
    assert "unknown payment code" in result.message
    assert result.why.code == CODE_NOT_RECOGNISED


def test_insufficient_balance_and_duplicate() -> None:
    assert describe(-63) == (
        "The customer's wallet balance is too low. Ask the customer to top up the wallet or pay "
        "another way."
    )
    assert "do not charge again" in describe(2, -68)


@pytest.mark.parametrize("code", CHECKING)
def test_a_refused_request_says_still_checking(code: int) -> None:
    sentence = describe(code, None, "")
    assert sentence.endswith("we are still checking; do not charge again."), sentence
    assert describe(2, code, "") == sentence
    assert "failed" not in sentence and "not charged" not in sentence


def test_unknown_code_says_still_checking_with_the_service_message() -> None:
    # Issue 29: a code the table does not hold is never a failure.
    assert describe(-777, None, "card blocked by issuer.") == (
        "The wallet answered with a code it does not publish (card blocked by issuer, code "
        "-777): we are still checking; do not charge again."
    )
    assert describe(2, -778, "") == (
        "The wallet answered with a code it does not publish (code -778): we are still "
        "checking; do not charge again."
    )


def test_invalid_data_keeps_the_service_detail() -> None:
    assert describe(2, -401, "invalid request data: app_user too long").endswith(
        "(Service: invalid request data: app_user too long)"
    )


def test_refund_sentences() -> None:
    assert describe(1, refund=True) == "The refund is complete."
    assert describe(3, refund=True) == describe(5, refund=True)  # legacy >1: processing
    assert describe(2, -101, refund=True).startswith("The service has no record of this refund")
    assert describe(-13, None, "over the paid amount", refund=True) == (
        "The wallet answered with a code it does not publish (over the paid amount, code -13): "
        "we are still checking the refund; do not refund again."
    )
