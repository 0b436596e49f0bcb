"""Bank list, gateway order creation, the order page (over HTTP), redirects and the landing page."""

from __future__ import annotations

import json
from typing import Any
from urllib.parse import parse_qsl, urlsplit

import pytest
import requests

from tests.emulator.wirehelp import (
    APP_ID,
    CREATE_PATH,
    KEY1,
    create_form,
    hmac_hex,
    ledger,
    now_ms,
    post,
    query,
    redirect_checksum,
    refused_code,
)

BANKS = "/api/getlistmerchantbanks"


def _bank_params(reqtime: int | None = None, key1: str = KEY1) -> dict[str, str]:
    reqtime_text = str(now_ms() if reqtime is None else reqtime)
    return {"appid": str(APP_ID), "reqtime": reqtime_text,
            "mac": hmac_hex(key1, f"{APP_ID}|{reqtime_text}")}


@pytest.mark.parametrize("method", ["POST", "GET"])
def test_bank_list(emulator: Any, method: str) -> None:
    params = _bank_params()
    if method == "POST":
        response = requests.post(emulator.base_url + BANKS, data=params, timeout=5)
    else:
        response = requests.get(emulator.base_url + BANKS, params=params, timeout=5)
    data = response.json()
    assert (data["returncode"], data["returnmessage"]) == (1, "")
    assert sorted(data["banks"]) == ["36", "37", "38", "39", "41"]
    for pmcid, entries in data["banks"].items():
        for bank in entries:
            assert set(bank) == {"bankcode", "name", "displayorder", "pmcid", "minamount",
                                 "maxamount"}
            assert bank["pmcid"] == int(pmcid)
            assert 0 < bank["minamount"] < bank["maxamount"]
    atm = {bank["bankcode"]: bank["name"] for bank in data["banks"]["39"]}
    assert atm["VCB"] == "Vietcombank" and atm["VTB"] == "VietinBank"
    assert [b["bankcode"] for b in data["banks"]["38"]] == ["zalopayapp"]


@pytest.mark.parametrize(("params", "code", "text"), [
    (lambda: _bank_params(key1="wrong"), -402, "invalid app or signature: mac"),
    (lambda: {**_bank_params(), "appid": "1"}, -402, "invalid app or signature: appid"),
    (lambda: _bank_params(reqtime=now_ms() - 20 * 60_000), -401, "reqtime"),
    (lambda: {k: v for k, v in _bank_params().items() if k != "reqtime"}, -401,
     "invalid request data: reqtime is missing"),
])
def test_bank_list_refusals(emulator: Any, params: Any, code: int, text: str) -> None:
    data = requests.post(emulator.base_url + BANKS, data=params(), timeout=5).json()
    assert data["returncode"] == code
    assert text in data["returnmessage"]
    assert "banks" not in data


def test_create_order_v2(emulator: Any) -> None:
    form = create_form("v2", amount=80000)
    data = post(emulator.base_url, "/v2/create", form)
    assert (data["return_code"], data["sub_return_code"]) == (1, 1)
    assert data["order_url"] == f"{emulator.base_url}/gateway/order/{data['zp_trans_token']}"
    assert data["order_token"]
    qr = data["qr_code"]
    assert qr.startswith("000201010212") and "5303704" in qr and "540580000" in qr
    assert qr[-8:-4] == "6304" and len(qr[-4:]) == 4
    status = query(emulator.base_url, "v2", form["app_trans_id"])
    assert (status["return_code"], status["is_processing"]) == (3, False)
    assert requests.get(data["order_url"], timeout=5).status_code == 200


def test_create_order_v001(emulator: Any) -> None:
    form = create_form("v001", amount=80000)
    data = post(emulator.base_url, "/v001/tpe/createorder", form)
    assert data["returncode"] == 1
    assert data["orderurl"] == f"{emulator.base_url}/gateway/order/{data['zptranstoken']}"
    status = query(emulator.base_url, "v001", form["apptransid"])
    assert (status["returncode"], status["isprocessing"]) == (10, True)


@pytest.mark.parametrize(("generation", "kwargs", "code", "text"), [
    ("v2", {"key1": "wrong"}, -402, "invalid app or signature: mac"),
    ("v2", {"extra": {"expire_duration_seconds": "299"}}, -401, "expire_duration_seconds"),
    ("v2", {"extra": {"expire_duration_seconds": "2592001"}}, -401, "expire_duration_seconds"),
    ("v2", {"bank_code": "NOPE"}, -401, "bank_code 'NOPE' is not in the bank list"),
    ("v001", {"bank_code": "VCB", "amount": 5000}, -401, "amount must be between 10000"),
    ("v2", {"embed_data": '{"redirecturl": "javascript:alert(1)"}'}, -401, "redirecturl"),
    ("v2", {"embed_data": "[]"}, -401, "embed_data must be a JSON object"),
    ("v2", {"description": "d" * 257}, -401, "description is longer than 256"),
    ("v001", {"description": "d" * 101}, -401, "description is longer than 100"),
    ("v001", {"embed_data": json.dumps({"merchantinfo": "m" * 1100})}, -401,
     "embeddata is longer than 1024"),
    ("v2", {"app_trans_id": "991231_old"}, -92, "app_trans_id"),
])
def test_create_order_refusals(emulator: Any, generation: str, kwargs: dict[str, Any],
                               code: int, text: str) -> None:
    answer = post(emulator.base_url, CREATE_PATH[generation], create_form(generation, **kwargs))
    assert refused_code(generation, answer) == code
    message = answer["sub_return_message" if generation == "v2" else "returnmessage"]
    assert text in message


def test_v2_create_allows_longer_embed_data_and_description(emulator: Any) -> None:
    form = create_form("v2", embed_data=json.dumps({"merchantinfo": "m" * 1500}),
                       description="d" * 256)
    assert post(emulator.base_url, "/v2/create", form)["return_code"] == 1


def test_create_duplicate_app_trans_id(emulator: Any) -> None:
    form = create_form("v2")
    assert post(emulator.base_url, "/v2/create", form)["return_code"] == 1
    again = create_form("v2", app_trans_id=form["app_trans_id"])
    assert post(emulator.base_url, "/v2/create", again)["sub_return_code"] == -68


def _create(emulator: Any, **kwargs: Any) -> tuple[dict[str, str], dict[str, Any]]:
    form = create_form("v2", **kwargs)
    return form, post(emulator.base_url, "/v2/create", form)


@pytest.mark.parametrize(("bank_code", "expected"), [
    ("", ["Visa/Master/JCB", "ATM", "Wallet", "Vietcombank", 'name="bankcode"']),
    ("zalopayapp", ["Scan with the wallet app", "<svg"]),
    ("CC", ["Card payment", "card_number"]),
    ("VCB", ["Vietcombank: bank card", "card_number"]),
])
def test_order_page_shows_methods_by_bank_code(emulator: Any, bank_code: str,
                                               expected: list[str]) -> None:
    _, data = _create(emulator, bank_code=bank_code)
    page = requests.get(data["order_url"], timeout=5)
    assert page.status_code == 200
    for text in expected:
        assert text in page.text
    for wallet in ("an", "binh", "chi", "dung"):
        assert f'value="{wallet}"' in page.text


def _pay(order_url: str, wallet: str, bankcode: str) -> requests.Response:
    return requests.post(order_url + "/pay", data={"wallet": wallet, "bankcode": bankcode},
                         allow_redirects=False, timeout=5)


def test_pay_redirects_with_a_key2_checksum(emulator: Any) -> None:
    form, data = _create(emulator, amount=80000,
                         embed_data='{"redirecturl": "https://shop.example/return?cart=7"}')
    response = _pay(data["order_url"], "an", "VCB")
    assert response.status_code == 303
    location = response.headers["Location"]
    assert location.startswith("https://shop.example/return?cart=7&appid=")
    params = dict(parse_qsl(urlsplit(location).query, keep_blank_values=True))
    assert params["checksum"] == redirect_checksum(params)
    assert (params["appid"], params["apptransid"], params["pmcid"], params["bankcode"],
            params["amount"], params["discountamount"], params["status"]) == (
        "2553", form["app_trans_id"], "39", "VCB", "80000", "0", "1")
    assert query(emulator.base_url, "v2", form["app_trans_id"])["return_code"] == 1
    charge = ledger(emulator.base_url)["charges"][0]
    assert (charge["kind"], charge["wallet"], charge["state"]) == ("gateway", "an", "succeeded")
    assert ledger(emulator.base_url)["balances"]["an"] == 50_000_000 - 80_000
    # the order is final: paying again changes nothing
    assert "This order is succeeded" in _pay(data["order_url"], "an", "VCB").text
    assert len(ledger(emulator.base_url)["charges"]) == 1


def test_insufficient_balance_on_the_gateway(emulator: Any) -> None:
    form, data = _create(emulator, amount=80000, bank_code="zalopayapp")
    location = _pay(data["order_url"], "dung", "zalopayapp").headers["Location"]
    params = dict(parse_qsl(urlsplit(location).query, keep_blank_values=True))
    assert (params["status"], params["pmcid"]) == ("-63", "38")
    status = query(emulator.base_url, "v2", form["app_trans_id"])
    assert (status["return_code"], status["sub_return_code"]) == (2, -63)


def test_cancel(emulator: Any) -> None:
    form, data = _create(emulator)
    response = requests.post(data["order_url"] + "/cancel", allow_redirects=False, timeout=5)
    assert response.status_code == 303
    location = response.headers["Location"]
    params = dict(parse_qsl(urlsplit(location).query, keep_blank_values=True))
    assert params["status"] == "-329"
    assert params["checksum"] == redirect_checksum(params)
    status = query(emulator.base_url, "v2", form["app_trans_id"])
    assert (status["return_code"], status["sub_return_code"]) == (2, -329)
    assert query(emulator.base_url, "v001", form["app_trans_id"])["returncode"] == -329


def test_expired_order(emulator: Any) -> None:
    form, data = _create(emulator)
    assert emulator.control.expire_order(form["app_trans_id"])
    status = query(emulator.base_url, "v2", form["app_trans_id"])
    assert (status["return_code"], status["sub_return_code"]) == (2, -54)
    assert "This order is expired" in requests.get(data["order_url"], timeout=5).text


def test_landing_page_without_a_redirect_url(emulator: Any) -> None:
    form, data = _create(emulator, amount=90000)
    location = _pay(data["order_url"], "an", "CC").headers["Location"]
    assert location.startswith(emulator.base_url + "/merchant/redirect?appid=2553&")
    landing = requests.get(location, timeout=5)
    assert landing.status_code == 200
    assert "Payment paid" in landing.text and form["app_trans_id"] in landing.text
    tampered = location.replace("amount=90000", "amount=9000")
    bad = requests.get(tampered, timeout=5)
    assert (bad.status_code, bad.text) == (400, "Bad Request")
    assert requests.get(emulator.base_url + "/merchant/redirect", timeout=5).status_code == 400


def test_unknown_order_page(emulator: Any) -> None:
    assert requests.get(emulator.base_url + "/gateway/order/nope", timeout=5).status_code == 404


@pytest.mark.parametrize("generation", ["v2", "v001"])
def test_the_wallet_channel_is_zalopayapp_as_the_real_service_names_it(
        emulator: Any, generation: str) -> None:
    field = "bank_code" if generation == "v2" else "bankcode"
    accepted = post(emulator.base_url, CREATE_PATH[generation],
                    create_form(generation, bank_code="zalopayapp"))
    assert accepted["return_code" if generation == "v2" else "returncode"] == 1, accepted
    # the name an earlier emulator used is not a bank code of the real service
    refused = post(emulator.base_url, CREATE_PATH[generation],
                   create_form(generation, bank_code="walletapp"))
    assert refused_code(generation, refused) == -401
    assert f"{field} 'walletapp' is not in the bank list" in json.dumps(refused)


def test_the_landing_page_checks_redirects_with_its_own_code_from_the_spec() -> None:
    """The emulator's merchant page verifies with its own HMAC code, not the client's."""
    from pos_terminal.emulator.pages import redirect_values
    from pos_terminal.emulator.zalopay.verify import hmac_sha256_hex

    values = ["2553", "261121_1_a", "38", "VCB", "90000", "0", "1"]
    names = ["appid", "apptransid", "pmcid", "bankcode", "amount", "discountamount", "status"]
    checksum = hmac_sha256_hex("k2", "|".join(values))
    query = "&".join(f"{n}={v}" for n, v in zip(names, values, strict=True))
    assert redirect_values(f"{query}&checksum={checksum}", "k2", 2553) == dict(
        zip(names, values, strict=True))
    assert redirect_values(f"{query}&checksum={checksum.upper()}", "k2", 2553) is not None
    assert redirect_values(f"{query}&checksum={checksum}", "other", 2553) is None
    assert redirect_values(f"{query}&checksum={checksum}", "k2", 2554) is None
    assert redirect_values(f"{query}&checksum={checksum}&amount=1", "k2", 2553) is None
    assert redirect_values(query, "k2", 2553) is None


# --- issue 29 item 5: the v2 create answer's qr_code, parsed back tag by tag ------------------


def _tags(payload: str) -> dict[str, str]:
    """EMVCo TLV: two-digit tag, two-digit length, value (written here, apart from the
    emulator's own builder)."""
    tags: dict[str, str] = {}
    at = 0
    while at < len(payload):
        tag, length = payload[at:at + 2], int(payload[at + 2:at + 4])
        value = payload[at + 4:at + 4 + length]
        assert len(value) == length, f"tag {tag} cut short"
        assert tag not in tags, f"tag {tag} twice"
        tags[tag] = value
        at += 4 + length
    return tags


def _crc(data: bytes) -> str:
    import binascii

    return f"{binascii.crc_hqx(data, 0xFFFF):04X}"  # CRC-16/CCITT-FALSE


def test_the_v2_qr_code_is_zalopays_multi_function_vietqr(emulator: Any) -> None:
    form = create_form("v2", amount=80000)
    data = post(emulator.base_url, "/v2/create", form)
    qr = data["qr_code"]
    tags = _tags(qr)
    assert list(tags) == ["00", "01", "26", "38", "52", "53", "54", "58", "62", "63"]
    assert (tags["00"], tags["01"], tags["53"], tags["54"], tags["58"]) == (
        "01", "12", "704", "80000", "VN")
    assert qr[:-4].endswith("6304") and tags["63"] == _crc(qr[:-4].encode("ascii"))
    zalopay = _tags(tags["26"])
    assert (zalopay["00"], zalopay["02"]) == ("vn.zalopay", "001") and zalopay["01"]
    napas = _tags(tags["38"])
    assert (napas["00"], napas["02"]) == ("A000000727", "QRIBFTTA")
    beneficiary = _tags(napas["01"])
    assert len(beneficiary["00"]) == 6 and beneficiary["00"].isdigit()  # the bank BIN
    assert beneficiary["01"].isdigit() and len(beneficiary["01"]) <= 19  # the account
    reference = _tags(tags["62"])["08"]
    assert reference == zalopay["03"] and form["app_trans_id"].endswith(reference)
    assert len(reference) <= 25
    broken = qr[:-1] + ("0" if qr[-1] != "0" else "1")
    assert _tags(broken)["63"] != _crc(broken[:-4].encode("ascii"))  # the CRC catches a change
