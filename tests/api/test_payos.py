"""A VietQR sale through the Terminal API (`"method": "qr"`), against the emulator's payOS
part: answered once shown with its qr_content, then followed by sale_ref until the bank app's
transfer arrives; the same sale_ref again answers with the same payment; paid in part is never
paid (what arrived and what is missing)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from pos_terminal.config import Settings
from tests.api.conftest import Api, start_api, wait_until
from tests.wallets.payos_help import bank_app, with_payos


@pytest.fixture
def payos_api(settings: Settings, emulator: object) -> Iterator[Api]:
    running, stop = start_api(with_payos(settings, emulator), emulator)
    try:
        yield running
    finally:
        stop()


def _by_ref(api: Api, sale_ref: str) -> dict[str, Any]:
    found: dict[str, Any] = api.get("/v1/payments", params={"sale_ref": sale_ref}).json()
    return found


def test_a_qr_sale_is_shown_then_paid(payos_api: Api) -> None:
    body = {"amount": 60000, "sale_ref": "Q1", "method": "qr", "provider": "payos"}
    shown = payos_api.post("/v1/payments", body)
    assert shown.status_code == 200, shown.text
    answer = shown.json()
    assert answer["provider"] == "payos" and answer["qr_content"].startswith("000201")
    assert answer["outcome"] != "paid"
    again = payos_api.post("/v1/payments", body).json()
    assert again["app_trans_id"] == answer["app_trans_id"]
    bank_app(payos_api.emulator, "pay").join()
    wait_until("the transfer seen", lambda: _by_ref(payos_api, "Q1")["outcome"] == "paid")


def test_a_qr_sale_paid_in_part_says_what_arrived(payos_api: Api) -> None:
    body = {"amount": 60000, "sale_ref": "Q2", "method": "qr", "provider": "payos"}
    assert payos_api.post("/v1/payments", body).status_code == 200
    bank_app(payos_api.emulator, "pay", 25_000).join()
    wait_until("the part seen", lambda: _by_ref(payos_api, "Q2").get("amount_paid") == 25_000)
    part = _by_ref(payos_api, "Q2")
    assert part["outcome"] != "paid" and part["amount_missing"] == 35_000


@pytest.mark.parametrize("body,status", [
    # a QR sale with a payment code or items: which did the POS mean? Neither is charged
    ({"amount": 30000, "sale_ref": "H1", "method": "qr", "payment_code": "123456789012345678"},
     422),
    ({"amount": 30000, "sale_ref": "H2", "method": "qr",
      "items": [{"name": "Trà", "price": 30000, "quantity": 1}]}, 422),
    # methods the API does not know, or not as a JSON string
    ({"amount": 30000, "sale_ref": "H3", "method": "cash"}, 422),
    ({"amount": 30000, "sale_ref": "H4", "method": "QR"}, 422),
    ({"amount": 30000, "sale_ref": "H5", "method": 1}, 422),
])
def test_a_bad_qr_request_is_refused_and_nothing_is_made(payos_api: Api, body: dict[str, Any],
                                                         status: int) -> None:
    refused = payos_api.post("/v1/payments", body)
    assert refused.status_code == status, refused.text
    assert refused.json()["error"]["message"], refused.text  # a sentence, not a bare code
    assert "123456789012345678" not in refused.text  # the code is never echoed
    looked_up = payos_api.get("/v1/payments", params={"sale_ref": body["sale_ref"]})
    assert looked_up.status_code == 404, looked_up.text  # no payment, no QR at payOS
    assert payos_api.counter.journal.list_payments() == []
