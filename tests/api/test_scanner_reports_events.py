"""A payment that waits for the counter's scanner (and its abort), reports and receipts, the
event stream, and the OpenAPI document."""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from typing import Any

import pytest
import requests

from pos_terminal.config import Settings
from tests.api.conftest import Api, start_api, wait_until
from tests.scanners import SerialScanner


@pytest.fixture
def api_with_scanner(settings: Settings, emulator: object,
                     scanner: SerialScanner) -> Iterator[Api]:
    running, stop = start_api(settings, emulator, f"serial:{scanner.path}")
    try:
        yield running
    finally:
        stop()


def test_without_a_code_the_counters_scanner_is_waited_for_and_abort_stops_it(
        api_with_scanner: Api, scanner: SerialScanner) -> None:
    api = api_with_scanner
    answers: list[requests.Response] = []
    poster = threading.Thread(target=lambda: answers.append(
        api.post("/v1/payments", {"amount": 42000, "sale_ref": "scan-1"})))
    poster.start()
    wait_until("the sale waiting for a code", lambda: api.get(
        "/v1/payments", params={"sale_ref": "scan-1"}).json().get("state") == "waiting_for_code")
    busy = api.post("/v1/payments", {"amount": 1000, "sale_ref": "scan-2"})
    assert busy.status_code == 409 and busy.json()["error"]["code"] == "scanner_busy"
    aborted = api.post("/v1/payments/scan-1/abort", None).json()  # no app_trans_id yet
    poster.join(30)
    assert aborted["state"] == "aborted" and aborted["app_trans_id"] is None
    assert answers[0].status_code == 409 and answers[0].json()["error"]["code"] == "aborted"
    assert api.charges() == 0

    scanner.hold_up(api.wallet_code("an"))  # the customer shows the code this time
    paid = api.post("/v1/payments", {"amount": 42000, "sale_ref": "scan-1"}).json()
    scanner.take_away()
    assert (paid["state"], paid["sale_ref"], paid["amount"]) == ("succeeded", "scan-1", 42000)
    assert api.charges() == 1


def test_reports_and_receipts(api: Api) -> None:
    code = api.wallet_code("an")
    paid = api.post("/v1/payments", {"amount": 25000, "sale_ref": "rc-1",
                                     "payment_code": code}).json()
    declined = api.post("/v1/payments", {"amount": 25000, "sale_ref": "rc-2",
                                         "payment_code": api.wallet_code("dung")}).json()
    assert declined["state"] == "failed"
    x = api.get("/v1/reports/x").json()
    assert (x["kind"], x["sales_count"], x["sales_amount"]) == ("x", 1, 25000)
    receipt = api.get(f"/v1/receipts/{paid['app_trans_id']}", params={"lang": "vi"}).json()
    assert receipt["kind"] == "payment" and any("25.000" in line for line in receipt["lines"])
    assert any(paid["app_trans_id"] in line for line in receipt["lines"])
    none = api.get(f"/v1/receipts/{declined['app_trans_id']}")
    assert none.status_code == 409 and none.json()["error"]["code"] == "no_receipt"
    assert api.get("/v1/receipts/nosuch").json()["error"]["code"] == "not_found"
    z = api.post("/v1/reports/z", None).json()
    assert (z["kind"], z["sales_count"]) == ("z", 1) and z["number"] == 1
    assert api.get("/v1/reports/x").json()["sales_count"] == 0


def _events(api: Api, headers: dict[str, str], stop_at: str,
            into: list[dict[str, Any]]) -> None:
    with requests.get(api.url + "/v1/events", headers={**api.auth, **headers}, stream=True,
                      timeout=30) as answer:
        assert answer.headers["content-type"].startswith("text/event-stream")
        event: dict[str, Any] = {}
        for raw in answer.iter_lines(decode_unicode=True):
            if raw.startswith("id:"):
                event["id"] = int(raw[3:].strip())
            elif raw.startswith("data:"):
                event.update(json.loads(raw[5:].strip()))
            elif raw == "" and "type" in event:
                into.append(event)
                if event["type"] == stop_at:
                    return
                event = {}


def test_events_carry_the_payments_progress_with_ids_and_sale_ref(api: Api) -> None:
    seen: list[dict[str, Any]] = []
    reader = threading.Thread(target=_events, args=(api, {}, "payment_settled", seen))
    reader.start()
    wait_until("the stream open", lambda: api.server.terminal.feed.listening)
    code = api.wallet_code("an")
    paid = api.post("/v1/payments", {"amount": 25000, "sale_ref": "ev-1",
                                     "payment_code": code}).json()
    reader.join(30)
    kinds = [e["type"] for e in seen]
    assert kinds[0] == "payment_started" and kinds[-1] == "payment_settled"
    settled = seen[-1]
    assert (settled["sale_ref"], settled["app_trans_id"], settled["paid"]) == (
        "ev-1", paid["app_trans_id"], True)
    assert all(e["sale_ref"] == "ev-1" for e in seen if "sale_ref" in e)
    ids = [e["id"] for e in seen]
    assert ids == sorted(ids) and len(set(ids)) == len(ids)
    assert code not in json.dumps(seen, ensure_ascii=False)  # masked: ••••1234

    again: list[dict[str, Any]] = []  # a POS that reconnects misses nothing recent
    _events(api, {"Last-Event-ID": str(ids[0])}, "payment_settled", again)
    assert [e["id"] for e in again] == ids[1:]

    refunds: list[dict[str, Any]] = []  # from the last id seen: nothing in between is lost
    reader = threading.Thread(target=_events, args=(api, {"Last-Event-ID": str(ids[-1])},
                                                    "refund_settled", refunds))
    reader.start()
    api.post("/v1/refunds", {"app_trans_id": paid["app_trans_id"], "amount": 5000,
                             "refund_ref": "ev-1-r"})
    reader.join(30)
    assert (refunds[-1]["refund_ref"], refunds[-1]["refunded"], refunds[-1]["amount"]) == (
        "ev-1-r", True, 5000)


def test_openapi_document_is_served_and_describes_the_calls(api: Api) -> None:
    doc = requests.get(api.url + "/openapi.json", timeout=10).json()
    assert doc["openapi"].startswith("3.")
    paths = doc["paths"]
    for path, method in (("/v1/payments", "post"), ("/v1/payments", "get"),
                         ("/v1/payments/{app_trans_id}", "get"),
                         ("/v1/payments/{payment_id}/abort", "post"),
                         ("/v1/refunds", "post"), ("/v1/reports/x", "get"),
                         ("/v1/reports/z", "post"), ("/v1/receipts/{subject_id}", "get"),
                         ("/v1/events", "get"), ("/display", "get")):
        assert method in paths[path], (path, method)
    schemas = doc["components"]["schemas"]
    payment = schemas["PaymentIn"]
    assert set(payment["required"]) == {"amount", "sale_ref"}
    assert payment["additionalProperties"] is False
    assert {"amount", "sale_ref", "payment_code", "description", "items"} <= set(
        payment["properties"])
    assert "HTTPBearer" in doc["components"]["securitySchemes"]
    refusals = paths["/v1/payments"]["post"]["responses"]
    assert "ref_conflict" in refusals["409"]["description"]
    assert refusals["413"]["content"]["application/json"]["schema"]["$ref"].endswith("/ErrorOut")


def test_stopping_the_server_ends_open_event_streams(settings: Settings,
                                                     emulator: object) -> None:
    """The stream is closed cleanly by the server (not cut off after a grace period)."""
    running, stop = start_api(settings, emulator)
    ended = threading.Event()
    errors: list[BaseException] = []

    def listen() -> None:
        try:
            with requests.get(running.url + "/v1/events", headers=running.auth, stream=True,
                              timeout=60) as answer:
                for _line in answer.iter_lines():
                    pass
        except requests.RequestException as exc:
            errors.append(exc)
        ended.set()

    reader = threading.Thread(target=listen, daemon=True)
    reader.start()
    wait_until("the stream open", lambda: running.server.terminal.feed.listening > 0)
    stop()
    assert ended.wait(30), "the event stream did not end when the server stopped"
    assert errors == []
