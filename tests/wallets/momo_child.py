"""A MoMo payment in a process of its own (the crash test SIGKILLs it at a pause point):
``python -m tests.wallets.momo_child CONFIG BASE_URL CODE AMOUNT AUTO_CAPTURE``."""

from __future__ import annotations

import sys
from pathlib import Path

from pos_terminal.checkout import Checkout
from pos_terminal.config import load_settings
from pos_terminal.emulator.momo import service as emulated
from pos_terminal.wallets.momo import MomoAccount, MomoWallet


def main(config: str, base_url: str, code: str, amount: str, auto_capture: str) -> None:
    settings = load_settings(Path(config), env={})
    account = MomoAccount(base_url=base_url, partner_code=emulated.DEMO_PARTNER_CODE,
                          access_key=emulated.DEMO_ACCESS_KEY,
                          secret_key=emulated.DEMO_SECRET_KEY,
                          public_key=settings.service.rsa_public_key,
                          auto_capture=auto_capture == "true")
    with Checkout(settings, MomoWallet(account, terminal_id="POS-01"), owns_client=True) as co:
        co.pay(int(amount), code)


if __name__ == "__main__":
    main(*sys.argv[1:])
