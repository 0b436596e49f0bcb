"""What the cashier reads about signing in and supervisors (the counter checks the PINs:
Counter.sign_in, Counter.cashiers). PINs are never logged, never shown, never kept."""

from __future__ import annotations

from pos_terminal.base.i18n import _
from pos_terminal.counter.admin import (
    CashierError,
    CashierLocked,
    NotSupervisor,
    PinRejected,
    UnknownCashier,
)
from pos_terminal.tui.format import vn_time

ADD_SUPERVISOR = "pos-terminal cashier add ID --name NAME --supervisor"


def no_supervisor_notice() -> str:
    return _("No supervisor set up: anyone can refund or override. Add one: {command}").format(
        command=ADD_SUPERVISOR)


def refusal(exc: CashierError, cashier_id: str) -> str:
    """What the cashier reads when a PIN is refused: the cause and the next step."""
    if isinstance(exc, PinRejected):
        return _("Wrong PIN for {id}. Tries left before it is locked: {left}.").format(
            id=cashier_id, left=exc.attempts_left)
    if isinstance(exc, CashierLocked):
        return _("{id} is locked until {time} after too many wrong PINs. A supervisor can "
                 "unlock it now: Ctrl+U.").format(
                     id=cashier_id, time=vn_time(exc.locked_until_ms))
    if isinstance(exc, UnknownCashier):
        return _("There is no active cashier {id}: check the id (a supervisor can list them: "
                 "pos-terminal cashier list).").format(id=cashier_id)
    if isinstance(exc, NotSupervisor):
        return _("{id} is not a supervisor: a supervisor must type their own id and PIN.").format(
            id=cashier_id)
    return exc.message
