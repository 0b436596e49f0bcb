"""Who is at the counter: a signed-in cashier and their shift, and the cashier book of the
counter's journal. PINs pass through here on their way to `Cashiers.verify_pin` and nowhere
else: never logged, never kept."""

from __future__ import annotations

from dataclasses import dataclass

from pos_terminal.config import Settings
from pos_terminal.journal import Journal
from pos_terminal.journal.cashiers import Cashier, Cashiers, Shift


@dataclass(frozen=True)
class SignedIn:
    cashier: Cashier
    shift: Shift


def cashier_book(journal: Journal, settings: Settings) -> Cashiers:
    return Cashiers(journal, max_attempts=settings.cashiers.max_attempts,
                    lockout_s=settings.cashiers.lockout_s)
