"""Checking an answer against the order it answers: what does not fit is "needs review".

A success is believed only when it is about this order, for this amount, with no failure
sub-code, and carries the wallet transaction number a refund will need. Anything else may be a
charge (so never "not paid") but cannot be shown as paid: a person checks the merchant portal.
"""

from __future__ import annotations

from pos_terminal.base.reasons import Reason
from pos_terminal.base.wallet_types import ChargeAnswer, WalletOutcome
from pos_terminal.journal import PaymentView


def answer_problems(view: PaymentView, result: ChargeAnswer) -> list[Reason]:
    """What is wrong with `result` as an answer about `view` (empty: nothing)."""
    problems: list[Reason] = []
    if result.amount is not None:
        if result.amount < 0:
            problems.append(Reason.of("problem.negative_amount", amount=result.amount))
        elif result.amount != view.amount and result.outcome is not WalletOutcome.NOT_FOUND:
            problems.append(Reason.of("problem.other_amount", amount=result.amount,
                                      ordered=view.amount))
    problems.extend(result.problems)  # what the provider finds wrong in its own answer
    if result.outcome is WalletOutcome.PAID and not result.transaction_id:
        problems.append(Reason.of("problem.no_transaction_number"))
    return problems


def review(app_trans_id: str, problems: list[Reason]) -> Reason:
    return Reason.of("review.answer_mismatch", problems=problems, app_trans_id=app_trans_id)


def other_order(app_trans_id: str, detail: Reason | str) -> Reason:
    """The answer named another order: the outcome of this one is unknown."""
    return Reason.of("review.other_order", detail=detail, app_trans_id=app_trans_id)
