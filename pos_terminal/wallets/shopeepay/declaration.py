"""ShopeePay as the terminal knows it: its declaration (pos_terminal/wallet_registry.py)."""

from __future__ import annotations

from typing import Any

from pos_terminal.wallet_registry import Capabilities, DemoCustomer, WalletDeclaration
from pos_terminal.wallets.shopeepay.codes import TABLE
from pos_terminal.wallets.shopeepay.settings import SHOPEEPAY_CODE_PATTERN, ShopeePaySettings


def client_for(settings: Any) -> Any:
    """ShopeePay's client as `[providers.shopeepay]` configures it (no I/O yet)."""
    from pos_terminal.wallets.shopeepay.client import Account
    from pos_terminal.wallets.shopeepay.wallet import ShopeePayWallet

    cfg = settings.providers.shopeepay
    if cfg is None:
        raise ValueError("[providers.shopeepay] is not configured")
    account = Account(
        base_url=cfg.base_url, client_id=cfg.client_id,
        secret_key=cfg.secret_key.get_secret_value(), merchant_ext_id=cfg.merchant_ext_id,
        store_ext_id=cfg.store_ext_id, timeout_s=cfg.timeout_s,
        connect_timeout_s=cfg.connect_timeout_s)
    return ShopeePayWallet(account, terminal_id=settings.terminal.terminal_id)


WALLET = WalletDeclaration(
    name="shopeepay",
    display_names={"en": "ShopeePay", "vi": "Ví ShopeePay"},
    receipt_names={"en": "ShopeePay", "vi": "ShopeePay"},
    section="providers.shopeepay",
    settings_model=ShopeePaySettings,
    default_code_pattern=SHOPEEPAY_CODE_PATTERN,
    code_letters="SPCspc",
    client="pos_terminal.wallets.shopeepay.declaration:client_for",
    secret_settings=("secret_key",),
    codes=TABLE,
    capabilities=Capabilities(customer_presented=True, shop_qr=False, hold_capture=False,
                              refund=True, partial_refund=True),
    emulator="pos_terminal.emulator.shopeepay.routes:PART",
    demo_customers=(
        DemoCustomer("spay-paid", "Ngoc (ShopeePay)", "pays at once"),
        DemoCustomer("spay-slow", "Quan (ShopeePay)", "slow processing, then paid"),
        DemoCustomer("spay-declined", "Vy (ShopeePay)", "insufficient balance"),
    ),
    fault_endpoints=("spay_pay", "spay_check", "spay_refund"),
    demo_settings="pos_terminal.emulator.shopeepay.service:demo_settings",
)
