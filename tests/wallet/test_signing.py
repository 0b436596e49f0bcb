"""Every mac against literal vectors.

Each expected hex was computed once, independently, with the standard hmac module over the
literal string next to it; the test recomputes it the same way, then checks our functions and
our typed request builders produce exactly it.
"""

from __future__ import annotations

import hashlib
import hmac

import pytest

from pos_terminal.wallets.zalopay import messages, signing
from pos_terminal.wallets.zalopay.messages import (
    EmbedData,
    GatewayOrder,
    Item,
    QuickPayOrder,
    RefundRequest,
)

KEY1 = "test-key1-9aXq"
KEY2 = "test-key2-Lm3p"
APP_ID = 2553
APP_TIME = 1732156800123  # 2024-11-21 09:40 in GMT+7
CODE = "123456789012345678"

QUICK_PAY_INPUT = (
    '2553|241121_T1_0001|counter-1|50000|1732156800123|{"merchantinfo":"shop 7"}|'
    '[{"itemid":"sku1","itemname":"Cà phê","itemprice":25000,"itemquantity":2}]|'
    "123456789012345678"
)
QUICK_PAY_HEX = "d39c082d005e3c85fde2f7040abea86ebc7bbd14c73fe8987266a092925ff996"
QUERY_INPUT = "2553|241121_T1_0001|test-key1-9aXq"
QUERY_HEX = "2b5a493357d38548ed09b1ffc41c1493f13e08c84b7ca117f9a49b6c972cdbed"
BANKS_INPUT = "2553|1732156800123"
BANKS_HEX = "38038d8d14da3456fa3c49adb4cf4402f9c208f3ed22519ac128c054074e2811"
CREATE_INPUT = "2553|241121_T1_0002|counter-1|120000|1732156800123|{}|[]"
CREATE_HEX = "607ac36f18e4b0484db4ddaa3e3e29e8e09b11d4922f787e56a9a9cc1d62c83a"
REFUND_INPUT = "2553|241121000000001|50000|Refund order 0001|1732156900000"
REFUND_HEX = "a248ae82ea359f25add91b5ec06afc207c2ac7fa30d3697dda8e25bd2f1eb691"
REFUND_STATUS_INPUT = "2553|241121_2553_0001|1732156900000"
REFUND_STATUS_HEX = "871af95cafbe01d8583135ebeb0db803847e0c7696d18fefb12ef77afd89939a"
REDIRECT_INPUT = "2553|241121_T1_0002|38|zalopayapp|120000|0|1"
REDIRECT_HEX = "2b6ecfe030beea3def2e8b24dfb17ca97d2859cc26760368a1cf8345dc90b617"
CALLBACK_DATA = '{"app_id":2553,"app_trans_id":"241121_T1_0002","amount":120000}'
CALLBACK_HEX = "a47503f146d8637b5de4b866366d675f72e376267e1521a16606a930fc7dd226"


def stdlib_hmac(key: str, data: str) -> str:
    return hmac.new(key.encode(), data.encode(), hashlib.sha256).hexdigest()


@pytest.mark.parametrize(
    ("key", "data", "expected"),
    [
        (KEY1, QUICK_PAY_INPUT, QUICK_PAY_HEX),
        (KEY1, QUERY_INPUT, QUERY_HEX),
        (KEY1, BANKS_INPUT, BANKS_HEX),
        (KEY1, CREATE_INPUT, CREATE_HEX),
        (KEY1, REFUND_INPUT, REFUND_HEX),
        (KEY1, REFUND_STATUS_INPUT, REFUND_STATUS_HEX),
        (KEY2, REDIRECT_INPUT, REDIRECT_HEX),
        (KEY2, CALLBACK_DATA, CALLBACK_HEX),
    ],
)
def test_literal_vectors_are_what_stdlib_hmac_says(key: str, data: str, expected: str) -> None:
    assert stdlib_hmac(key, data) == expected
    assert signing.hmac_hex(key, data) == expected


def test_quick_pay_mac_is_over_the_raw_code_in_spec_order() -> None:
    mac = signing.quick_pay_mac(
        KEY1, APP_ID, "241121_T1_0001", "counter-1", 50000, APP_TIME,
        '{"merchantinfo":"shop 7"}',
        '[{"itemid":"sku1","itemname":"Cà phê","itemprice":25000,"itemquantity":2}]',
        CODE,
    )
    assert mac == QUICK_PAY_HEX


def test_query_mac_has_key1_as_third_segment() -> None:
    assert signing.query_mac(KEY1, APP_ID, "241121_T1_0001") == QUERY_HEX


def test_bank_list_mac() -> None:
    assert signing.bank_list_mac(KEY1, APP_ID, APP_TIME) == BANKS_HEX
    assert signing.bank_list_mac(KEY1, "2553", "1732156800123") == BANKS_HEX


def test_create_order_mac() -> None:
    mac = signing.create_order_mac(
        KEY1, APP_ID, "241121_T1_0002", "counter-1", 120000, APP_TIME, "{}", "[]"
    )
    assert mac == CREATE_HEX


def test_refund_and_refund_status_macs() -> None:
    assert signing.refund_mac(
        KEY1, APP_ID, "241121000000001", 50000, "Refund order 0001", 1732156900000
    ) == REFUND_HEX
    assert signing.refund_status_mac(
        KEY1, APP_ID, "241121_2553_0001", 1732156900000
    ) == REFUND_STATUS_HEX


def test_redirect_checksum_and_callback_mac_use_key2() -> None:
    assert signing.redirect_checksum(
        KEY2, "2553", "241121_T1_0002", "38", "zalopayapp", "120000", "0", "1"
    ) == REDIRECT_HEX
    assert signing.callback_mac(KEY2, CALLBACK_DATA) == CALLBACK_HEX


def test_floats_and_bools_never_reach_a_mac() -> None:
    with pytest.raises(TypeError):
        signing.bank_list_mac(KEY1, APP_ID, 1732156800123.0)  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        signing.refund_mac(KEY1, APP_ID, "1", True, "d", APP_TIME)


def test_verify_is_exact_and_case_insensitive() -> None:
    assert signing.verify(REDIRECT_HEX, REDIRECT_HEX)
    assert signing.verify(REDIRECT_HEX, REDIRECT_HEX.upper())
    assert not signing.verify(REDIRECT_HEX, REDIRECT_HEX[:-1] + "0")
    assert not signing.verify(REDIRECT_HEX, REDIRECT_HEX[:-1])
    assert not signing.verify(REDIRECT_HEX, "")
    assert not signing.verify(REDIRECT_HEX, "é" * 64)


# --- the typed builders sign exactly the string they send ------------------------------------

ORDER = QuickPayOrder(
    app_trans_id="241121_T1_0001",
    app_user="counter-1",
    app_time=APP_TIME,
    amount=50000,
    description="Order 0001",
    items=(Item(itemid="sku1", itemname="Cà phê", itemprice=25000, itemquantity=2),),
    embed_data=EmbedData(merchantinfo="shop 7"),
)


def test_v2_quick_pay_form_signs_the_sent_strings() -> None:
    form = messages.quick_pay_form(ORDER, "v2", APP_ID, KEY1, CODE, "CIPHERTEXT")
    assert form == {
        "app_id": "2553",
        "app_trans_id": "241121_T1_0001",
        "app_user": "counter-1",
        "app_time": "1732156800123",
        "amount": "50000",
        "embed_data": '{"merchantinfo":"shop 7"}',
        "item": '[{"itemid":"sku1","itemname":"Cà phê","itemprice":25000,"itemquantity":2}]',
        "description": "Order 0001",
        "payment_code": "CIPHERTEXT",
        "mac": QUICK_PAY_HEX,
    }


def test_legacy_quick_pay_form_uses_legacy_names_and_the_same_mac() -> None:
    form = messages.quick_pay_form(ORDER, "v001", APP_ID, KEY1, CODE, "CIPHERTEXT")
    assert list(form) == [
        "appid", "apptransid", "appuser", "apptime", "amount", "embeddata", "item",
        "description", "paymentcode", "mac",
    ]
    assert form["mac"] == QUICK_PAY_HEX
    assert form["paymentcode"] == "CIPHERTEXT"


def test_query_forms_of_both_generations() -> None:
    assert messages.query_form("v2", APP_ID, KEY1, "241121_T1_0001") == {
        "app_id": "2553", "app_trans_id": "241121_T1_0001", "mac": QUERY_HEX,
    }
    assert messages.query_form("v001", APP_ID, KEY1, "241121_T1_0001") == {
        "appid": "2553", "apptransid": "241121_T1_0001", "mac": QUERY_HEX,
    }


def test_bank_list_form() -> None:
    assert messages.bank_list_form(APP_ID, KEY1, APP_TIME) == {
        "appid": "2553", "reqtime": "1732156800123", "mac": BANKS_HEX,
    }


def test_create_order_forms() -> None:
    order = GatewayOrder(
        app_trans_id="241121_T1_0002", app_user="counter-1", app_time=APP_TIME, amount=120000,
        bank_code="zalopayapp", title="Counter 1", expire_duration_seconds=900,
    )
    v2 = messages.create_order_form(order, "v2", APP_ID, KEY1)
    assert v2["mac"] == CREATE_HEX
    assert (v2["embed_data"], v2["item"], v2["bank_code"]) == ("{}", "[]", "zalopayapp")
    assert (v2["title"], v2["expire_duration_seconds"]) == ("Counter 1", "900")
    legacy_order = GatewayOrder(
        app_trans_id="241121_T1_0002", app_user="counter-1", app_time=APP_TIME, amount=120000
    )
    legacy = messages.create_order_form(legacy_order, "v001", APP_ID, KEY1)
    assert legacy["mac"] == CREATE_HEX
    assert set(legacy) == {
        "appid", "apptransid", "appuser", "apptime", "amount", "embeddata", "item",
        "description", "bankcode", "mac",
    }


def test_refund_forms() -> None:
    req = RefundRequest(
        m_refund_id="241121_2553_0001", zp_trans_id="241121000000001", amount=50000,
        description="Refund order 0001", timestamp=1732156900000,
    )
    v2 = messages.refund_form(req, "v2", APP_ID, KEY1)
    assert v2 == {
        "app_id": "2553", "m_refund_id": "241121_2553_0001", "zp_trans_id": "241121000000001",
        "amount": "50000", "timestamp": "1732156900000", "description": "Refund order 0001",
        "mac": REFUND_HEX,
    }
    legacy = messages.refund_form(req, "v001", APP_ID, KEY1)
    assert (legacy["mrefundid"], legacy["zptransid"], legacy["mac"]) == (
        "241121_2553_0001", "241121000000001", REFUND_HEX,
    )
    status = messages.refund_status_form("v2", APP_ID, KEY1, "241121_2553_0001", 1732156900000)
    assert status["mac"] == REFUND_STATUS_HEX
    legacy_status = messages.refund_status_form(
        "v001", APP_ID, KEY1, "241121_2553_0001", 1732156900000
    )
    assert legacy_status == {
        "appid": "2553", "mrefundid": "241121_2553_0001", "timestamp": "1732156900000",
        "mac": REFUND_STATUS_HEX,
    }
