"""Who is at the counter: a signed-in cashier and their shift, the cashier book of the
counter's journal, and the supervisor's authority over money that leaves the merchant. PINs pass
through here on their way to `Cashiers.verify_pin` and nowhere else: never logged, never kept."""

from __future__ import annotations

from dataclasses import dataclass

from pos_terminal.base.i18n import _
from pos_terminal.config import Settings
from pos_terminal.journal import Journal
from pos_terminal.journal.cashiers import Cashier, CashierError, Cashiers, Shift


@dataclass(frozen=True)
class SignedIn:
    cashier: Cashier
    shift: Shift


class AuthorityNeeded(CashierError):
    """A supervisor exists, so money may not leave without one's id and PIN."""


def cashier_book(journal: Journal, settings: Settings) -> Cashiers:
    return Cashiers(journal, max_attempts=settings.cashiers.max_attempts,
                    lockout_s=settings.cashiers.lockout_s)


def authorise(book: Cashiers, supervisor_id: str | None, pin: str | None) -> str | None:
    """The id of the supervisor who authorises money leaving the merchant (a refund), after
    checking their PIN: a wrong one counts towards the same lock-out as a sign-in. None when no
    supervisor is set up (anyone may, so that a shop without one is not locked out).

    Raises AuthorityNeeded when a supervisor exists but no id and PIN were given, and the
    book's CashierError (unknown id, not a supervisor, locked, wrong PIN) otherwise."""
    if not book.any_supervisor():
        return None
    if not supervisor_id or not pin:
        raise AuthorityNeeded(_("A supervisor must authorise this: give a supervisor's id and "
                                "PIN."))
    return book.require_supervisor(pin, supervisor_id).id


def asking_cashier(book: Cashiers, cashier_id: str) -> str:
    """A cashier named as the one asking (an active one of this journal)."""
    cashier = book.get(cashier_id)
    if not cashier.active:
        raise CashierError(_("Cashier {cashier_id} ({name}) was removed.").format(
            cashier_id=repr(cashier_id), name=cashier.name))
    return cashier.id
