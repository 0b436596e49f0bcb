"""Which wallet providers a checkout speaks to: the one place the checkout meets them.

The checkout knows only its wallet port (checkout/ports.py) and `Providers`, the wallets by name
(checkout/providers.py); the counter, which puts the terminal together, builds the configured
ones here: ZaloPay from `[service]`, MoMo from `[providers.momo]`. A third wallet is one more
line of `BUILDERS` (docs/architecture.md, "Adding a wallet").
"""

from __future__ import annotations

from collections.abc import Callable

from pos_terminal.checkout import Checkout
from pos_terminal.checkout.ports import CheckoutJournal, WalletPort
from pos_terminal.checkout.providers import Provider, Providers
from pos_terminal.config import Settings
from pos_terminal.wallets.momo import MomoAccount, MomoWallet
from pos_terminal.wallets.zalopay.adapter import ZaloPayWallet


def wallet_for(settings: Settings) -> ZaloPayWallet:
    """ZaloPay's client as `[service]` configures it, ready to call (no I/O yet)."""
    return ZaloPayWallet.connect(settings.service, terminal_id=settings.terminal.terminal_id,
                                 user_ip=settings.terminal.user_ip or None)


def momo_for(settings: Settings) -> MomoWallet:
    """MoMo's client as `[providers.momo]` configures it (no I/O yet)."""
    cfg = settings.providers.momo
    if cfg is None:
        raise ValueError("[providers.momo] is not configured")
    account = MomoAccount(
        base_url=cfg.base_url, partner_code=cfg.partner_code,
        access_key=cfg.access_key.get_secret_value(),
        secret_key=cfg.secret_key.get_secret_value(), public_key=cfg.public_key,
        store_id=cfg.store_id, store_name=cfg.store_name, auto_capture=cfg.auto_capture,
        timeout_s=cfg.timeout_s, connect_timeout_s=cfg.connect_timeout_s,
        lang=settings.terminal.language)
    return MomoWallet(account, terminal_id=settings.terminal.terminal_id)


#: How each provider's client is made from the settings, by the name journaled with its rows.
#: A third wallet is one more line here (its package, its settings, its emulator part).
BUILDERS: dict[str, Callable[[Settings], WalletPort]] = {
    "zalopay": wallet_for,
    "momo": momo_for,
}


def providers_for(settings: Settings) -> Providers:
    """Every wallet the counter takes (Settings.wallets), each with its code pattern."""
    made: list[Provider] = []
    try:
        for name in settings.wallets:
            made.append(Provider(name, BUILDERS[name](settings), settings.code_pattern(name)))
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


__all__ = ["BUILDERS", "momo_for", "open_checkout", "providers_for", "wallet_for"]
