"""`counter.cashiers`: who is at the counter (a signed-in cashier and their shift), the
cashier book of the counter's journal, and the supervisor who authorises a refund. PINs pass
through here on their way to `Cashiers.verify_pin` and nowhere else: never logged, never kept.

Its port is the journal file itself: the cashier book keeps its own rows (journal/cashiers.py)."""

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


class CashierService:
    """The cashiers of one counter; `at_counter` is who is signed in here (receipts, refunds
    and abandoned payments record them)."""

    def __init__(self, journal: Journal, settings: Settings) -> None:
        self._journal = journal
        self._settings = settings
        self.at_counter: str | None = None

    def book(self) -> Cashiers:
        """The cashier book of this counter's journal (PIN attempts and lock-out as set up)."""
        return cashier_book(self._journal, self._settings)

    def authorise(self, supervisor_id: str | None, pin: str | None) -> str | None:
        """Blocking (scrypt): the supervisor who authorises a refund, or None when no
        supervisor is set up (supervisor_authority; raises CashierError)."""
        return supervisor_authority(self.book(), supervisor_id, pin)

    def asking(self, cashier_id: str) -> str:
        """A cashier named by a front end without sign-in as the one asking (must be active)."""
        return asking_cashier(self.book(), cashier_id)

    def supervisors(self) -> list[Cashier]:
        return [c for c in self.book().all(include_removed=False) if c.is_supervisor]

    def open_shift_of(self, cashier_id: str) -> Shift | None:
        return self.book().open_shift_of(cashier_id)

    def sign_in(self, cashier_id: str, pin: str) -> SignedIn:
        """Blocking (scrypt): check the PIN, then open (or resume) the cashier's shift; the
        cashier is then the one at this counter. Raises CashierError (and the journal's)."""
        book = self.book()
        cashier = book.verify_pin(cashier_id, pin)
        signed = SignedIn(cashier, book.open_shift(cashier.id))
        self.at_counter = cashier.id
        return signed

    def sign_out(self, cashier_id: str) -> None:
        """Nobody is at the counter any more; then the shift is closed (which may raise)."""
        if self.at_counter == cashier_id:
            self.at_counter = None
        self.book().close_shift(cashier_id)
