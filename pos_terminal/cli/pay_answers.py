"""What `pay` shows beside a payment's own answer: its progress on stderr, and the answer when
Checkout.pay raised instead of answering with a row (a signal before the intent, bad input, a
code refused locally, a journal that failed after the send, any other error), each by the one
outcome rule."""

from __future__ import annotations

import time
from dataclasses import replace
from typing import Any, NoReturn

import click

from pos_terminal.base.errors import cashier_message
from pos_terminal.base.i18n import _
from pos_terminal.base.money import format_vnd
from pos_terminal.base.reasons import Reason
from pos_terminal.cli.common import EXIT_UNRESOLVED, print_json
from pos_terminal.cli.money_common import (
    exit_with,
    not_sent,
    pay_error,
    payment_line,
    unexpected,
)
from pos_terminal.counter import Counter, PaymentProgress, answers
from pos_terminal.counter.payments import PaymentService
from pos_terminal.counter.types import (
    FINAL_STATES,
    AnswerNotRecorded,
    CodeRefused,
    FieldError,
    InvalidPayment,
    JournalError,
    PaymentState,
    PaymentView,
    Stopped,
    intent_of,
)
from pos_terminal.sentences.labels import state_label

S = PaymentState


def show_progress(co: Counter, as_json: bool) -> None:
    """Render the counter's PaymentProgress events on stderr (not with --json)."""
    if as_json:
        return
    started = time.monotonic()
    last: list[str] = []

    def show(event: PaymentProgress) -> None:
        view = event.view
        if view.state in FINAL_STATES:
            return
        why = ""
        if view.state is S.UNKNOWN:  # say why it waits (a 5xx or a drop can take a minute)
            queries = {0: _("no query yet"), 1: _("1 query")}.get(
                view.polls, _("{count} queries").format(count=view.polls))
            why = _(": no answer to the charge; asking the service whether it arrived "
                    "({queries})").format(queries=queries)
        line = (f"{answers.state_label(view.state.value)} "
                f"({time.monotonic() - started:.1f} s){why}")
        if last == [line]:
            return
        last[:] = [line]
        click.echo(f"... {line}", err=True)

    co.bus.subscribe(PaymentProgress, show, name="pay progress")



def not_paid(co: Counter, exc: Exception, *, amount: int, as_json: bool,
             signal: str | None) -> NoReturn:
    """The answer when Checkout.pay raised (a CheckoutError, JournalError or WalletError)."""
    if isinstance(exc, Stopped):
        pay_error(exc.message, as_json=as_json, amount=amount, signal=signal)
    if isinstance(exc, (InvalidPayment, FieldError)):
        pay_error(exc.message, as_json=as_json, amount=amount, field=exc.field)
    if isinstance(exc, CodeRefused):
        refused_result(co, exc, amount, as_json)
    if isinstance(exc, AnswerNotRecorded):
        # The charge left, its answer is not journaled: unresolved, never charge again.
        click.echo(f"error: {exc.message}", err=True)
        if as_json:
            print_json({**not_sent(exc.message, amount, state=S.UNKNOWN.value,
                                   app_trans_id=exc.app_trans_id),
                        "error": exc.message, "reason": exc.reason})
        exit_with(EXIT_UNRESOLVED)
    intent = intent_of(exc)
    if intent is not None:  # after the intent: never "nothing was sent"
        unexpected(co, exc, as_json=as_json, kind="pay", subject=intent, amount=amount)
    pay_error(cashier_message(exc), as_json=as_json, amount=amount,
              **({"reason": getattr(exc, "reason", "journal")}
                 if isinstance(exc, JournalError) else {}))


def refused_result(co: Counter, exc: CodeRefused, amount: int,
                   as_json: bool) -> NoReturn:
    """A code refused locally: the answer by the outcome rule (refusal_answer)."""
    click.echo(_("refused: {message}").format(message=exc.message), err=True)
    data, code, shown = refusal_answer(exc, co.payments, amount)
    if as_json:
        print_json(data)
    elif shown is not None:
        click.echo(payment_line(shown))
    elif code == EXIT_UNRESOLVED:
        click.echo(_("PROCESSING  {amount}  (payment being prepared)").format(
            amount=format_vnd(amount)) + f"\n  {data['message']}")
    else:
        click.echo(_("FAILED  {amount}  not sent (refused: {reason}, payment "
                     "{app_trans_id})").format(amount=format_vnd(amount), reason=exc.reason,
                                               app_trans_id=exc.app_trans_id)
                   + f"\n  {data['message']}")
    exit_with(code)


def refusal_answer(exc: CodeRefused, payments: PaymentService, amount: int,
                   ) -> tuple[dict[str, Any], int, PaymentView | None]:
    """A code refused locally (the answer, its exit code, the payment to show if any). In
    flight or unresolved: answer with THAT payment (exit 3; this code is already being charged
    there). Already charged: this attempt failed (exit 1)."""
    other = payments.find(exc.app_trans_id) if exc.app_trans_id else None
    if exc.reason != "charged" and (other is None or not other.is_final):
        message = exc.message
        if exc.app_trans_id:
            message += " " + _("Check it with `pos-terminal status {app_trans_id}`.").format(
                app_trans_id=exc.app_trans_id)
        shown: PaymentView | None = None
        if other is not None:
            shown = replace(other, why=Reason.text(message))
            data = answers.payment_answer(shown)
            data.update(outcome=answers.Verdict.UNKNOWN.value, exit_code=answers.EXIT_UNKNOWN)
        else:
            data = answers.contract(message, amount, state=PaymentState.PROCESSING.value,
                                    verdict=answers.Verdict.UNKNOWN)
        data.update(refused=exc.reason, previous_app_trans_id=exc.app_trans_id)
        return data, answers.EXIT_UNKNOWN, shown
    message = exc.message
    if exc.reason != "charged" and other is not None:  # it settled meanwhile
        message += " " + _("That payment is now {state}: see `pos-terminal status "
                           "{app_trans_id}`.").format(state=state_label(other.state.value),
                                                      app_trans_id=other.app_trans_id)
    return ({**answers.contract(message, amount, verdict=answers.Verdict.NOT_PAID),
             "refused": exc.reason, "previous_app_trans_id": exc.app_trans_id},
            answers.EXIT_NOT_PAID, None)
