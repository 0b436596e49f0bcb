"""The one outcome rule (checkout/verdict.py: typed verdicts) turned into the answers the front
ends give: the exit code of the one table (base/errors.py ExitCode) and the JSON object with the
contract keys (state, app_trans_id, amount, return_code, message, zp_trans_id) plus `outcome`,
`paid`, `late`, `money` and `exit_code` that the CLI's --json, headless mode and the Terminal API
print alike.

    exit 0  paid                        (SUCCEEDED for the sale, nothing to review); a refund:
                                        refunded
    exit 1  definitely not paid         (FAILED; or RETURNED: all of it back with the customer);
                                        a refund: no money moved
    exit 2  bad input / nothing sent    (refused before an intent was recorded)
    exit 3  outcome unknown, needs review, or LATE (charged after the sale was given up: not
                                        the sale's money, to be returned)

Exit 1 is never said while the outcome is unknown: any unexpected error after the intent was
recorded answers with the journal's row (its state and app_trans_id), exit 3 unless the row is
already settled."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from pos_terminal.base.errors import ExitCode
from pos_terminal.base.reasons import render
from pos_terminal.checkout import gateway
from pos_terminal.checkout.verdict import (
    Verdict,
    describe_error,
    money_of,
    of_payment,
    of_refund,
    unexpected,
)
from pos_terminal.journal import PaymentState, PaymentView, RefundView
from pos_terminal.sentences.labels import outcome_headline, state_label

if TYPE_CHECKING:
    from pos_terminal.checkout import ReconcileReport
    from pos_terminal.counter.payments import PaymentRows

S = PaymentState

EXIT_PAID = int(ExitCode.PAID)
EXIT_NOT_PAID = int(ExitCode.NOT_PAID)
EXIT_NOTHING_SENT = int(ExitCode.NOTHING_SENT)
EXIT_UNKNOWN = int(ExitCode.UNKNOWN)

EXIT_CODES: dict[Verdict, int] = {
    Verdict.PAID: EXIT_PAID,
    Verdict.LATE: EXIT_UNKNOWN,
    Verdict.RETURNED: EXIT_NOT_PAID,
    Verdict.NOT_PAID: EXIT_NOT_PAID,
    Verdict.REFUNDED: EXIT_PAID,
    Verdict.NOT_REFUNDED: EXIT_NOT_PAID,
    Verdict.NOTHING_SENT: EXIT_NOTHING_SENT,
    Verdict.UNKNOWN: EXIT_UNKNOWN,
    Verdict.NEEDS_REVIEW: EXIT_UNKNOWN,
}


def payment_exit(view: PaymentView) -> int:
    return EXIT_CODES[of_payment(view)]


def refund_exit(view: RefundView) -> int:
    return EXIT_CODES[of_refund(view)]


PART_PAID_REASONS = gateway.PART_PAID_REASONS | gateway.PART_SETTLED_REASONS


def payment_json(view: PaymentView) -> dict[str, Any]:
    """A payment as every door shows it: the journal's fields, its outcome, whether it is paid
    for the sale, whether it was charged late and where its money is (all of its latest
    state)."""
    verdict = of_payment(view)
    data = {**view.to_json(), "outcome": verdict.value, "paid": verdict is Verdict.PAID,
            "money": money_of(view).value}
    return {**data, **part_paid(view)}


def part_paid(view: PaymentView) -> dict[str, int]:
    """A shop QR paid in part: what arrived and what is missing (empty otherwise)."""
    if view.why.code not in PART_PAID_REASONS:
        return {}
    params = view.why.params
    return {"amount_paid": int(params.get("amount", 0)),
            "amount_missing": int(params.get("missing", 0))}


def refund_json(view: RefundView) -> dict[str, Any]:
    """A refund as every door shows it: the journal's fields and its outcome."""
    return {**view.to_json(), "outcome": of_refund(view).value}


def reconcile_answer(report: ReconcileReport) -> dict[str, Any]:
    """A reconcile pass's counts, and its payments and refunds in the same words as every
    other answer."""
    return {**report.to_json(), "payments": [payment_json(p) for p in report.payments],
            "refunds": [refund_json(r) for r in report.refunds]}


def headline(view: PaymentView) -> str:
    """The few words a cashier sees first, of the one outcome rule."""
    return outcome_headline(of_payment(view).value, late=view.charged_late)


def payment_answer(view: PaymentView, **extra: Any) -> dict[str, Any]:
    return {**payment_json(view), "exit_code": payment_exit(view), **extra}


def refund_answer(view: RefundView, **extra: Any) -> dict[str, Any]:
    """A refund's answer: `outcome` refunded, not_refunded, unknown or needs_review."""
    return {**refund_json(view), "exit_code": refund_exit(view), **extra}


def contract(message: str, amount: int | None, *, state: str = "failed",
             app_trans_id: str | None = None, verdict: Verdict = Verdict.NOTHING_SENT,
             **extra: Any) -> dict[str, Any]:
    """The contract keys for an answer that is not (or not only) a journal row."""
    return {"state": state, "app_trans_id": app_trans_id, "amount": amount,
            "return_code": None, "message": message, "zp_trans_id": None,
            "outcome": verdict.value, "paid": verdict is Verdict.PAID,
            "exit_code": EXIT_CODES[verdict], **extra}


def error_answer(exc: BaseException, rows: PaymentRows | None,
                 app_trans_id: str | None, amount: int | None) -> tuple[dict[str, Any], int]:
    """The answer (and exit code) for an unexpected error: nothing sent before the intent,
    otherwise the journal's row (read through `rows`: `counter.payments` or a journal),
    unknown unless settled."""
    error = describe_error(exc)
    message = render(unexpected(error, app_trans_id))
    if app_trans_id is None:
        return contract(message, amount, error=error), EXIT_NOTHING_SENT
    view: PaymentView | None = None
    if rows is not None:
        try:
            view = rows.get(app_trans_id)
        except Exception:
            view = None
    if view is None:
        data = contract(message, amount, state=S.UNKNOWN.value, app_trans_id=app_trans_id,
                        verdict=Verdict.UNKNOWN, error=error)
        return data, EXIT_UNKNOWN
    data = payment_answer(view, error=error)
    if not view.is_final or view.needs_review:
        data["message"] = f"{view.message} ({message})"
    return data, int(data["exit_code"])


__all__ = [
    "EXIT_CODES", "EXIT_NOTHING_SENT", "EXIT_NOT_PAID", "EXIT_PAID", "EXIT_UNKNOWN", "Verdict",
    "contract", "describe_error", "error_answer", "headline", "of_payment", "of_refund",
    "payment_answer", "payment_exit", "payment_json", "reconcile_answer", "refund_answer",
    "refund_exit", "refund_json", "state_label", "unexpected",
]
