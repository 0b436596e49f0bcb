"""`refund` (money back from a succeeded payment, through `counter.refunds`) and `override` (an
unresolved payment settled by hand, through `counter.payments`); both ask a supervisor's PIN
once a supervisor is set up."""

from __future__ import annotations

import click

from pos_terminal.base.amounts import parse_refund_amount
from pos_terminal.base.i18n import N_, _
from pos_terminal.base.reasons import Reason
from pos_terminal.cli.cashier_cmds import (
    PinReader,
    authorise,
    pin_stdin_option,
    signed_cashier,
    supervisor_option,
)
from pos_terminal.cli.common import load_settings_or_exit, print_json, stop_on_signals
from pos_terminal.cli.money_common import (
    answer_payment,
    counter_for,
    exit_with,
    fail,
    refund_line,
    unexpected,
)
from pos_terminal.counter import answers
from pos_terminal.counter.types import (
    CashierError,
    FieldError,
    IllegalTransition,
    InvalidPayment,
    JournalError,
    PaymentState,
    RefundNotAllowed,
    UnknownPayment,
    WalletError,
    refund_of,
)

S = PaymentState


@click.command("refund")
@click.argument("app_trans_id")
@click.option("--amount", "amount_text", default=None, metavar="N",
              help="VND to refund (default: everything that is left).")
@click.option("--description", default="", help="Reason shown on the refund.")
@click.option("--cashier", "cashier_id", default=None, metavar="ID",
              help="The cashier who asks for the refund (reports count it for them; default: "
                   "the cashier who took the payment).")
@click.option("--returned-by-shop", "by_shop", is_flag=True,
              help="Record money the shop already returned by its own bank transfer (a "
                   "wallet with no refund of its own: a bank transfer's QR); nothing is sent. "
                   "Needs --reason.")
@click.option("--reason", default=None,
              help="With --returned-by-shop: the shop's transfer (its reference).")
@click.option("--who", default=None,
              help="With --returned-by-shop: who decides (default: the authorising "
                   "supervisor, else the app_user).")
@supervisor_option
@pin_stdin_option
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")
@click.pass_context
def refund_cmd(ctx: click.Context, app_trans_id: str, amount_text: str | None,
               description: str, cashier_id: str | None, by_shop: bool, reason: str | None,
               who: str | None, supervisor_id: str | None, pin_stdin: bool,
               as_json: bool) -> None:
    """Refund a succeeded payment, in full or in part. Exit 0 refunded, 1 failed, 3 in progress.

    Once a supervisor is set up, a supervisor's PIN authorises it (--supervisor ID). The refund
    is journaled with who asked (--cashier) and who authorised it. With --returned-by-shop it
    records money the shop returned itself (nothing is sent to the wallet)."""
    settings = load_settings_or_exit(ctx)
    if by_shop and not (reason or "").strip():
        fail(_("--returned-by-shop needs --reason: the shop's bank transfer (its reference). "
               "Nothing was recorded."), as_json=as_json, field="reason")
    if reason is not None and not by_shop:
        fail(_("--reason goes with --returned-by-shop (a refund sent to the wallet takes "
               "--description). Nothing was sent."), as_json=as_json, field="reason")
    amount: int | None = None
    if amount_text is not None:
        refund_read = parse_refund_amount(amount_text)  # the one rule (base/amounts)
        if isinstance(refund_read, Reason):
            fail(str(refund_read), as_json=as_json, field="amount")
        amount = refund_read
    if cashier_id is not None:
        try:
            signed_cashier(settings, cashier_id, None)
        except CashierError as exc:
            fail(exc.message + " " + _("Nothing was sent."), as_json=as_json, field="cashier")
    authorised_by = authorise(settings, action=N_("refund"), supervisor_id=supervisor_id,
                              pins=PinReader(pin_stdin), as_json=as_json)
    with stop_on_signals() as stop, counter_for(settings, as_json, kind="refund",
                                                subject=lambda _c, exc: refund_of(exc)) as co:
        try:
            if by_shop:
                view = co.refunds.returned_by_shop(
                    app_trans_id, amount, reason or "",
                    who or authorised_by or settings.terminal.app_user, cashier_id=cashier_id,
                    authorised_by=authorised_by)
            else:
                view = co.refunds.create(app_trans_id, amount, description, cancel=stop.event,
                                         cashier_id=cashier_id, authorised_by=authorised_by)
        except (UnknownPayment, RefundNotAllowed, IllegalTransition) as exc:
            fail(exc.message, as_json=as_json)
        except (FieldError, InvalidPayment) as exc:
            fail(exc.message, as_json=as_json, field=exc.field)
        except (JournalError, WalletError) as exc:
            if refund_of(exc) is not None:  # after the refund's intent: answer with it
                unexpected(co, exc, as_json=as_json, kind="refund", subject=refund_of(exc),
                           amount=None)
            fail(exc.message, as_json=as_json)
    if as_json:
        print_json(answers.refund_answer(view, **({"signal": stop.name} if stop.name else {})))
    else:
        click.echo(refund_line(view))
    exit_with(answers.refund_exit(view))


@click.command("override")
@click.argument("app_trans_id")
@click.option("--mark", type=click.Choice(["paid", "failed"]), required=True,
              help="What you found in the merchant portal.")
@click.option("--reason", required=True, help="What you checked, and where.")
@click.option("--who", default=None,
              help="Who decides (default: the authorising supervisor, else the app_user).")
@supervisor_option
@pin_stdin_option
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")
@click.pass_context
def override_cmd(ctx: click.Context, app_trans_id: str, mark: str, reason: str,
                 who: str | None, supervisor_id: str | None, pin_stdin: bool,
                 as_json: bool) -> None:
    """Settle an unresolved payment by hand, as an explicit journaled event with its reason.

    Once a supervisor is set up, a supervisor's PIN authorises it (--supervisor ID)."""
    settings = load_settings_or_exit(ctx)
    target = S.SUCCEEDED if mark == "paid" else S.FAILED
    authorised_by = authorise(settings, action=N_("override a payment"),
                              supervisor_id=supervisor_id, pins=PinReader(pin_stdin),
                              as_json=as_json)
    with counter_for(settings, as_json) as co:
        try:
            view = co.payments.override(app_trans_id, target, reason,
                                        who or authorised_by or settings.terminal.app_user,
                                        cashier_id=authorised_by)
        except (UnknownPayment, IllegalTransition) as exc:
            fail(exc.message, as_json=as_json)
        except JournalError as exc:
            fail(exc.message, as_json=as_json)
    answer_payment(view, as_json)


def register(group: click.Group) -> None:
    for command in (refund_cmd, override_cmd):
        group.add_command(command)
