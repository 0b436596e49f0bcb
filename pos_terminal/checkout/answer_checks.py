"""Checking an answer against the order it answers: what does not fit is "needs review".

A success is believed only when it is about this order, for this amount, with no failure
sub-code, and carries the wallet transaction number a refund will need. Anything else may be a
charge (so never "not paid") but cannot be shown as paid: a person checks the merchant portal.
"""

from __future__ import annotations

from pos_terminal.base.i18n import _
from pos_terminal.checkout.validation import vnd as vnd_text
from pos_terminal.journal import PaymentView
from pos_terminal.wallet.results import Outcome, PaymentResult
from pos_terminal.wallet.returncodes import success_with_failure_detail


def answer_problems(view: PaymentView, result: PaymentResult) -> list[str]:
    """What is wrong with `result` as an answer about `view` (empty: nothing)."""
    problems: list[str] = []
    if result.amount is not None:
        if result.amount < 0:
            problems.append(_("it reports a negative amount ({amount})").format(
                amount=vnd_text(result.amount)))
        elif result.amount != view.amount and result.outcome is not Outcome.NOT_FOUND:
            problems.append(_("it reports {amount} for an order of {ordered}").format(
                amount=vnd_text(result.amount), ordered=vnd_text(view.amount)))
    if result.outcome is Outcome.SUCCEEDED:
        if success_with_failure_detail(result.sub_return_code):
            problems.append(_("it says success (return code {code}) with the failure sub-code "
                              "{sub_code}").format(code=result.return_code,
                                                   sub_code=result.sub_return_code))
        if not result.zp_trans_id:
            problems.append(_("it says success without a wallet transaction number "
                              "(zp_trans_id), so the payment could never be refunded"))
    return problems


def review_message(app_trans_id: str, problems: list[str]) -> str:
    return _(
        "The wallet service's answer does not fit this order: {problems}. The customer may or "
        "may not have been charged: do not charge again and do not treat it as paid. Check "
        "payment {app_trans_id} in the merchant portal, then mark it with pos-terminal override."
    ).format(problems="; ".join(problems), app_trans_id=app_trans_id)


def mismatch_message(app_trans_id: str, detail: str) -> str:
    return _(
        "The wallet service answered about another order ({detail}). The outcome of payment "
        "{app_trans_id} is unknown: do not charge again. Check it in the merchant portal, then "
        "mark it with pos-terminal override."
    ).format(detail=detail, app_trans_id=app_trans_id)
