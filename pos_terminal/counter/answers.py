"""The one outcome rule (checkout/verdict.py: typed verdicts) turned into the answers the front
ends give: the exit code of the one table (base/errors.py ExitCode) and the JSON object with the
contract keys (state, app_trans_id, amount, return_code, message, zp_trans_id) plus `outcome`
and `exit_code` that the CLI's --json, headless mode and the Terminal API print alike.

    exit 0  paid                        (SUCCEEDED or REFUNDED, nothing to review)
    exit 1  definitely not paid         (FAILED, nothing to review)
    exit 2  bad input / nothing sent    (refused before an intent was recorded)
    exit 3  outcome unknown or needs review (still open, flagged, or an error after the intent)

Exit 1 is never said while the outcome is unknown: any unexpected error after the intent was
recorded answers with the journal's row (its state and app_trans_id), exit 3 unless the row is
already settled."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from pos_terminal.base.errors import ExitCode
from pos_terminal.base.reasons import render
from pos_terminal.checkout.verdict import (
    Verdict,
    describe_error,
    of_payment,
    of_refund,
    unexpected,
)
from pos_terminal.journal import PaymentState, PaymentView, RefundView
from pos_terminal.sentences.labels import headline, state_label

if TYPE_CHECKING:
    from pos_terminal.counter.payments import PaymentRows

S = PaymentState

EXIT_PAID = int(ExitCode.PAID)
EXIT_NOT_PAID = int(ExitCode.NOT_PAID)
EXIT_NOTHING_SENT = int(ExitCode.NOTHING_SENT)
EXIT_UNKNOWN = int(ExitCode.UNKNOWN)

EXIT_CODES: dict[Verdict, int] = {
    Verdict.PAID: EXIT_PAID,
    Verdict.NOT_PAID: EXIT_NOT_PAID,
    Verdict.NOTHING_SENT: EXIT_NOTHING_SENT,
    Verdict.UNKNOWN: EXIT_UNKNOWN,
    Verdict.NEEDS_REVIEW: EXIT_UNKNOWN,
}


def payment_exit(view: PaymentView) -> int:
    return EXIT_CODES[of_payment(view)]


def refund_exit(view: RefundView) -> int:
    return EXIT_CODES[of_refund(view)]


def state_exit(state: PaymentState) -> int:
    """By state alone (a row's needs_review flag also counts: use payment_exit)."""
    if state in (PaymentState.SUCCEEDED, PaymentState.REFUNDED):
        return EXIT_PAID
    if state is PaymentState.FAILED:
        return EXIT_NOT_PAID
    return EXIT_UNKNOWN


def payment_answer(view: PaymentView, **extra: Any) -> dict[str, Any]:
    verdict = of_payment(view)
    return {**view.to_json(), "outcome": verdict.value, "exit_code": EXIT_CODES[verdict],
            **extra}


def refund_answer(view: RefundView, **extra: Any) -> dict[str, Any]:
    verdict = of_refund(view)
    return {**view.to_json(), "outcome": verdict.value, "exit_code": EXIT_CODES[verdict],
            **extra}


def contract(message: str, amount: int | None, *, state: str = "failed",
             app_trans_id: str | None = None, verdict: Verdict = Verdict.NOTHING_SENT,
             **extra: Any) -> dict[str, Any]:
    """The contract keys for an answer that is not (or not only) a journal row."""
    return {"state": state, "app_trans_id": app_trans_id, "amount": amount,
            "return_code": None, "message": message, "zp_trans_id": None,
            "outcome": verdict.value, "exit_code": EXIT_CODES[verdict], **extra}


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
    "payment_answer", "payment_exit", "refund_answer", "refund_exit", "state_exit",
    "state_label", "unexpected",
]
