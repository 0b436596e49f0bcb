"""Gateway redirects and server-to-server callbacks, verified with key2."""

from __future__ import annotations

import json

import pytest

from pos_terminal.wallets.zalopay.verification import verify_callback, verify_redirect

KEY2 = "test-key2-Lm3p"
# checksum = HMAC-SHA256(KEY2, "2553|241121_T1_0002|38|zalopayapp|120000|0|1"), see test_signing
GOOD = "2b6ecfe030beea3def2e8b24dfb17ca97d2859cc26760368a1cf8345dc90b617"
QUERY = (f"appid=2553&apptransid=241121_T1_0002&pmcid=38&bankcode=zalopayapp&amount=120000"
         f"&discountamount=0&status=1&checksum={GOOD}")


@pytest.mark.parametrize(
    "given",
    [QUERY, "?" + QUERY, "https://shop.example/paid?" + QUERY, f"  {QUERY}\n"],
)
def test_valid_redirect_in_every_shape(given: str) -> None:
    result = verify_redirect(given, KEY2, app_id=2553)
    assert result.valid, result.reason
    assert (result.appid, result.apptransid, result.pmcid, result.bankcode, result.amount,
            result.discountamount, result.status) == (2553, "241121_T1_0002", 38, "zalopayapp",
                                                      120000, 0, 1)


def test_valid_redirect_from_parsed_parameters() -> None:
    params = dict(pair.split("=") for pair in QUERY.split("&"))
    assert verify_redirect(params, KEY2).valid


@pytest.mark.parametrize(
    ("given", "reason"),
    [
        (QUERY.replace("&status=1", ""), "missing field: status"),
        (QUERY.replace(f"checksum={GOOD}", ""), "missing field: checksum"),
        (QUERY.replace("amount=120000", "amount=1200000"), "bad checksum"),
        (QUERY.replace(GOOD, GOOD[:-1] + "f"), "bad checksum"),
        (QUERY + "&status=2", "status appears more than once"),
        ("https://shop.example/paid", "no query string"),
        ("", "no query string"),
    ],
)
def test_invalid_redirects(given: str, reason: str) -> None:
    result = verify_redirect(given, KEY2, app_id=2553)
    assert not result.valid
    assert reason in result.reason
    assert result.apptransid is None and result.amount is None


def test_redirect_signed_with_another_key_or_for_another_app() -> None:
    assert not verify_redirect(QUERY, "other-key2").valid
    other_app = verify_redirect(QUERY, KEY2, app_id=9999)
    assert not other_app.valid
    assert other_app.reason == "appid 2553 is not this terminal's application (9999)"


DATA = '{"app_id":2553,"app_trans_id":"241121_T1_0002","amount":120000}'
DATA_MAC = "a47503f146d8637b5de4b866366d675f72e376267e1521a16606a930fc7dd226"


def test_valid_callback_as_bytes_text_and_mapping() -> None:
    envelope = {"data": DATA, "mac": DATA_MAC, "type": 1}
    for body in (json.dumps(envelope).encode(), json.dumps(envelope), envelope):
        result = verify_callback(body, KEY2)
        assert result.valid, result.reason
        assert result.data == {"app_id": 2553, "app_trans_id": "241121_T1_0002",
                               "amount": 120000}
        assert result.type == 1
        assert result.reply == {"return_code": 1, "return_message": "success"}


@pytest.mark.parametrize(
    ("body", "reason"),
    [
        (json.dumps({"data": DATA, "mac": "0" * 64, "type": 1}), "bad mac"),
        # one space more in data: the mac is over the string exactly as received
        (json.dumps({"data": DATA.replace(",", ", ", 1), "mac": DATA_MAC, "type": 1}),
         "bad mac"),
        (json.dumps({"mac": DATA_MAC, "type": 1}), "missing field: data"),
        (json.dumps({"data": DATA, "type": 1}), "missing field: mac"),
        ("not json", "the callback body is not JSON"),
        ("[]", "the callback body is not a JSON object"),
        # the envelope names data twice: which one the mac covers depends on the parser
        ('{"data": "{}", "mac": "' + DATA_MAC + '", "type": 1, "data": ' + json.dumps(DATA)
         + "}", "the callback body is not JSON"),
    ],
)
def test_invalid_callbacks(body: str, reason: str) -> None:
    result = verify_callback(body, KEY2)
    assert not result.valid
    assert result.reason.startswith(reason)
    assert result.reply["return_code"] == -1
    assert result.data is None


def test_a_signed_callback_whose_data_repeats_a_key_is_refused() -> None:
    """Signed or not, {"amount": 1, "amount": 120000} reads differently in different parsers."""
    import hashlib
    import hmac

    data = '{"app_trans_id":"241121_T1_0002","amount":1,"amount":120000}'
    mac = hmac.new(KEY2.encode(), data.encode(), hashlib.sha256).hexdigest()
    result = verify_callback(json.dumps({"data": data, "mac": mac, "type": 1}), KEY2)
    assert not result.valid
    assert result.reason.startswith("data is not JSON (or is ambiguous")


def test_callback_fields_of_either_generation_and_the_app_check() -> None:
    import hashlib
    import hmac

    def signed(data: str) -> dict[str, object]:
        mac = hmac.new(KEY2.encode(), data.encode(), hashlib.sha256).hexdigest()
        return {"data": data, "mac": mac, "type": 1}

    v2 = verify_callback(signed('{"app_id":2553,"app_trans_id":"241121_a","amount":5,'
                                '"zp_trans_id":241121000000001}'), KEY2, app_id=2553)
    assert (v2.app_trans_id, v2.amount, v2.zp_trans_id) == ("241121_a", 5, "241121000000001")
    legacy = verify_callback(signed('{"appid":2553,"apptransid":"241121_b","amount":7,'
                                    '"zptransid":241121000000002}'), KEY2, app_id=2553)
    assert (legacy.app_trans_id, legacy.amount, legacy.zp_trans_id) == (
        "241121_b", 7, "241121000000002")
    other = verify_callback(signed('{"appid":1,"apptransid":"241121_b"}'), KEY2, app_id=2553)
    assert not other.valid
    assert other.reason == "app_id 1 is not this terminal's application (2553)"
    assert other.reply["return_code"] == -1
