"""Server-to-server callbacks: paid on the emulator's page, POSTed to the merchant, retried.

The merchant here is a real HTTP listener on loopback; it checks each callback with the
terminal's verifier and answers what the verifier says (or what the test makes it answer).
"""

from __future__ import annotations

import hashlib
import hmac
import json
import threading
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import pytest
import requests

from pos_terminal.config import Settings
from pos_terminal.emulator import start_emulator
from pos_terminal.wallets.zalopay.client import WalletClient
from pos_terminal.wallets.zalopay.ids import current_ms, new_app_trans_id
from pos_terminal.wallets.zalopay.messages import EmbedData, GatewayOrder, Item
from tests.conftest import reset_emulator
from tests.emulator.wirehelp import KEY2, create_form, post, wait_until

RETRY_DELAYS_S = (0.05, 0.05, 0.05)


@dataclass
class Merchant:
    """A merchant's callback endpoint: records every body, answers with ``answer(body)``."""

    answer: Callable[[bytes], tuple[int, bytes]]
    bodies: list[bytes] = field(default_factory=list)
    server: ThreadingHTTPServer | None = None

    @property
    def url(self) -> str:
        assert self.server is not None
        host, port = self.server.server_address[:2]
        return f"http://{host!s}:{port}/zalo/callback"


@pytest.fixture
def merchant_factory() -> Iterator[Callable[[Callable[[bytes], tuple[int, bytes]]], Merchant]]:
    started: list[Merchant] = []

    def start(answer: Callable[[bytes], tuple[int, bytes]]) -> Merchant:
        merchant = Merchant(answer)

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                body = self.rfile.read(int(self.headers.get("Content-Length", "0")))
                merchant.bodies.append(body)
                status, reply = merchant.answer(body)
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(reply)))
                self.end_headers()
                self.wfile.write(reply)

            def log_message(self, *args: object) -> None:
                pass

        merchant.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        threading.Thread(target=merchant.server.serve_forever, daemon=True).start()
        started.append(merchant)
        return merchant

    yield start
    for merchant in started:
        assert merchant.server is not None
        merchant.server.shutdown()
        merchant.server.server_close()


@pytest.fixture(scope="module")
def callback_emulator(base_settings: Settings) -> Iterator[Any]:
    settings = base_settings.replace_section(
        "emulator", callback_retry_delays_s=RETRY_DELAYS_S, callback_timeout_s=3.0)
    with start_emulator(settings, host="127.0.0.1", port=0) as server:
        yield server


@pytest.fixture
def emu(callback_emulator: Any) -> Any:
    return reset_emulator(callback_emulator)


@pytest.fixture
def client(base_settings: Settings, emu: Any) -> Iterator[WalletClient]:
    service = base_settings.replace_service(base_url=emu.base_url, gateway_url=emu.base_url,
                                            generation="v2").service
    with WalletClient(service) as wallet:
        yield wallet


def _callbacks(base_url: str, app_trans_id: str) -> list[dict[str, Any]]:
    data = requests.get(f"{base_url}/_emulator/callbacks",
                        params={"app_trans_id": app_trans_id}, timeout=5).json()
    return list(data["callbacks"])


def _pay(order_url: str, wallet: str = "an") -> requests.Response:
    return requests.post(order_url + "/pay", data={"wallet": wallet, "bankcode": "zalopayapp"},
                         allow_redirects=False, timeout=5)


def _order(client: WalletClient, callback_url: str, amount: int = 64_000) -> GatewayOrder:
    now = current_ms()
    return GatewayOrder(app_trans_id=new_app_trans_id("cb", now), app_user="web-shop",
                        app_time=now, amount=amount, description="Tea for two",
                        bank_code="zalopayapp", callback_url=callback_url,
                        items=(Item("t1", "Tea", 32_000, 2),),
                        embed_data=EmbedData(merchantinfo="table 4"))


def test_round_trip_paid_on_the_page_callback_verified_by_the_terminal(
        emu: Any, client: WalletClient, merchant_factory: Any) -> None:
    verdicts: list[Any] = []

    def verify(body: bytes) -> tuple[int, bytes]:
        result = client.verify_callback(body)
        verdicts.append(result)
        return 200, json.dumps(dict(result.reply)).encode()

    merchant = merchant_factory(verify)
    order = _order(client, merchant.url)
    created = client.create_order(order)
    assert created.order_url is not None
    assert _pay(created.order_url).status_code == 303

    wait_until(lambda: len(verdicts) == 1)
    result = verdicts[0]
    assert result.valid, result.reason
    assert result.type == 1
    assert (result.app_trans_id, result.amount) == (order.app_trans_id, 64_000)
    assert result.data["app_id"] == 2553
    assert result.data["app_user"] == "web-shop"
    assert result.data["item"] == '[{"itemid":"t1","itemname":"Tea","itemprice":32000,' \
                                  '"itemquantity":2}]'
    assert result.data["embed_data"] == '{"merchantinfo":"table 4"}'
    assert result.zp_trans_id == str(client.query_status(order.app_trans_id).zp_trans_id)
    # the envelope as sent: data string + mac over it with key2, type 1
    envelope = json.loads(merchant.bodies[0])
    assert set(envelope) == {"data", "mac", "type"}
    assert envelope["mac"] == hmac.new(KEY2.encode(), envelope["data"].encode(),
                                       hashlib.sha256).hexdigest()

    [delivery] = wait_until(lambda: [d for d in _callbacks(emu.base_url, order.app_trans_id)
                                     if d["state"] != "sending"])
    assert delivery["state"] == "delivered"
    assert delivery["url"] == merchant.url
    [attempt] = delivery["attempts"]
    assert (attempt["number"], attempt["http_status"], attempt["return_code"],
            attempt["outcome"]) == (1, 200, 1, "accepted")
    assert attempt["at"].endswith("Z") and attempt["at_ms"] > 0


def test_a_failing_merchant_sees_the_retries_and_the_control_api_shows_them(
        emu: Any, client: WalletClient, merchant_factory: Any) -> None:
    merchant = merchant_factory(lambda body: (500, b'{"error": "database down"}'))
    order = _order(client, merchant.url)
    created = client.create_order(order)
    assert created.order_url is not None
    _pay(created.order_url)

    [delivery] = wait_until(lambda: [d for d in _callbacks(emu.base_url, order.app_trans_id)
                                     if d["state"] == "failed"])
    attempts = delivery["attempts"]
    assert [a["number"] for a in attempts] == [1, 2, 3, 4]  # the first and 3 retries
    assert {(a["http_status"], a["error"], a["outcome"]) for a in attempts} == {
        (500, "HTTP 500", "retry")}
    assert len(merchant.bodies) == 4
    assert len(set(merchant.bodies)) == 1  # the same signed callback each time
    assert [a["at_ms"] for a in attempts] == sorted(a["at_ms"] for a in attempts)


def test_return_code_0_is_retried_and_minus_1_is_not(
        emu: Any, client: WalletClient, merchant_factory: Any) -> None:
    answers = iter([(200, b'{"return_code": 0}'), (200, b"not json"),
                    (200, b'{"return_code": 1}')])
    merchant = merchant_factory(lambda body: next(answers))
    order = _order(client, merchant.url)
    _pay(client.create_order(order).order_url or "")
    [delivery] = wait_until(lambda: [d for d in _callbacks(emu.base_url, order.app_trans_id)
                                     if d["state"] != "sending"])
    assert delivery["state"] == "delivered"
    assert [(a["return_code"], a["outcome"]) for a in delivery["attempts"]] == [
        (0, "retry"), (None, "retry"), (1, "accepted")]

    rejecting = merchant_factory(lambda body: (200, b'{"return_code": -1}'))
    second = _order(client, rejecting.url)
    _pay(client.create_order(second).order_url or "")
    [delivery] = wait_until(lambda: [d for d in _callbacks(emu.base_url, second.app_trans_id)
                                     if d["state"] != "sending"])
    assert delivery["state"] == "rejected"
    assert len(delivery["attempts"]) == 1


def test_an_unreachable_callback_url_is_retried_with_the_error_shown(
        emu: Any, client: WalletClient) -> None:
    import socket

    with socket.socket() as probe:  # a port nothing listens on
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    order = _order(client, f"http://127.0.0.1:{port}/cb")
    _pay(client.create_order(order).order_url or "")
    [delivery] = wait_until(lambda: [d for d in _callbacks(emu.base_url, order.app_trans_id)
                                     if d["state"] == "failed"])
    assert len(delivery["attempts"]) == 4
    first = delivery["attempts"][0]
    assert first["http_status"] is None and first["error"]


def test_no_callback_when_the_payment_fails_or_no_url_is_known(
        emu: Any, client: WalletClient, merchant_factory: Any) -> None:
    merchant = merchant_factory(lambda body: (200, b'{"return_code": 1}'))
    declined = _order(client, merchant.url)
    _pay(client.create_order(declined).order_url or "", wallet="dung")  # insufficient balance
    no_url = _order(client, "")
    _pay(client.create_order(no_url).order_url or "")
    assert _callbacks(emu.base_url, declined.app_trans_id) == []
    assert _callbacks(emu.base_url, no_url.app_trans_id) == []
    assert merchant.bodies == []


def test_a_callback_url_on_another_host_is_accepted_never_called_and_shown_skipped(
        emu: Any, client: WalletClient, caplog: pytest.LogCaptureFixture) -> None:
    """As the public samples send it (a shop's own domain): the order is accepted, as the real
    service accepts it; that host is never called; the control API shows the callback as
    skipped and the log says so (the host only, never the URL's query)."""
    import logging

    caplog.set_level(logging.INFO, logger="pos_terminal.emulator.zalopay.callbacks")
    order = _order(client, "https://merchant.example/zalopay/callback?secret=s3cr3t")
    created = client.create_order(order)
    assert created.order_url
    assert _pay(created.order_url).status_code in (200, 302, 303)
    [delivery] = wait_until(lambda: _callbacks(emu.base_url, order.app_trans_id))
    assert delivery["state"] == "skipped" and delivery["attempts"] == []
    assert "merchant.example" in delivery["note"] and "callback_hosts" in delivery["note"]
    wait_until(lambda: "merchant.example" in caplog.text)
    assert "s3cr3t" not in caplog.text


def test_a_callback_url_that_is_not_http_is_refused(emu: Any) -> None:
    answer = post(emu.base_url, "/v2/create",
                  create_form("v2", extra={"callback_url": "ftp://shop.example/cb"}))
    assert answer["sub_return_code"] == -401
    assert "callback_url must be an http(s) URL" in answer["sub_return_message"]


def test_legacy_orders_use_the_callback_url_registered_for_the_application(
        base_settings: Settings, merchant_factory: Any) -> None:
    merchant = merchant_factory(lambda body: (200, b'{"return_code": 1}'))
    settings = base_settings.replace_section(
        "emulator", callback_url=merchant.url, callback_retry_delays_s=RETRY_DELAYS_S)
    with start_emulator(settings, host="127.0.0.1", port=0) as server:
        form = create_form("v001", bank_code="zalopayapp", amount=90_000)
        created = post(server.base_url, "/v001/tpe/createorder", form)
        assert created["returncode"] == 1, created
        _pay(created["orderurl"])
        wait_until(lambda: merchant.bodies)
        envelope = json.loads(merchant.bodies[0])
        data = json.loads(envelope["data"])
        assert (data["appid"], data["apptransid"], data["amount"]) == (
            2553, form["apptransid"], 90_000)
        assert envelope["mac"] == hmac.new(KEY2.encode(), envelope["data"].encode(),
                                           hashlib.sha256).hexdigest()
