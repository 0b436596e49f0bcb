"""Every verification rule of quick pay refuses what it should, with its code, in both generations.

Requests are built and signed in the test (tests/emulator/wirehelp.py), never by the client.
"""

from __future__ import annotations

import base64
import os
from collections.abc import Callable
from typing import Any

import pytest
import requests
from cryptography.hazmat.primitives.asymmetric import padding, rsa

from tests.emulator.wirehelp import (
    APP_ID,
    KEY1,
    QUICK_PAY_PATH,
    QuickPay,
    code_of,
    encrypt,
    hmac_hex,
    message,
    new_trans_id,
    now_ms,
    outcome,
    post,
    refused_code,
    vn_yymmdd,
)

GENERATIONS = ["v2", "v001"]
NAMES = {
    "v2": {"app_id": "app_id", "app_trans_id": "app_trans_id", "app_user": "app_user",
           "app_time": "app_time", "amount": "amount", "embed_data": "embed_data", "item": "item",
           "description": "description", "payment_code": "payment_code", "mac": "mac"},
    "v001": {"app_id": "appid", "app_trans_id": "apptransid", "app_user": "appuser",
             "app_time": "apptime", "amount": "amount", "embed_data": "embeddata", "item": "item",
             "description": "description", "payment_code": "paymentcode", "mac": "mac"},
}


def _pay(emulator: Any, generation: str, order: QuickPay,
         edit: Callable[[dict[str, str]], None] | None = None) -> dict[str, Any]:
    form = order.form(generation)
    if edit is not None:
        edit(form)
    return post(emulator.base_url, QUICK_PAY_PATH[generation], form)


@pytest.mark.parametrize("generation", GENERATIONS)
def test_correct_request_is_charged(emulator: Any, generation: str) -> None:
    order = QuickPay(code=code_of(emulator.base_url, "an"), amount="50000")
    answer = _pay(emulator, generation, order)
    assert outcome(generation, answer) == ((1, 1) if generation == "v2" else (1, None))
    if generation == "v2":
        assert answer["is_processing"] is False
        assert answer["app_trans_id"] == order.app_trans_id
        assert answer["amount"] == 50000
        assert str(answer["zp_trans_id"]).isdigit()
    else:
        assert answer["isprocessing"] is False
        assert answer["apptransid"] == order.app_trans_id
        assert str(answer["zptransid"]).isdigit()


@pytest.mark.parametrize("generation", GENERATIONS)
def test_url_safe_base64_payment_code_is_accepted(emulator: Any, generation: str) -> None:
    # Loop until the ciphertext has a character that differs between the alphabets.
    order = QuickPay(code=code_of(emulator.base_url, "an"))
    while True:
        form = order.form(generation, urlsafe=True)
        if set(form[NAMES[generation]["payment_code"]]) & {"-", "_"}:
            break
    answer = post(emulator.base_url, QUICK_PAY_PATH[generation], form)
    assert outcome(generation, answer)[0] == 1


def test_v2_query_string_variant_is_accepted(emulator: Any) -> None:
    order = QuickPay(code=code_of(emulator.base_url, "an"))
    response = requests.post(emulator.base_url + "/v2/quick_pay", params=order.form("v2"),
                             timeout=10)
    assert response.json()["return_code"] == 1


def test_query_string_variant_is_accepted_on_the_legacy_path_too(emulator: Any) -> None:
    # the Node demos send every field in the query string of a POST, legacy path included
    order = QuickPay(code=code_of(emulator.base_url, "an"))
    response = requests.post(emulator.base_url + "/v001/tpe/submitqrcodepay",
                             params=order.form("v001"), timeout=10)
    assert response.json()["returncode"] == 1


def _resign(order: QuickPay, generation: str) -> Callable[[dict[str, str]], None]:
    """Edit the form so it carries ``order``'s (changed) values with a correct mac."""
    def edit(form: dict[str, str]) -> None:
        form.update(order.form(generation))
    return edit


CASES: list[tuple[str, dict[str, str], int, str]] = [
    # (case id, changed values signed correctly, code, field the message names)
    ("amount_decimal", {"amount": "50000.0"}, -401, "amount"),
    ("amount_zero", {"amount": "0"}, -401, "amount"),
    ("amount_negative", {"amount": "-5"}, -401, "amount"),
    ("amount_leading_zero", {"amount": "050000"}, -401, "amount"),
    ("app_user_too_long", {"app_user": "u" * 51}, -401, "app_user"),
    ("description_too_long", {"description": "d" * 101}, -401, "description"),
    ("embed_data_too_long", {"embed_data": '{"merchantinfo": "' + "m" * 1010 + '"}'}, -401,
     "embed_data"),
    ("embed_data_not_json", {"embed_data": "{merchantinfo: 1"}, -401, "embed_data"),
    ("embed_data_array", {"embed_data": "[1]"}, -401, "embed_data"),
    ("item_object", {"item": "{}"}, -401, "item"),
    ("item_of_numbers", {"item": "[1, 2]"}, -401, "item"),
    ("item_too_long", {"item": '[{"itemname": "' + "i" * 2040 + '"}]'}, -401, "item"),
    ("app_time_16_min_old", {"app_time": "now-16min"}, -401, "app_time"),
    ("app_time_16_min_ahead", {"app_time": "now+16min"}, -401, "app_time"),
    ("app_time_seconds", {"app_time": "now-in-seconds"}, -401, "app_time"),
    ("app_trans_id_too_long", {"app_trans_id": f"{vn_yymmdd()}_" + "x" * 34}, -401,
     "app_trans_id"),
    ("app_trans_id_no_date", {"app_trans_id": "order_12345"}, -92, "app_trans_id"),
    ("app_trans_id_no_underscore", {"app_trans_id": f"{vn_yymmdd()}12345"}, -92,
     "app_trans_id"),
    ("app_trans_id_yesterday_gmt7", {"app_trans_id": "yesterday_a1"}, -92, "app_trans_id"),
    ("app_trans_id_tomorrow_gmt7", {"app_trans_id": "tomorrow_a1"}, -92, "app_trans_id"),
    ("app_trans_id_space", {"app_trans_id": f"{vn_yymmdd()}_a b"}, -92, "app_trans_id"),
    ("wrong_app_id", {"app_id": str(APP_ID + 1)}, -402, "app_id"),
]


@pytest.mark.parametrize("generation", GENERATIONS)
@pytest.mark.parametrize(("changes", "code", "field"), [c[1:] for c in CASES],
                         ids=[c[0] for c in CASES])
def test_refusal(emulator: Any, generation: str, changes: dict[str, str], code: int,
                 field: str) -> None:
    raw_code = code_of(emulator.base_url, "an")
    # values that depend on the clock are made now, not when the module was collected
    times = {"now-16min": str(now_ms() - 16 * 60_000), "now+16min": str(now_ms() + 16 * 60_000),
             "now-in-seconds": str(now_ms() // 1000), "yesterday_a1": f"{vn_yymmdd(-1)}_a1",
             "tomorrow_a1": f"{vn_yymmdd(1)}_a1"}
    order = QuickPay(code=raw_code, **{k: times.get(v, v) for k, v in changes.items()})
    answer = _pay(emulator, generation, order)
    assert refused_code(generation, answer) == code, answer
    assert NAMES[generation][field] in message(generation, answer)
    # Nothing was charged and the code is still good for a correct request.
    assert outcome(generation, _pay(emulator, generation, QuickPay(code=raw_code)))[0] == 1


def test_app_time_14_minutes_old_is_accepted(emulator: Any) -> None:
    order = QuickPay(code=code_of(emulator.base_url, "an"), app_time=str(now_ms() - 14 * 60_000))
    assert _pay(emulator, "v2", order)["return_code"] == 1


@pytest.mark.parametrize("generation", GENERATIONS)
@pytest.mark.parametrize("field", ["app_id", "app_trans_id", "app_user", "app_time", "amount",
                                   "embed_data", "item", "payment_code", "mac"])
def test_missing_field(emulator: Any, generation: str, field: str) -> None:
    order = QuickPay(code=code_of(emulator.base_url, "an"))
    wire_name = NAMES[generation][field]
    answer = _pay(emulator, generation, order, lambda form: form.pop(wire_name))
    assert refused_code(generation, answer) == -401
    assert message(generation, answer) == f"invalid request data: {wire_name} is missing"


MAC_CASES: list[tuple[str, Callable[[QuickPay, dict[str, str], str], None]]] = [
    ("wrong_key", lambda o, f, g: f.update(mac=QuickPay(
        code=o.code, app_trans_id=o.app_trans_id, app_time=o.app_time, key1="other").mac())),
    ("over_encrypted_code", lambda o, f, g: f.update(mac=hmac_hex(KEY1, "|".join([
        o.app_id, o.app_trans_id, o.app_user, o.amount, o.app_time, o.embed_data, o.item,
        f[NAMES[g]["payment_code"]]])))),
    ("amount_signed_as_float", lambda o, f, g: f.update(mac=hmac_hex(KEY1, "|".join([
        o.app_id, o.app_trans_id, o.app_user, "50000.0", o.app_time, o.embed_data, o.item,
        o.code])))),
    ("embed_data_changed_after_signing", lambda o, f, g: f.update(
        {NAMES[g]["embed_data"]: '{"merchantinfo":"x"}'})),
    ("amount_changed_after_signing", lambda o, f, g: f.update(amount="1")),
    ("app_user_changed_after_signing", lambda o, f, g: f.update(
        {NAMES[g]["app_user"]: "counter-2"})),
    ("app_time_changed_after_signing", lambda o, f, g: f.update(
        {NAMES[g]["app_time"]: str(int(o.app_time) + 1)})),
    ("item_changed_after_signing", lambda o, f, g: f.update({NAMES[g]["item"]: "[ ]"})),
    ("app_trans_id_changed_after_signing", lambda o, f, g: f.update(
        {NAMES[g]["app_trans_id"]: o.app_trans_id + "b"})),
    ("code_of_another_wallet", lambda o, f, g: f.update(
        {NAMES[g]["payment_code"]: encrypt("999999999999999999")})),
    ("upper_case_hex", lambda o, f, g: f.update(mac=o.mac().upper())),
    ("truncated", lambda o, f, g: f.update(mac=o.mac()[:-1])),
    ("empty", lambda o, f, g: f.update(mac="")),
]


@pytest.mark.parametrize("generation", GENERATIONS)
@pytest.mark.parametrize("mangle", [c[1] for c in MAC_CASES], ids=[c[0] for c in MAC_CASES])
def test_bad_mac(emulator: Any, generation: str,
                 mangle: Callable[[QuickPay, dict[str, str], str], None]) -> None:
    order = QuickPay(code=code_of(emulator.base_url, "an"), amount="50000")
    answer = _pay(emulator, generation, order, lambda form: mangle(order, form, generation))
    assert refused_code(generation, answer) == -402
    assert message(generation, answer) == "invalid app or signature: mac"


def _other_key_ciphertext(code: str, bits: int) -> str:
    other = rsa.generate_private_key(public_exponent=65537, key_size=bits)
    return base64.b64encode(other.public_key().encrypt(code.encode(), padding.PKCS1v15())).decode()


PAYMENT_CODE_CASES: list[tuple[str, Callable[[str], str]]] = [
    ("not_base64", lambda code: "%%%not-base64!!"),
    ("mixed_alphabets", lambda code: encrypt(code)[:-4] + "-_+/"),
    ("random_bytes", lambda code: base64.b64encode(os.urandom(128)).decode()),
    ("other_1024_bit_key", lambda code: _other_key_ciphertext(code, 1024)),
    ("sandbox_512_bit_length", lambda code: base64.b64encode(os.urandom(64)).decode()),
    ("plain_code", lambda code: code),
]


@pytest.mark.parametrize("generation", GENERATIONS)
@pytest.mark.parametrize("make", [c[1] for c in PAYMENT_CODE_CASES],
                         ids=[c[0] for c in PAYMENT_CODE_CASES])
def test_undecryptable_payment_code(emulator: Any, generation: str,
                                    make: Callable[[str], str]) -> None:
    order = QuickPay(code=code_of(emulator.base_url, "an"))
    field = NAMES[generation]["payment_code"]
    answer = _pay(emulator, generation, order, lambda form: form.update({field: make(order.code)}))
    assert refused_code(generation, answer) == -401
    assert message(generation, answer).startswith(f"invalid request data: {field} ")


def test_unencoded_plus_in_form_body_is_refused(emulator: Any) -> None:
    """A '+' in base64 not form-url-encoded arrives as a space: the service cannot decrypt it."""
    order = QuickPay(code=code_of(emulator.base_url, "an"))
    while "+" not in (form := order.form("v2"))["payment_code"]:
        pass
    body = "&".join(f"{k}={v}" for k, v in form.items())  # deliberately NOT url-encoded
    response = requests.post(emulator.base_url + "/v2/quick_pay", data=body, timeout=10, headers={
        "Content-Type": "application/x-www-form-urlencoded"})
    assert response.json()["sub_return_code"] == -401
    assert "payment_code" in response.json()["sub_return_message"]


def test_json_body_is_read_like_a_form(emulator: Any) -> None:
    order = QuickPay(code=code_of(emulator.base_url, "an"))
    response = requests.post(emulator.base_url + "/v2/quick_pay", json=order.form("v2"),
                             timeout=10)
    assert response.json()["return_code"] == 1


@pytest.mark.parametrize("generation", GENERATIONS)
def test_duplicate_app_trans_id(emulator: Any, generation: str) -> None:
    first = QuickPay(code=code_of(emulator.base_url, "an"))
    assert outcome(generation, _pay(emulator, generation, first))[0] == 1
    again = QuickPay(code=code_of(emulator.base_url, "an"), app_trans_id=first.app_trans_id)
    answer = _pay(emulator, generation, again)
    assert refused_code(generation, answer) == -68
    assert NAMES[generation]["app_trans_id"] in message(generation, answer)
    charges = [c for c in _ledger(emulator)["charges"] if c["app_trans_id"] == first.app_trans_id]
    assert len(charges) == 1


def test_same_trans_id_after_refusal_is_not_a_duplicate(emulator: Any) -> None:
    """A request refused by verification creates no order: its id stays free."""
    trans_id = new_trans_id()
    bad = QuickPay(code=code_of(emulator.base_url, "an"), app_trans_id=trans_id, amount="1.5")
    assert _pay(emulator, "v2", bad)["sub_return_code"] == -401
    good = QuickPay(code=code_of(emulator.base_url, "an"), app_trans_id=trans_id)
    assert _pay(emulator, "v2", good)["return_code"] == 1


def _ledger(emulator: Any) -> dict[str, Any]:
    data: dict[str, Any] = requests.get(emulator.base_url + "/_emulator/ledger", timeout=5).json()
    return data
