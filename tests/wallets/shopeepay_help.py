"""A counter taking ShopeePay too: its section as its declaration points it at the emulator's
demo merchant (the registry's `demo_settings`, as the demo does)."""

from __future__ import annotations

from typing import Any

from pos_terminal import wallet_registry
from pos_terminal.config import Settings


def with_shopeepay(settings: Settings, emulator: Any) -> Settings:
    declared = wallet_registry.wallet("shopeepay")
    assert declared.demo_settings is not None
    values = wallet_registry.resolve(declared.demo_settings)(
        settings, emulator.base_url, emulator.gateway_url)
    return settings.replace_section(declared.section, **values, connect_timeout_s=1.0)


def code_of(emulator: Any, customer: str) -> str:
    code: str = emulator.control.customer_code("shopeepay", customer)
    return code
