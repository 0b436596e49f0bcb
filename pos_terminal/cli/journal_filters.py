"""The journal commands' filters: the days (--from, --to, Vietnam time) and the states
(--state) of the rows listed or exported, typed by what is read: a payment's states
(PaymentState) or a refund's (RefundState), never one for the other."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any, Generic, TypeVar

import click

from pos_terminal import wallet_registry
from pos_terminal.base.clock import VN_TZ
from pos_terminal.base.i18n import _
from pos_terminal.cli.money_common import fail
from pos_terminal.counter.types import PaymentState, RefundState

S = PaymentState
#: States a payment row can be in (NEW is before the intent).
STATE_NAMES = [s.value for s in PaymentState if s is not PaymentState.NEW]
#: States a refund row can be in.
REFUND_STATE_NAMES = [s.value for s in RefundState if s is not RefundState.NEW]

St = TypeVar("St", PaymentState, RefundState)


def _day_start_ms(text: str, option: str, as_json: bool) -> int:
    try:
        day = datetime.strptime(text, "%Y-%m-%d").replace(tzinfo=VN_TZ)
    except ValueError:
        fail(_("{option} {text} is not a date like 2026-11-21 (Vietnam time)").format(
                   option=option, text=repr(text)),
             as_json=as_json)
    return int(day.timestamp() * 1000)


@dataclass(frozen=True)
class Rows(Generic[St]):
    """Which rows: created on these days, in these states (a payment's or a refund's)."""

    since_ms: int | None
    until_ms: int | None
    states: list[St] | None


def payment_rows(since: str | None, until: str | None, states: tuple[str, ...],
             as_json: bool) -> Rows[PaymentState]:
    """Payments' filters: their days and states."""
    return Rows(*_days(since, until, as_json), [S(s) for s in states] or None)


def refund_rows(since: str | None, until: str | None, states: tuple[str, ...],
                    as_json: bool) -> Rows[RefundState]:
    """Refunds' filters: their days and a refund's states (a payment's alone is refused)."""
    wrong = [s for s in states if s not in REFUND_STATE_NAMES]
    if wrong:
        fail(_("--state {state} is a payment's state; a refund is {states}.").format(
            state=wrong[0], states=", ".join(REFUND_STATE_NAMES)), as_json=as_json,
            field="state")
    return Rows(*_days(since, until, as_json), [RefundState(s) for s in states] or None)


def _days(since: str | None, until: str | None, as_json: bool) -> tuple[int | None, int | None]:
    since_ms = None if since is None else _day_start_ms(since, "--from", as_json)
    until_start = None if until is None else _day_start_ms(until, "--to", as_json)
    if since_ms is not None and until_start is not None and since_ms > until_start:
        fail(_("--from {since} is after --to {until}: no day could match. Give --from on or "
               "before --to.").format(since=since, until=until), as_json=as_json, field="from")
    return since_ms, (None if until_start is None
                      else until_start + int(timedelta(days=1).total_seconds() * 1000))


_day_options = [
    click.option("--from", "--since", "since", default=None, metavar="YYYY-MM-DD",
                 help="First day (Vietnam time)."),
    click.option("--to", "--until", "until", default=None, metavar="YYYY-MM-DD",
                 help="Last day, included (Vietnam time)."),
]


def with_payment_filters(f: Callable[..., Any]) -> Callable[..., Any]:
    """--from, --to and a payment's --state."""
    return with_days(click.option("--state", "states", multiple=True,
                                   type=click.Choice(STATE_NAMES),
                                   help="Only these states; repeatable.")(f))


class WalletChoice(click.Choice[str]):
    """The known wallets' names (pos_terminal/wallet_registry.py), read when a command runs:
    an installed wallet is a choice without any change here."""

    def __init__(self) -> None:
        super().__init__((), case_sensitive=False)

    @property
    def choices(self) -> tuple[str, ...]:
        return wallet_registry.names()

    @choices.setter
    def choices(self, _value: object) -> None:
        pass


with_provider = click.option(
    "--provider", default=None, type=WalletChoice(),
    help="Only the rows of this wallet.")


def with_days(f: Callable[..., Any]) -> Callable[..., Any]:
    """--from and --to."""
    for option in reversed(_day_options):
        f = option(f)
    return f


def with_export_filters(f: Callable[..., Any]) -> Callable[..., Any]:
    """--from, --to and the --state of a payment or (with --what refunds) of a refund."""
    return with_days(click.option(
        "--state", "states", multiple=True,
        type=click.Choice(list(dict.fromkeys(STATE_NAMES + REFUND_STATE_NAMES))),
        help="Only these states (a payment's, or with --what refunds a refund's: "
             "refunding, refunded, failed); repeatable.")(f))
