"""The Terminal API on a counter taking ZaloPay and MoMo (issue 31): every payment answer and
event names its provider; a code no wallet takes is 422 `wallet_choice_needed` (nothing sent)
until the request's "provider" names the wallet; an unknown wallet is refused."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from pos_terminal.config import Settings
from tests.api.conftest import Api, start_api


@pytest.fixture
def both_api(both_settings: Settings, emulator: object) -> Iterator[Api]:
    running, stop = start_api(both_settings, emulator)
    try:
        yield running
    finally:
        stop()


def test_each_wallet_s_code_and_its_provider(both_api: Api) -> None:
    momo = both_api.emulator.control.momo
    zp = both_api.post("/v1/payments", {"amount": 25000, "sale_ref": "A1",
                                        "payment_code": both_api.wallet_code("an")})
    mm = both_api.post("/v1/payments", {
        "amount": 45000, "sale_ref": "A2",
        "payment_code": both_api.emulator.control.momo_code("momo-paid")})
    assert zp.status_code == mm.status_code == 200
    assert (zp.json()["provider"], mm.json()["provider"]) == ("zalopay", "momo")
    assert list(momo.orders) == [mm.json()["app_trans_id"]]
    by_ref = both_api.get("/v1/payments", params={"sale_ref": "A2"}).json()
    assert by_ref["provider"] == "momo"


def test_a_code_no_wallet_takes_needs_the_provider(both_api: Api) -> None:
    code = both_api.wallet_code("an") + "M"
    refused = both_api.post("/v1/payments", {"amount": 25000, "sale_ref": "B1",
                                             "payment_code": code})
    assert refused.status_code == 422
    error: dict[str, Any] = refused.json()["error"]
    assert error["code"] == "wallet_choice_needed" and code not in refused.text
    assert both_api.charges() == 0 and both_api.emulator.control.momo.requests["pay"] == 0
    unknown = both_api.post("/v1/payments", {"amount": 25000, "sale_ref": "B2",
                                             "payment_code": code, "provider": "shopeepay"})
    assert unknown.status_code == 422 and unknown.json()["error"]["code"] == "invalid_request"
    named = both_api.post("/v1/payments", {"amount": 25000, "sale_ref": "B3",
                                           "payment_code": code, "provider": "zalopay"})
    assert named.status_code == 200 and named.json()["provider"] == "zalopay"
    assert both_api.emulator.control.momo.requests["pay"] == 0
