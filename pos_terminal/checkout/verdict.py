"""One rule for what a payment's outcome means, for the CLI, headless mode and the UI alike.

    exit 0  paid                        (SUCCEEDED or REFUNDED, nothing to review; a late success
                                         is paid, and says so)
    exit 1  definitely not paid         (FAILED, nothing to review)
    exit 2  bad input / nothing sent    (refused before an intent was recorded)
    exit 3  outcome unknown or needs review (still open, flagged, or an error after the intent)

Exit 1 is never said while the outcome is unknown: any unexpected error after the intent was
recorded answers with the journal's row (its state and app_trans_id), exit 3 unless the row is
already settled. Every answer is one JSON object with the CLI contract keys (state,
app_trans_id, amount, return_code, message, zp_trans_id) plus `outcome` and `exit_code`.
"""

from __future__ import annotations

from enum import StrEnum
from typing import Any

from pos_terminal.base.errors import ExitCode, PosError
from pos_terminal.base.reasons import Reason, render
from pos_terminal.checkout.ports import PaymentStore
from pos_terminal.journal import PaymentState, PaymentView, RefundState, RefundView

S = PaymentState

EXIT_PAID = int(ExitCode.PAID)
EXIT_NOT_PAID = int(ExitCode.NOT_PAID)
EXIT_NOTHING_SENT = int(ExitCode.NOTHING_SENT)
EXIT_UNKNOWN = int(ExitCode.UNKNOWN)


class Verdict(StrEnum):
    PAID = "paid"
    NOT_PAID = "not_paid"
    NOTHING_SENT = "nothing_sent"
    UNKNOWN = "unknown"
    NEEDS_REVIEW = "needs_review"


EXIT_CODES: dict[Verdict, int] = {
    Verdict.PAID: EXIT_PAID,
    Verdict.NOT_PAID: EXIT_NOT_PAID,
    Verdict.NOTHING_SENT: EXIT_NOTHING_SENT,
    Verdict.UNKNOWN: EXIT_UNKNOWN,
    Verdict.NEEDS_REVIEW: EXIT_UNKNOWN,
}


def of_payment(view: PaymentView) -> Verdict:
    if view.needs_review:
        return Verdict.NEEDS_REVIEW
    if view.state in (S.SUCCEEDED, S.REFUNDED):
        return Verdict.PAID
    if view.state is S.FAILED:
        return Verdict.NOT_PAID
    return Verdict.UNKNOWN


def of_refund(view: RefundView) -> Verdict:
    """For a refund "paid" reads "refunded" and "not paid" reads "no money moved"."""
    if view.needs_review:
        return Verdict.NEEDS_REVIEW
    if view.state is RefundState.REFUNDED:
        return Verdict.PAID
    if view.state is RefundState.FAILED:
        return Verdict.NOT_PAID
    return Verdict.UNKNOWN


def payment_exit(view: PaymentView) -> int:
    return EXIT_CODES[of_payment(view)]


def refund_exit(view: RefundView) -> int:
    return EXIT_CODES[of_refund(view)]


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


def describe_error(exc: BaseException) -> str:
    """A one-line description of any exception (never a traceback, never megabytes)."""
    text = exc.message if isinstance(exc, PosError) else ""
    if not text:
        try:
            text = str(exc)
        except Exception:
            text = ""
    text = " ".join(text.split())[:300]
    return f"{type(exc).__name__}: {text}" if text else type(exc).__name__


def unexpected(error: str, app_trans_id: str | None) -> Reason:
    return Reason.of("unexpected", error=error, app_trans_id=app_trans_id)


def error_answer(exc: BaseException, journal: PaymentStore | None, app_trans_id: str | None,
                 amount: int | None) -> tuple[dict[str, Any], int]:
    """The answer (and exit code) for an unexpected error: nothing sent before the intent,
    otherwise the journal's row, unknown unless settled."""
    error = describe_error(exc)
    message = render(unexpected(error, app_trans_id))
    if app_trans_id is None:
        return contract(message, amount, error=error), EXIT_NOTHING_SENT
    view: PaymentView | None = None
    if journal is not None:
        try:
            view = journal.get(app_trans_id)
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
