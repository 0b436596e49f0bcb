"""A counter taking payOS too (its section as its declaration points it at the emulator's demo
merchant), and the emulator's "bank app" paying the QR the terminal shows."""

from __future__ import annotations

import threading
import time
from typing import Any

import requests

from pos_terminal import wallet_registry
from pos_terminal.config import Settings


def with_payos(settings: Settings, emulator: Any) -> Settings:
    declared = wallet_registry.wallet("payos")
    assert declared.demo_settings is not None
    values = wallet_registry.resolve(declared.demo_settings)(
        settings, emulator.base_url, emulator.gateway_url)
    return settings.replace_section(declared.section, **values, timeout_s=5.0,
                                    connect_timeout_s=1.0)


def shown(emulator: Any) -> list[dict[str, Any]]:
    answer = requests.get(f"{emulator.base_url}/_emulator/payos/requests", timeout=30)
    answer.raise_for_status()
    found: list[dict[str, Any]] = answer.json()["requests"]
    return found


def bank_app(emulator: Any, action: str, amount: int | None = None) -> threading.Thread:
    """In the background: wait for the terminal's QR, then `action` it ("pay", with `amount`
    or all of it; "expire"); "none" leaves it alone."""

    def act() -> None:
        for _ in range(600):  # a bound for a loaded machine, not a timing claim
            requests_shown = shown(emulator)
            if requests_shown:
                break
            time.sleep(0.05)
        else:
            return
        if action == "none":
            return
        code = requests_shown[0]["orderCode"]
        body = {} if amount is None else {"amount": amount}
        requests.post(f"{emulator.base_url}/_emulator/payos/requests/{code}/{action}",
                      json=body, timeout=30).raise_for_status()

    thread = threading.Thread(target=act, daemon=True)
    thread.start()
    return thread
