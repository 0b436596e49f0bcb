"""Lotus Pay as pos-terminal knows it: its declaration, the value of this distribution's entry
point ``pos_terminal.wallets`` (pyproject.toml). Nothing of pos-terminal changes for it."""

from __future__ import annotations

from pos_terminal.wallet_registry import Capabilities, DemoCustomer, WalletDeclaration

from .codes import TABLE
from .sentences import ACCOUNT_FROZEN, SENTENCES
from .settings import LOTUS_CODE_PATTERN, LotusSettings

WALLET = WalletDeclaration(
    name="lotus",
    display_names={"en": "Lotus Pay", "vi": "Ví Sen"},
    section="providers.lotus",
    settings_model=LotusSettings,
    default_code_pattern=LOTUS_CODE_PATTERN,
    code_letters="LTlt",
    client="pos_wallet_lotus.wallet:client_for",
    secret_settings=("api_key",),
    codes=TABLE,
    capabilities=Capabilities(customer_presented=True, shop_qr=False, hold_capture=False,
                              refund=True, partial_refund=True),
    emulator="pos_wallet_lotus.emulator:PART",
    demo_customers=(
        DemoCustomer("lotus-paid", "Sen (Lotus Pay)", "pays at once"),
        DemoCustomer("lotus-slow", "Huệ (Lotus Pay)", "confirms in the app, then paid"),
        DemoCustomer("lotus-poor", "Cúc (Lotus Pay)", "insufficient balance"),
        DemoCustomer("lotus-frozen", "Đào (Lotus Pay)", ACCOUNT_FROZEN),
    ),
    fault_endpoints=("lotus_pay", "lotus_status", "lotus_refund", "lotus_refund_status"),
    sentences=SENTENCES,
)
