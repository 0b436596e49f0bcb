"""ZaloPay as the terminal knows it: its declaration (pos_terminal/wallet_registry.py).

Its settings are `[service]`, the external contract (config.ServiceSettings); its emulator part
is the emulator's ZaloPay service (emulator/zalopay/: both generations, the gateway and the bank
list)."""

from __future__ import annotations

from typing import Any

from pos_terminal.config import ZALOPAY_CODE_PATTERN, ServiceSettings
from pos_terminal.wallet_registry import Capabilities, DemoCustomer, WalletDeclaration
from pos_terminal.wallets.zalopay.code_table import TABLES


def client_for(settings: Any) -> Any:
    """ZaloPay's client as `[service]` configures it, ready to call (no I/O yet)."""
    from pos_terminal.wallets.zalopay.adapter import ZaloPayWallet

    return ZaloPayWallet.connect(settings.service, terminal_id=settings.terminal.terminal_id,
                                 user_ip=settings.terminal.user_ip or None)


def demo_settings(settings: Any, base_url: str, gateway_url: str) -> dict[str, object]:
    """`[service]` pointed at the demo's emulator (its keys are the emulator's already)."""
    return {"base_url": base_url, "gateway_url": gateway_url, "environment": "emulator"}


WALLET = WalletDeclaration(
    name="zalopay",
    display_names={"en": "ZaloPay", "vi": "ZaloPay"},
    section="service",
    settings_model=ServiceSettings,
    default_code_pattern=ZALOPAY_CODE_PATTERN,
    client="pos_terminal.wallets.zalopay.declaration:client_for",
    secret_settings=("key1", "key2"),
    codes=TABLES,
    # the gateway's hosted order is the shop-QR payment; a refund may be partial
    capabilities=Capabilities(customer_presented=True, shop_qr=True, hold_capture=False,
                              refund=True, partial_refund=True),
    emulator="pos_terminal.emulator.zalopay.routes:PART",
    demo_customers=(
        DemoCustomer("an", "An Nguyen", "pays at once"),
        DemoCustomer("binh", "Binh Tran", "slow processing, then paid"),
        DemoCustomer("chi", "Chi Le", "slow processing, then declined"),
        DemoCustomer("dung", "Dung Pham", "insufficient balance"),
        # README's steps 5 (W/B after 2 minutes) and 7 (override a payment that needs review)
        DemoCustomer("giang", "Giang Vo", "processing for over 2 minutes, then paid"),
        DemoCustomer("khoa", "Khoa Do", "charged, but the answer needs review"),
    ),
    fault_endpoints=("quick_pay", "query", "banks", "create", "refund", "query_refund"),
    demo_settings="pos_terminal.wallets.zalopay.declaration:demo_settings",
    negative_error_codes=True,  # its errors are negative return codes (docs/protocol.md)
)
