"""Every code of the notes' table has a cashier sentence: what happened, then what to do."""

from __future__ import annotations

import pytest

from pos_terminal.wallet.returncodes import describe

NOTES_TABLE = [1, 2, 3, 10, -54, -63, -68, -92, -101, -217, -322, -329, -401, -402, -429, -500,
               -999]


@pytest.mark.parametrize("code", NOTES_TABLE)
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
        "This payment code was already used and the customer was not charged again. Ask the "
        "customer to refresh the code in the wallet app and scan the new one."
    )


def test_insufficient_balance_and_duplicate() -> None:
    assert describe(-63) == (
        "The customer's wallet balance is too low. Ask the customer to top up the wallet or pay "
        "another way."
    )
    assert "do not charge again" in describe(2, -68)


def test_unknown_code_falls_back_to_the_service_message() -> None:
    assert describe(-777, None, "card blocked by issuer.") == (
        "The payment failed: card blocked by issuer (code -777). Ask for another way to pay "
        "or call support."
    )
    assert describe(2, -778, "") == (
        "The payment failed (code -778). Ask for another way to pay or call support."
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
        "The refund failed: over the paid amount (code -13). Call support."
    )
