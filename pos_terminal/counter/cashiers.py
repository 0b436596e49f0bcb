"""Who is at the counter: a signed-in cashier and their shift, and the cashier book of the
counter's journal. PINs pass through here on their way to `Cashiers.verify_pin` and nowhere
else: never logged, never kept."""

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


def cashier_book(journal: Journal, settings: Settings) -> Cashiers:
    return Cashiers(journal, max_attempts=settings.cashiers.max_attempts,
                    lockout_s=settings.cashiers.lockout_s)


class AuthorityRequired(CashierError):
    """Money would leave without a supervisor's authority once one is set up."""


def supervisor_authority(book: Cashiers, supervisor_id: str | None,
                         pin: str | None) -> str | None:
    """The supervisor who authorises a refund (their id, after their PIN is checked with the
    book's attempt counter and lock-out), or None when no supervisor is set up at all (anyone
    may: the shop has chosen no supervisor). Raises AuthorityRequired without an id and PIN,
    and the book's CashierError (wrong PIN, locked, not a supervisor) otherwise."""
    if not book.any_supervisor():
        return None
    if not supervisor_id or not pin:
        raise AuthorityRequired(_("A supervisor must authorise this refund: send the "
                                  "supervisor's id and PIN. Nothing was sent."))
    return book.require_supervisor(pin, supervisor_id).id


def asking_cashier(book: Cashiers, cashier_id: str) -> str:
    """A cashier named as the one asking for a refund (an active one of this journal)."""
    cashier = book.get(cashier_id)
    if not cashier.active:
        raise CashierError(_("Cashier {cashier_id} ({name}) was removed.").format(
            cashier_id=repr(cashier_id), name=cashier.name))
    return cashier.id
