"""ShopeePay through the Terminal API, against the emulator's ShopeePay part: a payment and
its refund answer with its provider (read from the registry, nothing ShopeePay's outside its
folders)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from pos_terminal.config import Settings
from tests.api.conftest import Api, start_api
from tests.wallets.shopeepay_help import code_of, with_shopeepay


@pytest.fixture
def spay_api(settings: Settings, emulator: object) -> Iterator[Api]:
    running, stop = start_api(with_shopeepay(settings, emulator), emulator)
    try:
        yield running
    finally:
        stop()


def test_a_shopeepay_payment_and_its_refund(spay_api: Api) -> None:
    spay = spay_api.emulator.control.part("shopeepay")
    code = code_of(spay_api.emulator, "spay-paid")
    paid = spay_api.post("/v1/payments", {"amount": 35000, "sale_ref": "S1",
                                          "payment_code": code})
    assert paid.status_code == 200, paid.text
    assert paid.json()["provider"] == "shopeepay" and paid.json()["state"] == "succeeded"
    assert code not in paid.text
    order = paid.json()["app_trans_id"]
    refund = spay_api.post("/v1/refunds", {"app_trans_id": order, "amount": 5000,
                                           "refund_ref": "S1-R1"})
    assert refund.status_code == 200, refund.text
    assert refund.json()["provider"] == "shopeepay"
    assert [spay.refunds[r].amount for r in spay.payments[order].refunds] == [5_000]
