"""The shared base: one error root every layer's errors derive from, one payment-code rule."""

from __future__ import annotations

from pathlib import Path

import pytest

from pos_terminal.base.codes import (
    CodeProblem,
    code_last4,
    code_problem,
    format_problem,
    mask_code,
    mask_last4,
)
from pos_terminal.base.errors import ExitCode, PosError, cashier_message
from pos_terminal.checkout import AnswerNotRecorded, CheckoutError, CodeRefused, InvalidPayment
from pos_terminal.config import ConfigError
from pos_terminal.journal import JournalError, JournalUnavailable, UnknownPayment
from pos_terminal.ledger import LedgerError
from pos_terminal.receipts.content import NoReceipt
from pos_terminal.wallets.errors import FieldError, NoAnswer, NotSent, WalletError


@pytest.mark.parametrize(("error", "exit_code"), [
    (ConfigError(Path("/etc/pos.toml"), "[service] key1", "missing"), ExitCode.NOTHING_SENT),
    (JournalUnavailable("The journal is locked."), ExitCode.NOTHING_SENT),
    (UnknownPayment("261121_x"), ExitCode.NOTHING_SENT),
    (InvalidPayment("amount", "The amount must be positive."), ExitCode.NOTHING_SENT),
    (CodeRefused("Already charged.", "charged", "261121_x"), ExitCode.NOTHING_SENT),
    (AnswerNotRecorded("Journal failed after sending.", "full", "261121_x"), ExitCode.UNKNOWN),
    (FieldError("amount", "amount is not a number"), ExitCode.NOTHING_SENT),
    (NotSent("connection refused", "connection refused"), ExitCode.NOT_PAID),
    (NoAnswer("timed out"), ExitCode.UNKNOWN),
    (LedgerError("The ledger is down."), ExitCode.UNKNOWN),
    (NoReceipt("A failed payment gets no receipt."), ExitCode.UNKNOWN),
])
def test_every_layer_error_is_a_pos_error_with_message_and_exit_code(
        error: PosError, exit_code: int) -> None:
    assert isinstance(error, PosError)
    assert error.exit_code == exit_code
    assert cashier_message(error) == error.message


def test_roots_of_each_layer_derive_from_the_one_root() -> None:
    for root in (ConfigError, JournalError, CheckoutError, WalletError, LedgerError):
        assert issubclass(root, PosError)


def test_config_error_keeps_file_and_key_in_its_text_but_not_in_its_message() -> None:
    error = ConfigError(Path("/etc/pos.toml"), "[service] key1", "missing required key")
    assert error.message == "missing required key"
    assert str(error) == "/etc/pos.toml: [service] key1: missing required key"


def test_cashier_message_of_a_foreign_exception() -> None:
    assert cashier_message(ValueError("bad value")) == "bad value"
    assert cashier_message(RuntimeError()) == "RuntimeError"


@pytest.mark.parametrize(("code", "problem"), [
    (None, CodeProblem.EMPTY), ("", CodeProblem.EMPTY), ("   ", CodeProblem.EMPTY),
    (" 123456", CodeProblem.CHARACTERS), ("12\n34", CodeProblem.CHARACTERS),
    ("١٢٣٤٥٦", CodeProblem.CHARACTERS), ("281234567890123456", None),
])
def test_code_problem(code: object, problem: CodeProblem | None) -> None:
    assert code_problem(code) is problem


def test_format_problem_against_the_scanner_filter() -> None:
    rule = {"alphabet": "0123456789", "min_length": 16, "max_length": 19}
    assert format_problem("281234567890123456", **rule) is None
    assert format_problem("2812345", **rule) is CodeProblem.LENGTH
    assert format_problem("28123456789012345X", **rule) is CodeProblem.ALPHABET


def test_masking_never_shows_more_than_the_last_four() -> None:
    assert mask_code("281234567890123456") == "••••3456"
    assert mask_code("1234") == "••••"
    assert code_last4("281234567890123456") == "3456"
    assert code_last4("1234567") is None
    assert mask_last4("3456") == "••••3456"
    assert mask_last4(None) == "••••????"
