"""The API's doors under attack, spoken in raw bytes on a socket where HTTP itself is the
attack: ambiguous JSON bodies (a key twice, UTF-16/UTF-32, NaN, deep nesting), smuggled requests
(Content-Length with Transfer-Encoding) and foreign Host names (DNS rebinding). Each is refused
before any handler runs: nothing is charged, nothing hidden runs."""

from __future__ import annotations

import json
import socket
from urllib.parse import urlsplit

import pytest
import requests

from pos_terminal.api.errors import ERRORS
from pos_terminal.base.hosts import HostRule
from pos_terminal.config import Settings
from tests.api.conftest import Api, start_api

CODE = "CODE"


def _body(api: Api, **fields: object) -> dict[str, object]:
    return {"amount": 1000, "sale_ref": "door-1", "payment_code": api.wallet_code("an"),
            **fields}


def _post_raw_body(api: Api, data: bytes, content_type: str = "application/json"
                   ) -> requests.Response:
    return requests.post(api.url + "/v1/payments", data=data, timeout=30,
                         headers={**api.auth, "Content-Type": content_type})


def _assert_refused(answer: requests.Response, code: str = "invalid_json") -> None:
    assert answer.status_code == ERRORS[code][0], answer.text
    assert answer.json()["error"]["code"] == code


def test_a_duplicate_key_is_refused_whole_and_charges_nothing(api: Api) -> None:
    wallet_code = api.wallet_code("an")
    code = f'"payment_code": "{wallet_code}"'
    for text in (
        f'{{"amount": 1000, "amount": 9000000, "sale_ref": "dup-a", {code}}}',
        f'{{"amount": 1000, "sale_ref": "dup-b", "sale_ref": "dup-c", {code}}}',
        f'{{"amount": 1000, "sale_ref": "dup-d", {code}, "payment_code": "1"}}',
        f'{{"amount": 1000, "sale_ref": "dup-e", {code}, '
        '"items": [{"name": "tea", "price": 1000, "price": 1}]}',
    ):
        answer = _post_raw_body(api, text.encode())
        _assert_refused(answer)
        assert "twice" in answer.json()["error"]["message"]
        assert wallet_code not in answer.text
    assert api.charges() == 0
    for ref in ("dup-a", "dup-b", "dup-c", "dup-d", "dup-e"):
        assert api.counter.payments.find_by_sale_ref(ref) is None


@pytest.mark.parametrize("encoding", ["utf-16", "utf-16-le", "utf-16-be", "utf-32",
                                      "utf-32-le", "utf-8-sig"])
def test_a_body_not_in_utf8_is_refused_and_charges_nothing(api: Api, encoding: str) -> None:
    text = json.dumps(_body(api, sale_ref="enc-" + encoding))
    for content_type in ("application/json", f"application/json; charset={encoding}"):
        answer = _post_raw_body(api, text.encode(encoding), content_type)
        _assert_refused(answer)
        assert "UTF-8" in answer.json()["error"]["message"]
    assert api.charges() == 0
    assert api.counter.payments.find_by_sale_ref("enc-" + encoding) is None


@pytest.mark.parametrize("amount", ["NaN", "Infinity", "-Infinity"])
def test_nan_and_infinity_are_refused(api: Api, amount: str) -> None:
    text = json.dumps(_body(api)).replace('"amount": 1000', f'"amount": {amount}')
    _assert_refused(_post_raw_body(api, text.encode()))
    assert api.charges() == 0


def test_a_deeply_nested_body_is_refused_without_a_500(api: Api) -> None:
    for depth in (40, 20000):
        text = json.dumps(_body(api))[:-1] + ', "items": ' + "[" * depth + "]" * depth + "}"
        _assert_refused(_post_raw_body(api, text.encode()))
    assert api.charges() == 0
    assert api.get("/v1/reports/x").status_code == 200


# --------------------------------------------------------------------------- smuggling
def _exchange(api: Api, raw: bytes) -> bytes:
    """Send `raw` on one connection and read until the server closes it (or 8 s of silence:
    a connection kept open after the answer is part of what the tests look at)."""
    parts = urlsplit(api.url)
    data = b""
    with socket.create_connection((parts.hostname, parts.port), timeout=8) as sock:
        sock.sendall(raw)
        try:
            while chunk := sock.recv(65536):
                data += chunk
        except TimeoutError:
            data += b"<still open>"
    return data


def _hidden_post(api: Api, sale_ref: str) -> bytes:
    body = json.dumps({"amount": 1000, "sale_ref": sale_ref,
                       "payment_code": api.wallet_code("an")}).encode()
    return (b"POST /v1/payments HTTP/1.1\r\nHost: 127.0.0.1\r\n"
            + f"Authorization: Bearer {api.token}\r\n".encode()
            + b"Content-Type: application/json\r\n"
            + f"Content-Length: {len(body)}\r\n\r\n".encode() + body)


@pytest.mark.parametrize("framing", [
    b"Content-Length: 5\r\nTransfer-Encoding: chunked\r\n",
    b"Transfer-Encoding: chunked\r\nContent-Length: 5\r\n",
    b"Content-Length: 5\r\nTransfer-Encoding:\tCHUNKED\r\n",
    b"Content-Length: 5\r\nTransfer-Encoding:\r\n chunked\r\n",  # obs-fold
])
def test_a_smuggled_request_is_refused_and_the_hidden_post_never_runs(
        api: Api, framing: bytes) -> None:
    hidden = _hidden_post(api, "smuggled")
    raw = (b"POST /v1/payments HTTP/1.1\r\nHost: 127.0.0.1\r\n"
           + f"Authorization: Bearer {api.token}\r\n".encode()
           + b"Content-Type: application/json\r\n" + framing + b"\r\n0\r\n\r\n" + hidden)
    data = _exchange(api, raw)
    assert data.count(b"HTTP/1.1 ") == 1, data  # one answer, nothing for the hidden POST
    assert data.startswith(b"HTTP/1.1 400 "), data
    assert b"<still open>" not in data  # the connection was closed after the answer
    assert api.charges() == 0
    assert api.counter.payments.find_by_sale_ref("smuggled") is None
    assert api.get("/v1/reports/x").status_code == 200  # and the server still serves


def test_transfer_encoding_in_http_1_0_is_refused(api: Api) -> None:
    hidden = _hidden_post(api, "smuggled-10")
    raw = (b"POST /v1/payments HTTP/1.0\r\nHost: 127.0.0.1\r\n"
           + f"Authorization: Bearer {api.token}\r\n".encode()
           + b"Content-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n"
           + hidden)
    data = _exchange(api, raw)
    assert data.count(b"HTTP/1.1 ") == 1 and b" 400 " in data.split(b"\r\n")[0], data
    assert api.charges() == 0


# --------------------------------------------------------------------------- Host
def _get_with_host(api: Api, path: str, host: str) -> tuple[int, bytes]:
    raw = (f"GET {path} HTTP/1.1\r\nHost: {host}\r\nAuthorization: Bearer {api.token}\r\n"
           "Connection: close\r\n\r\n").encode()
    data = _exchange(api, raw)
    return int(data.split(b" ")[1]), data


@pytest.mark.parametrize("path", ["/display", "/display/events", "/v1/events",
                                  "/v1/reports/x", "/v1/payments?sale_ref=a", "/openapi.json",
                                  "/no/such/path"])
def test_a_foreign_host_is_refused_on_every_path(api: Api, path: str) -> None:
    for host in ("evil.example", "evil.example:80", "127.0.0.1.evil.example", "x@127.0.0.1",
                 "127.0.0.1/"):
        status, data = _get_with_host(api, path, host)
        assert status == 421, (host, data)
        assert b"wrong_host" in data
        assert b"sale_ref" not in data.partition(b"\r\n\r\n")[2].replace(b"wrong_host", b"")


def test_two_host_headers_are_refused(api: Api) -> None:
    raw = (f"GET /v1/reports/x HTTP/1.1\r\nHost: 127.0.0.1\r\nHost: evil.example\r\n"
           f"Authorization: Bearer {api.token}\r\n\r\n").encode()
    data = _exchange(api, raw)
    assert data.startswith(b"HTTP/1.1 400 ") and b"<still open>" not in data, data


def test_the_machine_s_own_names_are_answered(api: Api) -> None:
    port = urlsplit(api.url).port
    for host in (f"127.0.0.1:{port}", f"localhost:{port}", "localhost", f"[::1]:{port}",
                 socket.gethostname()):
        status, _data = _get_with_host(api, "/v1/reports/x", host)
        assert status == 200, host


def test_a_counter_reached_by_name_adds_it_in_allowed_hosts(settings: Settings,
                                                          emulator: object) -> None:
    named, stop = start_api(settings.replace_section("api", allowed_hosts=("kassa-3.shop",)),
                            emulator)
    try:
        assert _get_with_host(named, "/v1/reports/x", "kassa-3.shop:8780")[0] == 200
        assert _get_with_host(named, "/display", "KASSA-3.shop.")[0] == 200
        assert _get_with_host(named, "/display", "kassa-4.shop")[0] == 421
    finally:
        stop()


def test_the_unspecified_address_is_no_name_of_this_machine() -> None:
    rule = HostRule.for_bind("0.0.0.0")
    assert not rule.allows("0.0.0.0:8780") and rule.allows("127.0.0.1:8780")
