"""Which wallet providers a checkout speaks to: the one place the checkout meets them.

The checkout knows only its wallet port (checkout/ports.py) and `Providers`, the wallets by name
(checkout/providers.py); the counter, which puts the terminal together, builds the configured
ones here, each as its declaration says (pos_terminal/wallet_registry.py): a new wallet changes
nothing here (docs/architecture.md, "Adding a wallet").
"""

from __future__ import annotations

from pos_terminal.checkout import Checkout
from pos_terminal.checkout.ports import CheckoutJournal, WalletPort
from pos_terminal.checkout.providers import Provider, Providers
from pos_terminal.config import Settings
from pos_terminal.wallet_registry import wallet as declared


def wallet_for(settings: Settings) -> WalletPort:
    """ZaloPay's client as `[service]` configures it, ready to call (no I/O yet)."""
    return client_of("zalopay", settings)


def client_of(name: str, settings: Settings) -> WalletPort:
    """Wallet `name`'s client as its declaration builds it from `settings` (no I/O yet)."""
    client: WalletPort = declared(name).build_client(settings)
    return client


def providers_for(settings: Settings) -> Providers:
    """Every wallet the counter takes (Settings.wallets), each with its code pattern."""
    made: list[Provider] = []
    try:
        for name in settings.wallets:
            made.append(Provider(name, client_of(name, settings), settings.code_pattern(name)))
    except BaseException:
        for provider in made:
            provider.wallet.close()
        raise
    return Providers(made)


def open_checkout(settings: Settings, client: WalletPort | Providers | None = None,
                  journal: CheckoutJournal | None = None) -> Checkout:
    """A Checkout of `settings` over `client` (None: the configured providers, closed with the
    Checkout) and `journal` (None: the configured journal, likewise)."""
    if client is not None:
        return Checkout(settings, client, journal)
    own = providers_for(settings)
    try:
        return Checkout(settings, own, journal, owns_client=True)
    except BaseException:
        own.close()
        raise


__all__ = ["client_of", "open_checkout", "providers_for", "wallet_for"]
