"""Every endpoint reads its fields from the query string, a form body or a JSON object body.

Requests are signed here field by field (tests/emulator/wirehelp.py), never with the client's
code, and sent the way the service's public clients send them.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import pytest
import requests

from tests.emulator.wirehelp import (
    APP_ID,
    CREATE_PATH,
    KEY1,
    QUERY_PATH,
    QUERY_REFUND_PATH,
    QUICK_PAY_PATH,
    REFUND_PATH,
    QuickPay,
    code_of,
    create_form,
    hmac_hex,
    ledger,
    new_refund_id,
    now_ms,
    post,
    query_form,
    query_refund_form,
    refund_form,
)

BANKS_PATH = "/api/getlistmerchantbanks"
ENDPOINTS = ("quick_pay", "query", "create", "refund", "query_refund", "banks")
TRANSPORTS = ("query", "form", "json")
# The fields JSON clients (the Node SDK) send as JSON numbers.
NUMERIC = frozenset({"app_id", "appid", "amount", "app_time", "apptime", "timestamp", "reqtime"})


@dataclass
class Signed:
    path: str
    fields: dict[str, str]
    generation: str | None  # None: the bank list (legacy names, no generation)


def _paid_zp(base_url: str) -> str:
    order = QuickPay(code=code_of(base_url, "an"))
    answer = post(base_url, QUICK_PAY_PATH["v2"], order.form("v2"))
    assert answer["return_code"] == 1, answer
    return str(answer["zp_trans_id"])


def _signed(base_url: str, endpoint: str, generation: str) -> Signed:
    """A correctly signed request of ``endpoint`` (its prerequisites created over form)."""
    if endpoint == "quick_pay":
        return Signed(QUICK_PAY_PATH[generation],
                      QuickPay(code=code_of(base_url, "an")).form(generation), generation)
    if endpoint == "query":
        order = QuickPay(code=code_of(base_url, "an"))
        post(base_url, QUICK_PAY_PATH["v2"], order.form("v2"))
        return Signed(QUERY_PATH[generation], query_form(generation, order.app_trans_id),
                      generation)
    if endpoint == "create":
        return Signed(CREATE_PATH[generation], create_form(generation), generation)
    if endpoint == "refund":
        return Signed(REFUND_PATH[generation], refund_form(generation, _paid_zp(base_url), 1000),
                      generation)
    if endpoint == "query_refund":
        refund_id = new_refund_id()
        post(base_url, REFUND_PATH["v2"], refund_form("v2", _paid_zp(base_url), 1000, refund_id))
        return Signed(QUERY_REFUND_PATH[generation], query_refund_form(generation, refund_id),
                      generation)
    reqtime = str(now_ms())
    return Signed(BANKS_PATH, {"appid": str(APP_ID), "reqtime": reqtime,
                               "mac": hmac_hex(KEY1, f"{APP_ID}|{reqtime}")}, None)


def _as_json(fields: dict[str, str]) -> dict[str, object]:
    """What a JSON client sends: ids, amounts and times as numbers, the rest as strings."""
    return {name: int(value) if name in NUMERIC else value for name, value in fields.items()}


def _send(base_url: str, signed: Signed, transport: str) -> requests.Response:
    url = base_url + signed.path
    if transport == "query":
        return requests.post(url, params=signed.fields, timeout=10)
    if transport == "form":
        return requests.post(url, data=signed.fields, timeout=10)
    if transport == "json":
        return requests.post(url, json=_as_json(signed.fields), timeout=10)
    if transport == "get":
        return requests.get(url, params=signed.fields, timeout=10)
    raise AssertionError(transport)


def _code(signed: Signed, answer: dict[str, Any]) -> int:
    """The deciding code: sub_return_code for v2 (negative on refusal), returncode otherwise."""
    if signed.generation == "v2":
        return int(answer["sub_return_code"])
    return int(answer["returncode"])


def _accepted(signed: Signed, response: requests.Response) -> dict[str, Any]:
    assert response.status_code == 200, response.text
    answer = response.json()
    assert _code(signed, answer) >= 1, answer
    return dict(answer)


CASES = [(e, g, t) for e in ENDPOINTS for g in (("v2", "v001") if e != "banks" else ("-",))
         for t in TRANSPORTS]


@pytest.mark.parametrize(("endpoint", "generation", "transport"), CASES,
                         ids=[f"{e}-{g}-{t}" for e, g, t in CASES])
def test_every_endpoint_reads_every_transport(emulator: Any, endpoint: str, generation: str,
                                              transport: str) -> None:
    signed = _signed(emulator.base_url, endpoint, generation if generation != "-" else "v001")
    answer = _accepted(signed, _send(emulator.base_url, signed, transport))
    if endpoint == "quick_pay":
        charges = [c for c in ledger(emulator.base_url)["charges"]
                   if c["app_trans_id"] == signed.fields.get("app_trans_id",
                                                             signed.fields.get("apptransid"))]
        assert [c["amount"] for c in charges] == [50000]
    if endpoint == "banks":
        assert "38" in answer["banks"]


@pytest.mark.parametrize(("endpoint", "generation", "transport"), CASES,
                         ids=[f"{e}-{g}-{t}" for e, g, t in CASES])
def test_a_wrong_mac_is_refused_on_every_transport(emulator: Any, endpoint: str,
                                                   generation: str, transport: str) -> None:
    signed = _signed(emulator.base_url, endpoint, generation if generation != "-" else "v001")
    signed.fields["mac"] = hmac_hex("not-key1", "whatever")
    response = _send(emulator.base_url, signed, transport)
    assert response.status_code == 200
    answer = response.json()
    assert _code(signed, answer) == -402, answer
    assert "mac" in json.dumps(answer)
    if endpoint == "quick_pay":
        assert ledger(emulator.base_url)["charges"] == []


# -- the request shapes of the service's public clients ------------------------------------------
@dataclass(frozen=True)
class Shape:
    client: str
    generation: str
    transport: str
    endpoints: tuple[str, ...]


PUBLIC_CLIENTS = (
    # Node demo: axios.post(url, null, {params}) -- every field in the query string of a POST.
    Shape("node-demo", "v001", "query", ("create", "quick_pay", "query", "refund",
                                         "query_refund")),
    Shape("node-demo-banks", "v001", "get", ("banks",)),
    # v2 documentation samples: the same, query string and an empty body.
    Shape("v2-doc-samples", "v2", "query", ("create", "quick_pay", "query", "refund",
                                            "query_refund")),
    # Current Node SDK: JSON bodies, numbers for ids, amounts and times.
    Shape("node-sdk", "v2", "json", ("create", "query", "refund", "query_refund")),
    # PHP / Python / Go / C# demos and the seed spec: form bodies.
    Shape("php-python-go-csharp-v001", "v001", "form", ("create", "quick_pay", "query", "refund",
                                                        "query_refund", "banks")),
    Shape("php-python-go-csharp-v2", "v2", "form", ("create", "quick_pay", "query", "refund",
                                                    "query_refund")),
)
SHAPE_CASES = [(shape, endpoint) for shape in PUBLIC_CLIENTS for endpoint in shape.endpoints]


@pytest.mark.parametrize(("shape", "endpoint"), SHAPE_CASES,
                         ids=[f"{s.client}-{e}" for s, e in SHAPE_CASES])
def test_public_client_shapes(emulator: Any, shape: Shape, endpoint: str) -> None:
    signed = _signed(emulator.base_url, endpoint, shape.generation)
    _accepted(signed, _send(emulator.base_url, signed, shape.transport))


# -- precedence and JSON numbers -----------------------------------------------------------------
def test_the_body_wins_over_the_query_string(emulator: Any) -> None:
    good = create_form("v2", amount=80000)
    # query carries a wrong amount and a wrong mac; the form body the signed values
    bad = {**good, "amount": "1", "mac": "0" * 64, "description": "from the query"}
    response = requests.post(emulator.base_url + CREATE_PATH["v2"], params=bad, data=good,
                             timeout=10)
    assert response.json()["return_code"] == 1, response.text
    # and the other way round: a signed query string, a body that breaks it
    broken = {"amount": "1"}
    response = requests.post(emulator.base_url + CREATE_PATH["v2"],
                             params=create_form("v2"), json=broken, timeout=10)
    assert response.json()["sub_return_code"] == -402


def test_fields_split_between_query_and_body(emulator: Any) -> None:
    fields = create_form("v001")
    in_query = {k: v for k, v in fields.items() if k in ("appid", "apptransid", "mac")}
    in_body = {k: v for k, v in fields.items() if k not in in_query}
    response = requests.post(emulator.base_url + CREATE_PATH["v001"], params=in_query,
                             data=in_body, timeout=10)
    assert response.json()["returncode"] == 1, response.text


@pytest.mark.parametrize("literal", ["50000", "50000.0", "5e4", "5.0E4"])
def test_a_json_number_stands_for_the_text_a_javascript_client_signed(emulator: Any,
                                                                      literal: str) -> None:
    fields = create_form("v2", amount=50000)  # mac over "50000"
    body = json.dumps({k: v for k, v in fields.items() if k != "amount"})
    body = body[:-1] + f', "amount": {literal}}}'
    response = requests.post(emulator.base_url + CREATE_PATH["v2"], data=body,
                             headers={"Content-Type": "application/json"}, timeout=10)
    assert response.json()["return_code"] == 1, response.text


def test_a_json_number_with_a_fraction_is_refused(emulator: Any) -> None:
    fields = create_form("v2", amount=50000)
    fields["mac"] = hmac_hex(KEY1, fields["mac"])  # irrelevant: the mac over 500.5 fails first
    body = json.dumps({**{k: v for k, v in fields.items() if k != "amount"}, "amount": 500.5})
    answer = requests.post(emulator.base_url + CREATE_PATH["v2"], data=body,
                           headers={"Content-Type": "application/json"}, timeout=10).json()
    assert answer["return_code"] == 2 and answer["sub_return_code"] in (-401, -402)


@pytest.mark.parametrize(("body", "content_type", "needle"), [
    (b"[1, 2]", "application/json", "body must be a JSON object"),
    (b"{not json", "application/json", "body is not valid UTF-8 JSON"),
    (b'{"app_id": true}', "application/json", "app_id must be a JSON string or number"),
    (b'{"embed_data": {}}', "application/json", "embed_data must be a JSON string or number"),
    (b'{"item": null}', "application/json", "item must be a JSON string or number"),
    (b"app_id=2553", "text/plain", "send the fields as application/x-www-form-urlencoded"),
])
def test_unreadable_bodies_are_refused_with_a_clear_message(
        emulator: Any, body: bytes, content_type: str, needle: str) -> None:
    answer = requests.post(emulator.base_url + CREATE_PATH["v2"], data=body,
                           headers={"Content-Type": content_type}, timeout=10).json()
    assert answer["sub_return_code"] == -401
    assert needle in answer["sub_return_message"]


def test_json_strings_for_numbers_are_accepted_too(emulator: Any) -> None:
    signed: Callable[[], dict[str, str]] = lambda: create_form("v001")  # noqa: E731
    response = requests.post(emulator.base_url + CREATE_PATH["v001"], json=signed(), timeout=10)
    assert response.json()["returncode"] == 1, response.text
