"""Who is at the counter: the signed-in cashier and their shift, and the cashier book of the
App's journal. PINs pass through here on their way to `Cashiers.verify_pin` and nowhere else:
never logged, never shown, never kept."""

from __future__ import annotations

from dataclasses import dataclass

from pos_terminal.base.i18n import _
from pos_terminal.config import Settings
from pos_terminal.journal import Journal
from pos_terminal.journal.cashiers import (
    Cashier,
    CashierError,
    CashierLocked,
    Cashiers,
    NotSupervisor,
    PinRejected,
    Shift,
    UnknownCashier,
)
from pos_terminal.tui.format import vn_time

ADD_SUPERVISOR = "pos-terminal cashier add ID --name NAME --supervisor"


@dataclass(frozen=True)
class SignedIn:
    cashier: Cashier
    shift: Shift


def cashier_book(journal: Journal, settings: Settings) -> Cashiers:
    return Cashiers(journal, max_attempts=settings.cashiers.max_attempts,
                    lockout_s=settings.cashiers.lockout_s)


def active_supervisors(book: Cashiers) -> list[Cashier]:
    return [c for c in book.all(include_removed=False) if c.is_supervisor]


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
                 "unlock it now: pos-terminal cashier unlock {id}").format(
                     id=cashier_id, time=vn_time(exc.locked_until_ms))
    if isinstance(exc, UnknownCashier):
        return _("There is no active cashier {id}: check the id (a supervisor can list them: "
                 "pos-terminal cashier list).").format(id=cashier_id)
    if isinstance(exc, NotSupervisor):
        return _("{id} is not a supervisor: a supervisor must type their own id and PIN.").format(
            id=cashier_id)
    return exc.message


def sign_in(book: Cashiers, cashier_id: str, pin: str) -> SignedIn:
    """Blocking (scrypt): check the PIN, then open (or resume) the cashier's shift.

    Raises CashierError; `refusal` says it to the cashier."""
    cashier = book.verify_pin(cashier_id, pin)
    return SignedIn(cashier, book.open_shift(cashier.id))
