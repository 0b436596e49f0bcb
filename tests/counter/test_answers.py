"""The core returns typed verdicts; the answers the front ends print (the JSON contract keys and
the exit code of the one table) are built outside it, in counter/answers.py (issue 22 item 5)."""

from __future__ import annotations

import inspect
from typing import Any

from pos_terminal.base.errors import ExitCode
from pos_terminal.checkout import verdict as core_verdict
from pos_terminal.config import Settings
from pos_terminal.counter import Counter
from pos_terminal.counter import answers as rule
from tests.checkout.conftest import wallet_code

CONTRACT_KEYS = {"state", "app_trans_id", "amount", "return_code", "message", "zp_trans_id",
                 "outcome", "exit_code"}


def test_the_core_verdict_builds_no_answer() -> None:
    functions = inspect.getmembers(core_verdict, inspect.isfunction)
    for name, function in functions:
        if function.__module__ != core_verdict.__name__:
            continue
        returns = str(inspect.signature(function).return_annotation)
        assert "dict[" not in returns and "exit" not in name, name
    assert not [n for n in vars(core_verdict) if n.startswith("EXIT")]


def test_the_answers_are_built_from_the_verdict_and_the_one_exit_table(
        settings: Settings, emulator: Any) -> None:
    with Counter(settings) as co:
        paid = co.payments.pay(15_000, wallet_code(emulator, "an"))
        declined = co.payments.pay(15_000, wallet_code(emulator, "dung"))
        answers = [rule.payment_answer(paid), rule.payment_answer(declined)]
        unknown, code = rule.error_answer(RuntimeError("boom"), co.payments,
                                             "261125_nosuch_1", 15_000)
    assert [(a["outcome"], a["exit_code"]) for a in answers] == [
        ("paid", ExitCode.PAID), ("not_paid", ExitCode.NOT_PAID)]
    assert all(set(a) >= CONTRACT_KEYS for a in (*answers, unknown))
    assert (unknown["outcome"], code) == ("unknown", ExitCode.UNKNOWN)
    assert core_verdict.of_payment(paid) is core_verdict.Verdict.PAID
