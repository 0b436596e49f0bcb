"""payOS as the terminal knows it: its declaration (pos_terminal/wallet_registry.py)."""

from __future__ import annotations

from typing import Any

from pos_terminal.wallet_registry import Capabilities, WalletDeclaration
from pos_terminal.wallets.payos.settings import PAYOS_CODE_PATTERN, PayOSSettings


def client_for(settings: Any) -> Any:
    """payOS's client as `[providers.payos]` configures it (no I/O yet)."""
    from pos_terminal.wallets.payos.client import Account
    from pos_terminal.wallets.payos.wallet import PayOSWallet

    cfg = settings.providers.payos
    if cfg is None:
        raise ValueError("[providers.payos] is not configured")
    account = Account(
        base_url=cfg.base_url, client_id=cfg.client_id.get_secret_value(),
        api_key=cfg.api_key.get_secret_value(), checksum_key=cfg.checksum_key.get_secret_value(),
        timeout_s=cfg.timeout_s, connect_timeout_s=cfg.connect_timeout_s, expire_s=cfg.expire_s)
    return PayOSWallet(account, terminal_id=settings.terminal.terminal_id)


WALLET = WalletDeclaration(
    name="payos",
    display_names={"en": "payOS (VietQR)", "vi": "payOS (VietQR)"},
    receipt_names={"en": "VietQR (payOS)", "vi": "VietQR (payOS)"},
    section="providers.payos",
    settings_model=PayOSSettings,
    default_code_pattern=PAYOS_CODE_PATTERN,
    client="pos_terminal.wallets.payos.declaration:client_for",
    secret_settings=("client_id", "api_key", "checksum_key"),
    capabilities=Capabilities(customer_presented=False, shop_qr=True, shop_qr_cancels=True,
                              hold_capture=False, refund=False, partial_refund=False),
    emulator="pos_terminal.emulator.payos.routes:PART",
    fault_endpoints=("payos_create", "payos_get", "payos_cancel"),
    demo_settings="pos_terminal.emulator.payos.service:demo_settings",
    demo_page="/payos/bank",
    webhook="pos_terminal.wallets.payos.notices:order_of",
    register_webhook="pos_terminal.wallets.payos.notices:register",
)
