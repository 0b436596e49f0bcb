"""What the money commands (pay, status, reconcile, refund, override, journal, report) share:
the counter or back office of one command, their errors and exits, the lines a payment or a
refund is shown as.

Exit codes (the CLI contract of DESIGN.md): 0 succeeded, 1 failed or declined, 3 still
unresolved (processing or unknown after the deadline), 2 usage, configuration or journal error.
With --json every command prints exactly one JSON object on stdout (counter/answers.py builds
it from the core's verdict)."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any, NoReturn

import click

from pos_terminal.base.i18n import _
from pos_terminal.base.money import format_vnd
from pos_terminal.cli.common import EXIT_UNRESOLVED, EXIT_USAGE, SignalStop, print_json
from pos_terminal.config import Settings
from pos_terminal.counter import Counter, answers, open_counter
from pos_terminal.counter.office import BackOffice
from pos_terminal.counter.types import (
    JournalError,
    PaymentState,
    PaymentView,
    RefundView,
    RsaKeyError,
    refund_of,
)
from pos_terminal.sentences import use_front_end
from pos_terminal.text_safety import clean

S = PaymentState


def exit_with(code: int) -> NoReturn:
    raise click.exceptions.Exit(code)


def fail(message: str, *, as_json: bool, code: int = EXIT_USAGE, **extra: Any) -> NoReturn:
    """Refuse with a sentence on stderr (and one JSON object on stdout with --json)."""
    click.echo(_("error: {message}").format(message=message), err=True)
    if as_json:
        print_json({"error": message, **extra})
    exit_with(code)


def not_sent(message: str, amount: int | None, *, state: str = "failed",
             app_trans_id: str | None = None) -> dict[str, Any]:
    """The CLI contract keys, for a result that is not (or not only) a journal row."""
    v = (answers.Verdict.NOTHING_SENT if app_trans_id is None and state == "failed"
         else answers.Verdict.UNKNOWN)
    return answers.contract(message, amount, state=state, app_trans_id=app_trans_id, verdict=v)


def pay_error(message: str, *, as_json: bool, amount: int | None, field: str | None = None,
              **extra: Any) -> NoReturn:
    """Refuse a payment before anything was charged: exit 2, and with --json one object with
    the contract keys (state "failed", no app_trans_id) plus error and field."""
    click.echo(_("error: {message}").format(message=message), err=True)
    if as_json:
        print_json({**not_sent(message, amount), "error": message, "field": field, **extra})
    exit_with(EXIT_USAGE)


def unexpected(co: Counter, exc: Exception, *, as_json: bool, kind: str,
               subject: str | None, amount: int | None) -> NoReturn:
    """Any error nobody planned for: never a traceback, never exit 1 while the outcome is
    unknown. The answer is the journal's row when there is one (answers.error_answer)."""
    error = answers.describe_error(exc)
    click.echo(_("error: unexpected {error}").format(error=error), err=True)
    if kind == "refund" and subject is not None:
        try:
            refund = co.refunds.get(subject)
        except Exception:
            refund = None
        if refund is not None:
            data = answers.refund_answer(refund, error=error)
            if as_json:
                print_json(data)
            exit_with(int(data["exit_code"]))
    if kind == "reconcile":
        if as_json:
            print_json(answers.contract(str(answers.unexpected(error, None)).replace(
                "before the payment was recorded", "while reconciling"), None,
                state=S.UNKNOWN.value, verdict=answers.Verdict.UNKNOWN, error=error))
        exit_with(EXIT_UNRESOLVED)
    target = subject if kind in ("pay", "status") else None
    data, code = answers.error_answer(exc, co.payments, target, amount)
    if kind == "status" and target is not None and code == EXIT_USAGE:
        code = EXIT_UNRESOLVED
    if kind == "refund" and code == EXIT_USAGE and refund_of(exc) is not None:
        code = EXIT_UNRESOLVED
    if as_json:
        print_json(data)
    exit_with(code)


@contextmanager
def counter_for(settings: Settings, as_json: bool, *, pay: bool = False,
                amount: int | None = None, kind: str = "",
                subject: Callable[[Counter, Exception], str | None] | None = None
                ) -> Iterator[Counter]:
    """A Counter for one command. The CLI runs no background reconciler, so an open payment's
    message says to run `pos-terminal reconcile`. With `pay`, errors carry the pay contract.
    An unexpected error inside answers by the one rule (never a traceback)."""

    def refuse(message: str, **extra: Any) -> NoReturn:
        if pay:
            pay_error(message, as_json=as_json, amount=amount, **extra)
        fail(message, as_json=as_json, **extra)

    try:
        use_front_end("commands")  # an open payment's next step is `pos-terminal reconcile`
        co = open_counter(settings)
    except JournalError as exc:
        refuse(exc.message, reason=getattr(exc, "reason", "journal"))
    except RsaKeyError as exc:
        refuse(_("[service] rsa_public_key in {file}: {error}").format(
            file=settings.source, error=exc.message))
    try:
        yield co
    except (click.exceptions.Exit, click.ClickException, click.exceptions.Abort):
        raise
    except Exception as exc:
        unexpected(co, exc, as_json=as_json, kind=kind or ("pay" if pay else ""),
                   subject=subject(co, exc) if subject is not None else None, amount=amount)
    finally:
        co.close()


@contextmanager
def back_office(settings: Settings, as_json: bool) -> Iterator[BackOffice]:
    """The journal's history and reports without a checkout (no wallet key needed)."""
    try:
        office = BackOffice.open(settings)
    except JournalError as exc:
        fail(exc.message, as_json=as_json)
    with office:
        yield office


def payment_line(view: PaymentView) -> str:
    state = answers.state_label(view.state.value).upper()
    if view.late:
        state += " " + _("(LATE: charged after the terminal said failed)")
    elif view.charged_late:
        state += " " + _("(LATE: charged after the cashier gave up)")
    parts = [state, format_vnd(view.amount), view.app_trans_id]
    # A wallet transaction number only for money that moved (a failed row may carry one).
    if view.zp_trans_id and view.state in (S.SUCCEEDED, S.REFUNDED):
        parts.append(_("zp {zp_trans_id}").format(zp_trans_id=view.zp_trans_id))
    if view.refunded_amount:
        parts.append(_("refunded {amount}").format(amount=format_vnd(view.refunded_amount)))
    if view.needs_review:
        parts.append(_("NEEDS REVIEW"))
    return "  ".join(parts) + f"\n  {clean(view.message)}"


def refund_line(view: RefundView) -> str:
    return (_("REFUND {state}  {amount}  {m_refund_id}  (payment {app_trans_id})").format(
        state=answers.state_label(view.state.value).upper(), amount=format_vnd(view.amount),
        m_refund_id=view.m_refund_id, app_trans_id=view.app_trans_id)
        + f"\n  {clean(view.message)}")


def answer_payment(view: PaymentView, as_json: bool, stop: SignalStop | None = None,
                   **more: Any) -> NoReturn:
    extra: dict[str, Any] = dict(more)
    if stop is not None and stop.name:
        extra["signal"] = stop.name
    if as_json:
        print_json(answers.payment_answer(view, **extra))
    else:
        click.echo(payment_line(view))
    exit_with(answers.payment_exit(view))
