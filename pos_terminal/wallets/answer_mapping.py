"""From a code table's class to the checkout's vocabulary, written once for every wallet: what
a payment's (or a check's) answer and a refund's answer mean for the money. A class that proves
nothing is REFUSED_REQUEST (the request said nothing about the money: ask again)."""

from __future__ import annotations

from pos_terminal.base.wallet_types import WalletOutcome
from pos_terminal.wallets.code_table import CodeClass

_CHARGE = {CodeClass.PAID: WalletOutcome.PAID, CodeClass.PROCESSING: WalletOutcome.PROCESSING,
           CodeClass.NOT_CHARGED: WalletOutcome.DECLINED,
           CodeClass.NOT_FOUND: WalletOutcome.NOT_FOUND}
_REFUND = {CodeClass.REFUNDED: WalletOutcome.PAID, CodeClass.PAID: WalletOutcome.PAID,
           CodeClass.PROCESSING: WalletOutcome.PROCESSING,
           CodeClass.NOT_CHARGED: WalletOutcome.DECLINED,
           CodeClass.NOT_FOUND: WalletOutcome.NOT_FOUND}


def charge_outcome(cls: CodeClass) -> WalletOutcome:
    """A payment's or a status query's answer of class `cls`."""
    return _CHARGE.get(cls, WalletOutcome.REFUSED_REQUEST)


def refund_outcome(cls: CodeClass) -> WalletOutcome:
    """A refund's or a refund check's answer of class `cls` (PAID: refunded)."""
    return _REFUND.get(cls, WalletOutcome.REFUSED_REQUEST)
