"""The official `payos` SDK (1.1.0) against the emulator's payOS part: its own requests (headers,
create signature) are accepted, and it accepts the emulator's answers (its models forbid fields
not listed; it checks every answer's signature). Real HTTP, the SDK unchanged."""

from __future__ import annotations

import time

import pytest
import requests

from pos_terminal.emulator.payos.service import (
    DEMO_API_KEY,
    DEMO_CHECKSUM_KEY,
    DEMO_CLIENT_ID,
)

payos = pytest.importorskip("payos")


def _client(emulator: object, api_key: str = DEMO_API_KEY) -> object:
    return payos.PayOS(client_id=DEMO_CLIENT_ID, api_key=api_key,
                       checksum_key=DEMO_CHECKSUM_KEY,
                       base_url=emulator.base_url,  # type: ignore[attr-defined]
                       timeout=10, max_retries=0)


def _request(order_code: int, amount: int = 50_000) -> object:
    from payos.types import CreatePaymentLinkRequest

    return CreatePaymentLinkRequest(
        order_code=order_code, amount=amount, description=f"DH{order_code}"[-9:],
        cancel_url="https://pos.example/c", return_url="https://pos.example/r",
        expired_at=int(time.time()) + 600)


def test_the_sdk_creates_gets_and_cancels(emulator: object) -> None:
    sdk = _client(emulator)
    created = sdk.payment_requests.create(_request(123456))
    assert created.order_code == 123456 and created.amount == 50_000
    assert created.status == "PENDING" and created.qr_code.startswith("000201")
    assert sdk.payment_requests.get(123456).status == "PENDING"
    cancelled = sdk.payment_requests.cancel(123456, "the customer left")
    assert cancelled.status == "CANCELLED" and cancelled.amount_paid == 0
    assert cancelled.cancellation_reason == "the customer left"


def test_the_sdk_reads_an_underpaid_then_paid_request(emulator: object) -> None:
    sdk = _client(emulator)
    sdk.payment_requests.create(_request(777, 40_000))
    base = f"{emulator.base_url}/_emulator/payos/requests/777/pay"  # type: ignore[attr-defined]
    requests.post(base, json={"amount": 15_000}, timeout=30).raise_for_status()
    underpaid = sdk.payment_requests.get(777)
    assert (underpaid.status, underpaid.amount_paid, underpaid.amount_remaining) == (
        "UNDERPAID", 15_000, 25_000)
    requests.post(base, json={}, timeout=30).raise_for_status()  # the rest
    paid = sdk.payment_requests.get(777)
    assert paid.status == "PAID" and paid.amount_paid == 40_000 and len(paid.transactions) == 2


def test_wrong_keys_are_refused(emulator: object) -> None:
    with pytest.raises(Exception) as caught:
        _client(emulator, api_key="wrong").payment_requests.get(1)
    assert "401" in str(caught.value) or "Unauthorized" in str(caught.value)
