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


def no_supervisor_notice() -> str:
    # Supervisors are added where the terminal is set up (the CLI, docs/commands.md): the
    # cashier's next step is to ask for one.
    return _("No supervisor set up: anyone can refund or override. Ask the shop owner to add "
             "a supervisor.")


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
        return _("There is no active cashier {id}: check the id, or ask your supervisor for "
                 "yours.").format(id=cashier_id)
    if isinstance(exc, NotSupervisor):
        return _("{id} is not a supervisor: a supervisor must type their own id and PIN.").format(
            id=cashier_id)
    return exc.message
