"""The official `payos` SDK (1.1.0) against the emulator's payOS part: its own requests (headers,
create signature, confirm-webhook) are accepted, and it accepts the emulator's answers (its
models forbid fields not listed; it checks every answer's signature) and its webhook notices
(its own verifier). Real HTTP, the SDK unchanged."""

from __future__ import annotations

import json
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest
import requests

from pos_terminal.emulator.payos.service import (
    DEMO_API_KEY,
    DEMO_CHECKSUM_KEY,
    DEMO_CLIENT_ID,
)
from pos_terminal.wallets.payos.signing import valid_data

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


class _Merchant:
    """A merchant's webhook endpoint on loopback: keeps every body, answers `status`."""

    def __init__(self, status: int = 200) -> None:
        bodies: list[bytes] = []
        self.bodies = bodies

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                bodies.append(self.rfile.read(int(self.headers["Content-Length"])))
                self.send_response(status)
                self.send_header("Content-Length", "0")
                self.end_headers()

            def log_message(self, *_args: object) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}/payos-hook"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def notice_of(self, order_code: int) -> bytes | None:
        return next((b for b in self.bodies if json.loads(b)["data"]["orderCode"] == order_code),
                    None)

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()


def test_the_sdk_registers_a_webhook_and_verifies_the_emulators_notices(
        emulator: object) -> None:
    """The SDK's confirm-webhook works against the emulator, and the SDK's own verifier takes
    the emulator's notices (the docs' sample first, then a transfer's): our signature is
    payOS's. A notice changed after signing is refused by it, as by the terminal."""
    merchant = _Merchant()
    try:
        sdk = _client(emulator)
        confirmed = sdk.webhooks.confirm(merchant.url)
        assert confirmed.webhook_url == merchant.url and confirmed.account_number
        sample = sdk.webhooks.verify(merchant.bodies[0])
        assert sample.order_code == 123 and sample.desc == "Thành công"
        sdk.payment_requests.create(_request(5151, 30_000))
        base = emulator.base_url  # type: ignore[attr-defined]
        requests.post(f"{base}/_emulator/payos/requests/5151/pay", json={"amount": 10_000},
                      timeout=30).raise_for_status()
        for _ in range(600):  # a bound for a loaded machine, not a timing claim
            body = merchant.notice_of(5151)
            if body is not None:
                break
            time.sleep(0.05)
        assert body is not None
        data = sdk.webhooks.verify(body)
        assert (data.order_code, data.amount, data.code) == (5151, 10_000, "00")
        notice = json.loads(body)
        assert valid_data(DEMO_CHECKSUM_KEY, notice["data"], notice["signature"])
        notice["data"]["amount"] = 30_000
        with pytest.raises(payos.WebhookError):
            sdk.webhooks.verify(notice)
    finally:
        merchant.close()


def test_a_webhook_url_that_does_not_answer_2xx_is_not_registered(emulator: object) -> None:
    merchant = _Merchant(status=500)
    try:
        with pytest.raises(payos.WebhookError):
            _client(emulator).webhooks.confirm(merchant.url)
        listed = requests.get(f"{emulator.base_url}/_emulator/payos/webhooks",  # type: ignore[attr-defined]
                              timeout=30).json()
        assert listed["url"] is None
    finally:
        merchant.close()
