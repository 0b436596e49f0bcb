"""MoMo against the emulator over real HTTP: its account, its wallet, a Checkout over it."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from pos_terminal.checkout import Checkout
from pos_terminal.config import Settings
from pos_terminal.emulator.momo import service as emulated
from pos_terminal.wallets.momo import MomoAccount, MomoWallet


def momo_account(settings: Settings, emulator: Any, *, auto_capture: bool = True) -> MomoAccount:
    """The emulator's demo merchant (its public key is the emulator's pair, as for ZaloPay)."""
    return MomoAccount(base_url=emulator.base_url, partner_code=emulated.DEMO_PARTNER_CODE,
                       access_key=emulated.DEMO_ACCESS_KEY, secret_key=emulated.DEMO_SECRET_KEY,
                       public_key=settings.service.rsa_public_key, store_id="S01",
                       store_name="Cửa hàng thử", auto_capture=auto_capture,
                       connect_timeout_s=1.0)


def momo_checkout(settings: Settings, emulator: Any, *, auto_capture: bool = True) -> Checkout:
    wallet = MomoWallet(momo_account(settings, emulator, auto_capture=auto_capture),
                        terminal_id="POS-01")
    return Checkout(settings, wallet, owns_client=True)


@pytest.fixture
def momo(emulator: Any) -> emulated.MomoService:
    """The emulator's MoMo side (its books), reset with the emulator."""
    service: emulated.MomoService = emulator.control.momo
    return service


@pytest.fixture
def checkout(settings: Settings, emulator: Any) -> Iterator[Checkout]:
    co = momo_checkout(settings, emulator)
    yield co
    co.close()


@pytest.fixture
def two_step(settings: Settings, emulator: Any) -> Iterator[Checkout]:
    """A counter whose MoMo account captures by itself: auto_capture = false."""
    co = momo_checkout(settings, emulator, auto_capture=False)
    yield co
    co.close()


def add_fault(emulator: Any, **rule: Any) -> None:
    emulator.control.add_fault(**rule)
