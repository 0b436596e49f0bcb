"""A payment's lease comes from its own wallet's timeout (issue 31): a MoMo request may wait
30 s for its answer, so no other process may take over a MoMo payment before then; a ZaloPay
payment at the same counter keeps ZaloPay's shorter lease."""

from __future__ import annotations

from typing import Any

from pos_terminal.config import Settings
from pos_terminal.counter import open_checkout
from tests.conftest import fresh_code


def test_each_payment_s_lease_outlasts_its_own_wallet_s_timeout(both_settings: Settings,
                                                               emulator: Any) -> None:
    leases: dict[str, int] = {}
    with open_checkout(both_settings) as checkout:
        journal = checkout.journal
        real_claim = journal.claim_send

        def claim_send(app_trans_id: str, lease_ttl_ms: int) -> bool:  # observed, not changed
            leases[app_trans_id] = lease_ttl_ms
            return real_claim(app_trans_id, lease_ttl_ms)

        journal.claim_send = claim_send  # type: ignore[method-assign]
        momo = checkout.pay(45_000, emulator.control.momo_code("momo-paid"))
        zalo = checkout.pay(25_000, fresh_code(emulator, "an"))
    momo_cfg, service = both_settings.providers.momo, both_settings.service
    assert momo_cfg is not None and momo_cfg.timeout_s >= 30
    assert leases[momo.app_trans_id] > (momo_cfg.connect_timeout_s + momo_cfg.timeout_s) * 1000
    zalo_request_ms = (service.connect_timeout_s + service.timeout_s) * 1000
    assert zalo_request_ms < leases[zalo.app_trans_id] < leases[momo.app_trans_id]
    assert (momo.provider, zalo.provider) == ("momo", "zalopay")


def test_a_momo_checkout_without_its_settings_still_leases_past_30_s(settings: Settings) -> None:
    assert settings.providers.momo is None
    assert settings.request_s("momo") >= 30
    assert settings.request_s("zalopay") < settings.request_s("momo")
