"""MoMo as the terminal knows it: its declaration (pos_terminal/wallet_registry.py)."""

from __future__ import annotations

from typing import Any

from pos_terminal.wallet_registry import Capabilities, DemoCustomer, WalletDeclaration
from pos_terminal.wallets.momo.codes import TABLE
from pos_terminal.wallets.momo.settings import MOMO_CODE_PATTERN, MomoSettings


def client_for(settings: Any) -> Any:
    """MoMo's client as `[providers.momo]` configures it (no I/O yet)."""
    from pos_terminal.wallets.momo.account import MomoAccount
    from pos_terminal.wallets.momo.wallet import MomoWallet

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


WALLET = WalletDeclaration(
    name="momo",
    display_names={"en": "MoMo wallet", "vi": "Ví MoMo"},
    receipt_names={"en": "MoMo", "vi": "Ví MoMo"},
    section="providers.momo",
    settings_model=MomoSettings,
    default_code_pattern=MOMO_CODE_PATTERN,
    code_letters="Mm",
    client="pos_terminal.wallets.momo.declaration:client_for",
    secret_settings=("access_key", "secret_key"),
    codes=TABLE,
    capabilities=Capabilities(customer_presented=True, shop_qr=False, hold_capture=True,
                              refund=True, partial_refund=True),
    emulator="pos_terminal.emulator.momo.routes:PART",
    demo_customers=(
        DemoCustomer("momo-paid", "Lan (MoMo)", "pays at once"),
        DemoCustomer("momo-slow", "Minh (MoMo)", "confirms in the app, then paid"),
        DemoCustomer("momo-poor", "Hoa (MoMo)", "insufficient balance"),
        DemoCustomer("momo-hold", "Tam (MoMo)", "held, then captured"),
    ),
    fault_endpoints=("momo_pay", "momo_query", "momo_refund", "momo_confirm"),
    demo_settings="pos_terminal.emulator.momo.service:demo_settings",
)
