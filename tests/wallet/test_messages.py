"""Request validation (every limit at its bound and one past it) and the message builders."""

from __future__ import annotations

import json
from dataclasses import replace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pos_terminal.wallets.errors import FieldError
from pos_terminal.wallets.zalopay import messages, signing
from pos_terminal.wallets.zalopay.ids import vn_date_prefix
from pos_terminal.wallets.zalopay.messages import (
    EmbedData,
    GatewayOrder,
    Item,
    QuickPayOrder,
    RefundRequest,
)

KEY1 = "test-key1-9aXq"
APP_TIME = 1732156800123  # 2024-11-21 in GMT+7
DAY = "241121"

# The wire names, spelled out here independently of fields.py.
NAMES = {
    "v2": {"app_user": "app_user", "app_trans_id": "app_trans_id", "amount": "amount",
           "description": "description", "embed_data": "embed_data", "item": "item",
           "app_time": "app_time", "payment_code": "payment_code", "app_id": "app_id",
           "mac": "mac", "m_refund_id": "m_refund_id", "zp_trans_id": "zp_trans_id",
           "timestamp": "timestamp"},
    "v001": {"app_user": "appuser", "app_trans_id": "apptransid", "amount": "amount",
             "description": "description", "embed_data": "embeddata", "item": "item",
             "app_time": "apptime", "payment_code": "paymentcode", "app_id": "appid",
             "mac": "mac", "m_refund_id": "mrefundid", "zp_trans_id": "zptransid",
             "timestamp": "timestamp"},
}
GENERATIONS = ("v2", "v001")

BASE = QuickPayOrder(app_trans_id=f"{DAY}_T1_1", app_user="counter-1", app_time=APP_TIME,
                     amount=50000)
EMPTY_EMBED_LEN = len('{"merchantinfo":""}')
EMPTY_ITEM_LEN = len('[{"itemid":"","itemname":"","itemprice":0,"itemquantity":1}]')


def embed_of_length(n: int) -> EmbedData:
    return EmbedData(merchantinfo="e" * (n - EMPTY_EMBED_LEN))


def items_of_length(n: int) -> tuple[Item, ...]:
    return (Item(itemid="", itemname="x" * (n - EMPTY_ITEM_LEN), itemprice=0, itemquantity=1),)


def refused(order: QuickPayOrder | GatewayOrder, generation: str) -> str:
    with pytest.raises(FieldError) as err:
        order.validate(generation)
    return err.value.field


def test_serialisation_is_compact_utf8_and_stable() -> None:
    items = (Item("sku1", "Cà phê sữa", 25000, 2), Item("sku2", 'Bánh "mì"', 15000, 1))
    assert messages.item_json(items) == (
        '[{"itemid":"sku1","itemname":"Cà phê sữa","itemprice":25000,"itemquantity":2},'
        '{"itemid":"sku2","itemname":"Bánh \\"mì\\"","itemprice":15000,"itemquantity":1}]'
    )
    embed = EmbedData(bankgroup="ATM", merchantinfo="m", extra={"zz": "2", "aa": "1"},
                      promotioninfo='{"campaigncode":"X"}')
    assert messages.embed_data_json(embed) == (
        '{"merchantinfo":"m","promotioninfo":"{\\"campaigncode\\":\\"X\\"}","bankgroup":"ATM",'
        '"aa":"1","zz":"2"}'
    )
    assert messages.embed_data_json(EmbedData()) == "{}"
    assert messages.item_json(()) == "[]"


@pytest.mark.parametrize("generation", GENERATIONS)
def test_app_user_limit_50(generation: str) -> None:
    replace(BASE, app_user="u" * 50).validate(generation)
    assert refused(replace(BASE, app_user="u" * 51), generation) == NAMES[generation]["app_user"]
    assert refused(replace(BASE, app_user=""), generation) == NAMES[generation]["app_user"]


@pytest.mark.parametrize("generation", GENERATIONS)
def test_app_trans_id_limit_40_and_shape(generation: str) -> None:
    name = NAMES[generation]["app_trans_id"]
    at_limit = f"{DAY}_" + "x" * 33
    assert len(at_limit) == 40
    replace(BASE, app_trans_id=at_limit).validate(generation)
    assert refused(replace(BASE, app_trans_id=at_limit + "x"), generation) == name
    for bad in ("", "241121", "241121_", "24112_abc", "241321_abc", "241121_a b", "241121_ä"):
        assert refused(replace(BASE, app_trans_id=bad), generation) == name, bad


@pytest.mark.parametrize("generation", GENERATIONS)
def test_description_limit_100(generation: str) -> None:
    replace(BASE, description="d" * 100).validate(generation)
    assert refused(replace(BASE, description="d" * 101), generation) == "description"


@pytest.mark.parametrize("generation", GENERATIONS)
def test_embed_data_limit_1024(generation: str) -> None:
    replace(BASE, embed_data=embed_of_length(1024)).validate(generation)
    assert len(messages.embed_data_json(embed_of_length(1024))) == 1024
    too_long = replace(BASE, embed_data=embed_of_length(1025))
    assert refused(too_long, generation) == NAMES[generation]["embed_data"]


# item limit per endpoint: v2 quick pay 1024 (the service's v2 documentation), 2048 elsewhere
ITEM_LIMITS = [("quick_pay", "v2", 1024), ("quick_pay", "v001", 2048), ("create", "v2", 2048),
               ("create", "v001", 2048)]


@pytest.mark.parametrize(("endpoint", "generation", "limit"), ITEM_LIMITS)
def test_item_limit_per_endpoint(endpoint: str, generation: str, limit: int) -> None:
    base: QuickPayOrder | GatewayOrder = BASE if endpoint == "quick_pay" else GW
    assert len(messages.item_json(items_of_length(limit))) == limit
    replace(base, items=items_of_length(limit)).validate(generation)
    assert refused(replace(base, items=items_of_length(limit + 1)), generation) == "item"


def test_v2_quick_pay_item_1025_is_refused_before_anything_is_signed() -> None:
    with pytest.raises(FieldError) as err:
        messages.quick_pay_form(replace(BASE, items=items_of_length(1025)), "v2", 2553, KEY1,
                                "123456789012345678", "CIPHER")
    assert err.value.message == "item is 1025 characters long; the limit is 1024"


def test_userip_goes_in_the_form_not_in_the_mac() -> None:
    code = "123456789012345678"
    without = messages.quick_pay_form(BASE, "v2", 2553, KEY1, code, "CIPHER")
    with_ip = messages.quick_pay_form(BASE, "v2", 2553, KEY1, code, "CIPHER", "192.168.1.20")
    assert "userip" not in without
    assert with_ip["userip"] == "192.168.1.20"
    assert with_ip["mac"] == without["mac"]
    legacy = messages.quick_pay_form(BASE, "v001", 2553, KEY1, code, "CIPHER", "10.0.0.7")
    assert legacy["userip"] == "10.0.0.7"
    with pytest.raises(FieldError) as err:
        messages.quick_pay_form(BASE, "v2", 2553, KEY1, code, "CIPHER", "not-an-ip")
    assert err.value.field == "userip"


def test_embed_limit_counts_characters_not_bytes() -> None:
    embed = EmbedData(merchantinfo="ệ" * (1024 - EMPTY_EMBED_LEN))
    replace(BASE, embed_data=embed).validate("v2")


@pytest.mark.parametrize("generation", GENERATIONS)
@pytest.mark.parametrize("amount", [0, -1, 1.5, True, "100"])
def test_amount_must_be_a_positive_integer(generation: str, amount: object) -> None:
    assert refused(replace(BASE, amount=amount), generation) == "amount"  # type: ignore[arg-type]


def test_amount_one_is_fine() -> None:
    replace(BASE, amount=1).validate("v2")


@pytest.mark.parametrize("generation", GENERATIONS)
def test_app_time_must_be_milliseconds(generation: str) -> None:
    seconds = APP_TIME // 1000
    assert refused(replace(BASE, app_time=seconds), generation) == NAMES[generation]["app_time"]


def test_items_must_be_well_formed() -> None:
    assert refused(replace(BASE, items=(Item("a", "b", -1, 1),)), "v2") == "item"
    assert refused(replace(BASE, items=(Item("a", "b", 1, 0),)), "v2") == "item"


def test_extra_embed_keys_cannot_shadow_known_ones() -> None:
    embed = EmbedData(extra={"redirecturl": "https://evil.example"})
    assert refused(replace(BASE, embed_data=embed), "v001") == "embeddata"


def test_payment_code_is_checked_without_echoing_it() -> None:
    for bad in ("", " 1234", "12\n34", "１２３４"):
        with pytest.raises(FieldError) as err:
            messages.quick_pay_form(BASE, "v2", 2553, KEY1, bad, "x")
        assert err.value.field == "payment_code"
        assert bad.strip() not in err.value.message or not bad.strip()


# --- gateway order (current generation has larger limits) ------------------------------------

GW = GatewayOrder(app_trans_id=f"{DAY}_T1_2", app_user="counter-1", app_time=APP_TIME,
                  amount=120000)


def test_v2_create_limits_description_256_embed_2048() -> None:
    replace(GW, description="d" * 256, embed_data=embed_of_length(2048)).validate("v2")
    assert refused(replace(GW, description="d" * 257), "v2") == "description"
    assert refused(replace(GW, embed_data=embed_of_length(2049)), "v2") == "embed_data"


def test_legacy_create_keeps_quick_pay_limits() -> None:
    replace(GW, description="d" * 100, embed_data=embed_of_length(1024)).validate("v001")
    assert refused(replace(GW, description="d" * 101), "v001") == "description"
    assert refused(replace(GW, embed_data=embed_of_length(1025)), "v001") == "embeddata"


def test_expire_duration_range_and_generation() -> None:
    for ok in (300, 2_592_000):
        replace(GW, expire_duration_seconds=ok).validate("v2")
    for bad in (299, 2_592_001):
        assert refused(replace(GW, expire_duration_seconds=bad), "v2") == "expire_duration_seconds"
    assert refused(replace(GW, expire_duration_seconds=900), "v001") == "expire_duration_seconds"
    assert refused(replace(GW, title="t"), "v001") == "title"


# --- refunds ----------------------------------------------------------------------------------

REFUND = RefundRequest(m_refund_id=f"{DAY}_2553_1", zp_trans_id="241121000000001", amount=1000,
                       description="refund", timestamp=APP_TIME)


@pytest.mark.parametrize("generation", GENERATIONS)
def test_m_refund_id_limit_45(generation: str) -> None:
    name = NAMES[generation]["m_refund_id"]
    at_limit = f"{DAY}_2553_" + "r" * 33
    assert len(at_limit) == 45
    replace(REFUND, m_refund_id=at_limit).validate(generation, 2553)
    with pytest.raises(FieldError) as err:
        replace(REFUND, m_refund_id=at_limit + "r").validate(generation, 2553)
    assert err.value.field == name
    with pytest.raises(FieldError) as other_app:
        REFUND.validate(generation, 2554)
    assert other_app.value.field == name


@pytest.mark.parametrize("generation", GENERATIONS)
def test_refund_fields(generation: str) -> None:
    names = NAMES[generation]
    cases = {
        names["zp_trans_id"]: replace(REFUND, zp_trans_id="abc"),
        "amount": replace(REFUND, amount=0),
        "description": replace(REFUND, description="d" * 101),
    }
    replace(REFUND, description="d" * 100).validate(generation)
    for name, req in cases.items():
        with pytest.raises(FieldError) as err:
            req.validate(generation)
        assert err.value.field == name


# --- properties ------------------------------------------------------------------------------

text = st.text(st.characters(codec="utf-8"), max_size=30)
item_st = st.builds(Item, itemid=text, itemname=text,
                    itemprice=st.integers(0, 10**9), itemquantity=st.integers(1, 999))
valid_time = st.integers(1_600_000_000_000, 2_000_000_000_000)


@st.composite
def valid_orders(draw: st.DrawFn) -> QuickPayOrder:
    app_time = draw(valid_time)
    unique = draw(st.text("abcXYZ0189_-", min_size=1, max_size=33))
    return QuickPayOrder(
        app_trans_id=f"{vn_date_prefix(app_time)}_{unique}",
        app_user=draw(st.text(st.characters(codec="utf-8"), min_size=1,
                              max_size=50).filter(lambda s: s.strip() != "")),
        app_time=app_time,
        amount=draw(st.integers(1, 10**12)),
        description=draw(st.text(st.characters(codec="utf-8"), max_size=100)),
        items=tuple(draw(st.lists(item_st, max_size=5))),
        embed_data=EmbedData(merchantinfo=draw(st.none() | text),
                             redirecturl=draw(st.none() | st.just("https://shop.example/r?x=1")),
                             extra=draw(st.dictionaries(st.text("kq", min_size=1, max_size=3),
                                                        text, max_size=3))),
    )


codes = st.text(st.characters(min_codepoint=0x21, max_codepoint=0x7E), min_size=1, max_size=40)


@settings(max_examples=150, deadline=None)
@given(order=valid_orders(), code=codes, generation=st.sampled_from(GENERATIONS))
def test_any_valid_order_signs_and_verifies(order: QuickPayOrder, code: str,
                                            generation: str) -> None:
    form = messages.quick_pay_form(order, generation, 2553, KEY1, code, "CIPHER")
    n = NAMES[generation]
    # what the service does: rebuild the mac input from the fields as received + the raw code
    mac_input = "|".join([form[n["app_id"]], form[n["app_trans_id"]], form[n["app_user"]],
                          form[n["amount"]], form[n["app_time"]], form[n["embed_data"]],
                          form[n["item"]], code])
    assert signing.verify(signing.hmac_hex(KEY1, mac_input), form[n["mac"]])
    assert json.loads(form[n["item"]]) == [
        {"itemid": i.itemid, "itemname": i.itemname, "itemprice": i.itemprice,
         "itemquantity": i.itemquantity} for i in order.items
    ]
    assert json.loads(form[n["embed_data"]]) == order.embed_data.as_wire()
    assert form[n["amount"]] == str(order.amount)
    assert form[n["payment_code"]] == "CIPHER"
    tampered = dict(form)
    tampered[n["amount"]] = str(order.amount + 1)
    retampered = "|".join([tampered[n["app_id"]], tampered[n["app_trans_id"]],
                           tampered[n["app_user"]], tampered[n["amount"]],
                           tampered[n["app_time"]], tampered[n["embed_data"]],
                           tampered[n["item"]], code])
    assert not signing.verify(signing.hmac_hex(KEY1, retampered), form[n["mac"]])


BREAKERS = {
    "app_user": lambda o, d: replace(o, app_user=d(st.text("uv", min_size=51, max_size=80))),
    "app_trans_id": lambda o, d: replace(o, app_trans_id=d(st.sampled_from([
        o.app_trans_id + "x" * 40, "x" + o.app_trans_id, o.app_trans_id[6:],
        vn_date_prefix(o.app_time + 86_400_000) + o.app_trans_id[6:]]))),
    "amount": lambda o, d: replace(o, amount=d(st.integers(-(10**9), 0))),
    "description": lambda o, d: replace(o, description=d(st.text("ab", min_size=101,
                                                                 max_size=150))),
    "embed_data": lambda o, d: replace(o, embed_data=EmbedData(
        merchantinfo=d(st.text("ab", min_size=1010, max_size=1100)))),
    "item": lambda o, d: replace(o, items=(Item("i", d(st.text("ab", min_size=2050,
                                                               max_size=2100)), 1, 1),)),
    "app_time": lambda o, d: replace(o, app_time=d(st.integers(0, 10**11))),
}


@settings(max_examples=150, deadline=None)
@given(order=valid_orders(), broken=st.sampled_from(sorted(BREAKERS)),
       generation=st.sampled_from(GENERATIONS), data=st.data())
def test_any_invalid_field_is_refused_with_its_name(order: QuickPayOrder, broken: str,
                                                    generation: str, data: st.DataObject) -> None:
    bad = BREAKERS[broken](order, data.draw)
    with pytest.raises(FieldError) as err:
        messages.quick_pay_form(bad, generation, 2553, KEY1, "123456789012345678", "CIPHER")
    assert err.value.field == NAMES[generation][broken]
    assert err.value.field in err.value.message
