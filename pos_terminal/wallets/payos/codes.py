"""payOS's request statuses and what each says about the money (shared/spec/payos.md,
"Statuses"). The money is in `amountPaid`, not in the status: a closed request (cancelled,
expired) with money in it is a payment for the cashier to handle, never "not paid"; a status not
listed here says nothing."""

from __future__ import annotations

from pos_terminal.base.wallet_types import WalletOutcome

PAID = "PAID"
PENDING = "PENDING"
PROCESSING = "PROCESSING"
UNDERPAID = "UNDERPAID"
EXPIRED = "EXPIRED"
CANCELLED = "CANCELLED"

#: status -> the outcome when no money arrived (UNDERPAID always has some: never PAID)
STATUSES: dict[str, WalletOutcome] = {
    PAID: WalletOutcome.PAID,
    PENDING: WalletOutcome.PROCESSING,
    PROCESSING: WalletOutcome.PROCESSING,
    UNDERPAID: WalletOutcome.PROCESSING,
    EXPIRED: WalletOutcome.DECLINED,
    CANCELLED: WalletOutcome.DECLINED,
}
CLOSED = frozenset({EXPIRED, CANCELLED})


def outcome(status: str, amount: int, amount_paid: int) -> WalletOutcome:
    """What a request's status and its money mean for the sale: PAID only with all of it (a
    closed request too: the transfer landed late); a closed request holding part of it is not
    "not paid" (PROCESSING: it stays for the cashier)."""
    found = STATUSES.get(status)
    if found is None:
        return WalletOutcome.REFUSED_REQUEST  # not listed: no information
    if found is WalletOutcome.PAID and amount_paid < amount:
        return WalletOutcome.PROCESSING
    if status in CLOSED and amount_paid >= amount:  # all of it arrived after all: a late payment
        return WalletOutcome.PAID
    if status in CLOSED and amount_paid > 0:
        return WalletOutcome.PROCESSING
    return found
