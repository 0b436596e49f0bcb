"""Which wallet provider a checkout speaks to: the one place the checkout meets ZaloPay.

The checkout knows only its wallet port (checkout/ports.py); the counter, which puts the terminal
together, gives it the configured provider. Today that is ZaloPay (pos_terminal.wallet); a second
provider would be a package beside it, chosen here.
"""

from __future__ import annotations

from pos_terminal.checkout import Checkout
from pos_terminal.checkout.ports import CheckoutJournal, WalletPort
from pos_terminal.config import Settings
from pos_terminal.wallet.adapter import ZaloPayWallet


def wallet_for(settings: Settings) -> ZaloPayWallet:
    """The configured wallet provider, ready to call (no I/O yet)."""
    return ZaloPayWallet.connect(settings.service, terminal_id=settings.terminal.terminal_id,
                                 user_ip=settings.terminal.user_ip or None)


def open_checkout(settings: Settings, client: WalletPort | None = None,
                  journal: CheckoutJournal | None = None) -> Checkout:
    """A Checkout of `settings` over `client` (None: the configured provider, closed with the
    Checkout) and `journal` (None: the configured journal, likewise)."""
    if client is not None:
        return Checkout(settings, client, journal)
    own = wallet_for(settings)
    try:
        return Checkout(settings, own, journal, owns_client=True)
    except BaseException:
        own.close()
        raise


__all__ = ["open_checkout", "wallet_for"]
