"""payOS's webhook through the Terminal API, for real: the emulator's payOS registers the API's
`/v1/webhooks/payos` (its sample notice answered 2xx), then POSTs a signed notice for every
transfer of its bank app. A transfer that lands after the QR closed is found at once, by the
notice alone (no reconciliation runs), as a late payment flagged for the cashier and published;
a forged notice is refused and changes nothing, a replayed one changes nothing and publishes
nothing, one about an order this journal does not know is received and does nothing; garbage
and oversized bodies get a sentence and are never echoed."""

from __future__ import annotations

import http.client
import json
import socket
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest
import requests

from pos_terminal.config import Settings
from pos_terminal.counter import (
    CounterEvent,
    PaymentProgress,
    PaymentSettled,
    PaymentUnresolved,
)
from pos_terminal.counter import background as background_reconciler
from pos_terminal.emulator.payos import webhooks as emulated
from pos_terminal.emulator.payos.service import (
    DEMO_API_KEY,
    DEMO_CHECKSUM_KEY,
    DEMO_CLIENT_ID,
)
from pos_terminal.wallets.payos.signing import data_signature
from tests.api.conftest import Api, start_api, wait_until
from tests.checkout.conftest import write_config
from tests.cli.conftest import Run, runner_for
from tests.wallets.payos_help import shown, with_payos

PATH = "/v1/webhooks/payos"


@pytest.fixture
def shop_cli(settings: Settings, emulator: Any, tmp_path: Path) -> Run:
    return runner_for(write_config(with_payos(settings, emulator), tmp_path / "pos.toml"))


@pytest.fixture
def shop(settings: Settings, emulator: Any, monkeypatch: pytest.MonkeyPatch,
         shop_cli: Run) -> Iterator[Api]:
    """A counter taking payOS behind the API, its webhook registered at the emulator by
    `pos-terminal register-webhook`; no background reconciliation within the test (only a
    notice can find a late transfer)."""
    monkeypatch.setattr(background_reconciler, "RECONCILE_EVERY_S", 3600.0)
    running, stop = start_api(with_payos(settings, emulator), emulator)
    try:
        registered = shop_cli("register-webhook", running.url + PATH, "--json")
        assert registered.exit_code == 0, registered.output  # the sample got a 2xx
        said = json.loads(registered.stdout)
        assert said["provider"] == "payos" and said["webhook_url"] == running.url + PATH
        yield running
    finally:
        stop()


def test_register_webhook_refuses_with_a_sentence(shop: Api, shop_cli: Run) -> None:
    wrong = shop_cli("register-webhook", shop.url + PATH, "--provider", "zalopay")
    assert wrong.exit_code == 2 and "zalopay" in wrong.stderr
    # an address where the sample is not answered 2xx: payOS registers nothing
    refused = shop_cli("register-webhook", shop.url + "/v1/webhooks/momo")
    assert refused.exit_code == 1 and "did not register" in refused.stderr, refused.output
    listed = requests.get(f"{shop.emulator.base_url}/_emulator/payos/webhooks", timeout=30)
    assert listed.json()["url"] == shop.url + PATH  # the earlier registration stands
    assert DEMO_API_KEY not in refused.output and DEMO_CHECKSUM_KEY not in refused.output


def _rows(api: Api) -> list[dict[str, Any]]:
    journal = api.counter.journal
    return [{**view.to_json(), "events": [str(e) for e in journal.events(view.app_trans_id)]}
            for view in journal.list_payments()]


def _deliveries(api: Api) -> list[dict[str, Any]]:
    found = requests.get(f"{api.emulator.base_url}/_emulator/payos/webhooks", timeout=30)
    found.raise_for_status()
    deliveries: list[dict[str, Any]] = found.json()["deliveries"]
    return deliveries


def _post(api: Api, body: bytes, path: str = PATH) -> requests.Response:
    return requests.post(api.url + path, data=body, timeout=30,
                         headers={"Content-Type": "application/json"})


class Published:
    """The payment events the counter's bus publishes (what /v1/events and the customer
    display are fed)."""

    def __init__(self, api: Api) -> None:
        self.events: list[CounterEvent] = []
        self.sub = api.counter.bus.subscribe(
            (PaymentProgress, PaymentSettled, PaymentUnresolved), self.events.append)

    def of(self, app_trans_id: str) -> list[CounterEvent]:
        assert self.sub.drain(30)
        return [e for e in self.events
                if getattr(e, "view", None) is not None
                and e.view.app_trans_id == app_trans_id]  # type: ignore[attr-defined]


def _qr_sale_given_up(api: Api, sale_ref: str) -> tuple[str, int]:
    """A QR sale whose request expired with nothing paid: (app_trans_id, orderCode)."""
    body = {"amount": 60000, "sale_ref": sale_ref, "method": "qr", "provider": "payos"}
    answer = api.post("/v1/payments", body)
    assert answer.status_code == 200, answer.text
    app_trans_id = answer.json()["app_trans_id"]
    code = next(r["orderCode"] for r in shown(api.emulator) if str(r["orderCode"]) == app_trans_id)
    requests.post(f"{api.emulator.base_url}/_emulator/payos/requests/{code}/expire", json={},
                  timeout=30).raise_for_status()
    wait_until("the QR seen closed", lambda: api.counter.payments.get(app_trans_id).is_final)
    view = api.counter.payments.get(app_trans_id)
    assert view.state.value == "failed" and not view.late
    return app_trans_id, code


def _pay_late(api: Api, code: int) -> None:
    """The customer's bank app transfers it all after the QR closed (the bank page's "Pay in
    full" posts this)."""
    requests.post(f"{api.emulator.base_url}/_emulator/payos/requests/{code}/pay", json={},
                  timeout=30).raise_for_status()


def test_a_transfer_after_the_qr_closed_is_found_by_the_notice_alone(shop: Api) -> None:
    published = Published(shop)
    app_trans_id, code = _qr_sale_given_up(shop, "W1")
    _pay_late(shop, code)
    wait_until("the notice delivered", lambda: any(
        d["orderCode"] == code and d["status"] == 200 for d in _deliveries(shop)))
    view = shop.counter.payments.get(app_trans_id)
    # found at once as money that arrived after the sale was given up: never lost, never
    # "not paid", flagged for the cashier (payOS returns nothing by itself)
    assert view.late and view.state.value == "succeeded" and view.needs_review
    seen = published.of(app_trans_id)
    assert seen and all(e.view.late for e in seen[-1:])  # type: ignore[attr-defined]
    answer = shop.get(f"/v1/payments/{app_trans_id}").json()
    assert answer["late"] is True and answer["outcome"] != "paid"


def test_an_open_qr_followed_by_nobody_learns_each_transfer_from_its_notice(shop: Api) -> None:
    """A QR shown and followed by no poller (the shop's own screen made it): a part transfer
    makes it say what arrived and what is missing (progress: a display keeps the QR up), the
    rest makes it paid; each found by its notice alone."""
    published = Published(shop)
    order = shop.counter.payments.create_gateway_order(45_000, provider="payos")
    app_trans_id = order.app_trans_id
    base = f"{shop.emulator.base_url}/_emulator/payos/requests/{app_trans_id}/pay"
    requests.post(base, json={"amount": 20_000}, timeout=30).raise_for_status()
    wait_until("the part seen", lambda: shop.counter.payments.get(app_trans_id).why.code
               == "shop_qr.underpaid")
    part = shop.counter.payments.get(app_trans_id)
    assert not part.is_final and part.why.params["missing"] == 25_000
    assert [type(e) for e in published.of(app_trans_id)] == [PaymentProgress]
    requests.post(base, json={}, timeout=30).raise_for_status()
    wait_until("the rest seen", lambda: shop.counter.payments.get(app_trans_id).is_final)
    paid = shop.counter.payments.get(app_trans_id)
    assert paid.state.value == "succeeded" and not paid.late and not paid.needs_review
    assert isinstance(published.of(app_trans_id)[-1], PaymentSettled)


def test_a_replayed_notice_changes_nothing_and_publishes_nothing(shop: Api) -> None:
    app_trans_id, code = _qr_sale_given_up(shop, "W2")
    _pay_late(shop, code)
    wait_until("the notice delivered", lambda: any(
        d["orderCode"] == code and d["status"] == 200 for d in _deliveries(shop)))
    notice = next(d["body"] for d in _deliveries(shop) if d["orderCode"] == code)
    wait_until("the late payment found", lambda: shop.counter.payments.get(app_trans_id).late)
    published = Published(shop)
    before = _rows(shop)
    for _ in range(3):
        again = _post(shop, notice.encode("utf-8"))
        assert again.status_code == 200 and again.json() == {"received": True}, again.text
    assert _rows(shop) == before
    assert published.of(app_trans_id) == []


def test_a_forged_notice_is_refused_and_changes_nothing(shop: Api) -> None:
    app_trans_id, code = _qr_sale_given_up(shop, "W3")
    before = _rows(shop)
    orders_asked = len(shown(shop.emulator))
    data = {**emulated.SAMPLE, "orderCode": code, "amount": 60000}
    forged = [
        # signed with a key that is not this counter's
        emulated.notice("0" * 64, data),
        # a real signature over other data
        {**emulated.notice(DEMO_CHECKSUM_KEY, {**data, "amount": 1}), "data": data},
        # no signature at all, or not a string
        {"code": "00", "desc": "success", "data": data},
        {"code": "00", "desc": "success", "data": data, "signature": 7},
    ]
    for number, body in enumerate(forged):
        refused = _post(shop, json.dumps(body).encode())
        assert refused.status_code in (403, 422), (number, refused.text)
        error = refused.json()["error"]
        assert error["code"] in ("notice_refused", "invalid_request") and error["message"]
        assert "VQRIO123" not in refused.text and str(code) not in refused.text  # no echo
    assert _rows(shop) == before
    assert shop.counter.payments.get(app_trans_id).state.value == "failed"
    assert len(shown(shop.emulator)) == orders_asked


def test_the_docs_sample_is_payos_own_and_an_unknown_order_is_received(shop: Api) -> None:
    body = emulated.notice(DEMO_CHECKSUM_KEY, emulated.SAMPLE)
    # payOS's documented sample, with the spec's worked key: its whole signature
    assert body["signature"] == ("412e915d2871504ed31be63c8f62a149"
                                 "a4410d34c4c42affc9006ef9917eaa03")
    assert data_signature(DEMO_CHECKSUM_KEY, emulated.SAMPLE) == body["signature"]
    answer = _post(shop, json.dumps(body, ensure_ascii=False).encode("utf-8"))
    assert answer.status_code == 200 and answer.json() == {"received": True}, answer.text
    assert shop.counter.journal.list_payments() == []


GARBAGE = [
    (PATH, b"not json at all", 400, "invalid_json"),
    (PATH, b'{"data": {}, "data": {}, "signature": "x"}', 400, "invalid_json"),
    (PATH, "{\"a\": 1}".encode("utf-16"), 400, "invalid_json"),
    (PATH, b'[1, 2]', 422, "invalid_request"),
    (PATH, b'{"data": [], "signature": "secret-sig-value"}', 422, "invalid_request"),
    (PATH, b'{"data": {"orderCode": 1}, "signature": "secret-sig-value"}', 403,
     "notice_refused"),
    # a signature that is no ASCII hex is simply not payOS's (never a 500)
    (PATH, '{"data": {"orderCode": 1}, "signature": "sécret-sig-value"}'.encode(), 403,
     "notice_refused"),
    (PATH, b'{"pad": "' + b"x" * 17_000 + b'"}', 413, "body_too_large"),
    ("/v1/webhooks/zalopay", b'{"data": {}, "signature": "secret-sig-value"}', 404,
     "not_found"),
    ("/v1/webhooks/nosuch", b'{"data": {}, "signature": "secret-sig-value"}', 404,
     "not_found"),
    ("/v1/webhooks/Bad-Name", b'{}', 422, "invalid_request"),
]


@pytest.mark.parametrize("path,body,status,code", GARBAGE,
                         ids=[f"{n}-{case[3]}" for n, case in enumerate(GARBAGE)])
def test_garbage_gets_a_sentence_and_is_never_echoed(shop: Api, path: str, body: bytes,
                                                     status: int, code: str) -> None:
    answer = _post(shop, body, path)
    assert answer.status_code == status, answer.text
    error = answer.json()["error"]
    assert error["code"] == code and error["message"].endswith(".")
    assert "secret-sig-value" not in answer.text and "xxxxxxxx" not in answer.text
    assert shop.counter.journal.list_payments() == []


def _raw(api: Api, request: bytes) -> bytes:
    parts = urlsplit(api.url)
    with socket.create_connection((parts.hostname, parts.port), timeout=30) as sock:
        sock.sendall(request)
        received = b""
        while True:
            chunk = sock.recv(65536)
            if not chunk:
                return received
            received += chunk


def test_a_hostile_client_over_raw_http(shop: Api) -> None:
    parts = urlsplit(shop.url)
    host = f"{parts.hostname}:{parts.port}".encode()
    # a chunked body that never ends: refused once past 16 kB, the connection closed
    chunk = b"4000\r\n" + b"{" * 0x4000 + b"\r\n"
    answer = _raw(shop, b"POST " + PATH.encode() + b" HTTP/1.1\r\nHost: " + host +
                  b"\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n" +
                  chunk * 3)
    assert answer.startswith(b"HTTP/1.1 413") and b"body_too_large" in answer
    # framed two ways: refused before the body is read
    answer = _raw(shop, b"POST " + PATH.encode() + b" HTTP/1.1\r\nHost: " + host +
                  b"\r\nContent-Length: 2\r\nTransfer-Encoding: chunked\r\n\r\n{}")
    assert answer.startswith(b"HTTP/1.1 400") and b"invalid_http" in answer
    # a notice that says it is big but sends little: refused from its header alone
    connection = http.client.HTTPConnection(parts.hostname or "", parts.port, timeout=30)
    connection.putrequest("POST", PATH)
    connection.putheader("Content-Length", str(10**9))
    connection.endheaders()
    refused = connection.getresponse()
    assert refused.status == 413 and b"body_too_large" in refused.read()
    connection.close()
    # the other methods: no notice there
    connection = http.client.HTTPConnection(parts.hostname or "", parts.port, timeout=30)
    connection.request("GET", PATH)
    assert connection.getresponse().status == 405
    connection.close()
    assert shop.counter.journal.list_payments() == []


def test_the_bank_page_never_waits_for_a_merchant_that_hangs(emulator: Any) -> None:
    """A registered URL that stops answering (after the sample) never undoes nor refuses the
    bank app's transfer: the notice goes in the background, is given up after its short
    timeout, and is listed as not delivered."""
    hanging = threading.Event()
    server = socket.create_server(("127.0.0.1", 0))
    port = server.getsockname()[1]

    def serve() -> None:
        first, _ = server.accept()  # the sample: answered 200
        first.recv(65536)
        first.sendall(b"HTTP/1.1 200 OK\r\nContent-Length: 0\r\nConnection: close\r\n\r\n")
        first.close()
        held, _ = server.accept()  # a notice: never answered
        hanging.wait(30)
        held.close()

    thread = threading.Thread(target=serve, daemon=True)
    thread.start()
    try:
        headers = {"x-client-id": DEMO_CLIENT_ID, "x-api-key": DEMO_API_KEY}
        confirmed = requests.post(f"{emulator.base_url}/confirm-webhook", headers=headers,
                                  json={"webhookUrl": f"http://127.0.0.1:{port}/hook"},
                                  timeout=30).json()
        assert confirmed["code"] == "00" and confirmed["data"]["webhookUrl"].endswith("/hook")
        from pos_terminal.emulator.payos.signatures import of_create

        body: dict[str, Any] = {"orderCode": 4242, "amount": 5000, "description": "POS4242",
                                "cancelUrl": "https://x.invalid/c",
                                "returnUrl": "https://x.invalid/r"}
        body["signature"] = of_create(DEMO_CHECKSUM_KEY, body)
        created = requests.post(f"{emulator.base_url}/v2/payment-requests", json=body,
                                headers=headers, timeout=30).json()
        assert created["code"] == "00", created
        paid = requests.post(f"{emulator.base_url}/_emulator/payos/requests/4242/pay",
                             json={}, timeout=30)
        assert paid.status_code == 200 and paid.json()["status"] == "PAID"
        sent = f"{emulator.base_url}/_emulator/payos/webhooks"
        wait_until("the notice given up", lambda: any(
            d["orderCode"] == 4242 and d["error"]
            for d in requests.get(sent, timeout=30).json()["deliveries"]))
    finally:
        hanging.set()
        server.close()
