"""Per-endpoint item limits (v2 quick pay 1024, 2048 elsewhere) and quick pay's userip."""

from __future__ import annotations

import json
from typing import Any

import pytest

from tests.emulator.wirehelp import (
    CREATE_PATH,
    QUICK_PAY_PATH,
    QuickPay,
    code_of,
    create_form,
    hmac_hex,
    ledger,
    message,
    outcome,
    post,
    refused_code,
)


def item_of_length(n: int) -> str:
    """A JSON array of one item whose text is exactly ``n`` characters."""
    empty = '[{"itemid":"1","itemname":"","itemprice":1000,"itemquantity":1}]'
    text = empty.replace('"itemname":""', '"itemname":"' + "x" * (n - len(empty)) + '"')
    assert len(text) == n and json.loads(text)
    return text


@pytest.mark.parametrize(("generation", "limit"), [("v2", 1024), ("v001", 2048)])
def test_quick_pay_item_limit_per_generation(emulator: Any, generation: str, limit: int) -> None:
    at_limit = QuickPay(code=code_of(emulator.base_url, "an"), item=item_of_length(limit))
    answer = post(emulator.base_url, QUICK_PAY_PATH[generation], at_limit.form(generation))
    assert outcome(generation, answer)[0] == 1, answer
    over = QuickPay(code=code_of(emulator.base_url, "an"), item=item_of_length(limit + 1))
    refused = post(emulator.base_url, QUICK_PAY_PATH[generation], over.form(generation))
    assert refused_code(generation, refused) == -401
    assert message(generation, refused) == (
        f"invalid request data: item is longer than {limit} characters ({limit + 1})")
    assert [c["app_trans_id"] for c in ledger(emulator.base_url)["charges"]] == [
        at_limit.app_trans_id]


@pytest.mark.parametrize("generation", ["v2", "v001"])
def test_gateway_orders_keep_the_2048_item_limit(emulator: Any, generation: str) -> None:
    def created(item: str) -> dict[str, Any]:
        form = create_form(generation)
        names = ("app_id", "app_trans_id", "app_user", "amount", "app_time", "embed_data") if (
            generation == "v2") else ("appid", "apptransid", "appuser", "amount", "apptime",
                                      "embeddata")
        form["item"] = item
        form["mac"] = hmac_hex("emulator-test-key1-PcY4iZIKFCIdgZvA6ueMcMHHUbRLYjPL", "|".join(
            [*(form[n] for n in names), item]))
        return post(emulator.base_url, CREATE_PATH[generation], form)

    assert outcome(generation, created(item_of_length(2048)))[0] == 1
    assert refused_code(generation, created(item_of_length(2049))) == -401


@pytest.mark.parametrize("generation", ["v2", "v001"])
@pytest.mark.parametrize("name", ["userip", "userIP"])
def test_userip_is_accepted_recorded_and_not_in_the_mac(emulator: Any, generation: str,
                                                       name: str) -> None:
    order = QuickPay(code=code_of(emulator.base_url, "an"))
    form = {**order.form(generation), name: "192.168.1.23"}  # same mac as without it
    answer = post(emulator.base_url, QUICK_PAY_PATH[generation], form)
    assert outcome(generation, answer)[0] == 1, answer
    [charge] = ledger(emulator.base_url)["charges"]
    assert charge["user_ip"] == "192.168.1.23"


def test_a_userip_that_is_not_an_address_is_refused(emulator: Any) -> None:
    order = QuickPay(code=code_of(emulator.base_url, "an"))
    answer = post(emulator.base_url, QUICK_PAY_PATH["v2"],
                  {**order.form("v2"), "userip": "my-laptop"})
    assert refused_code("v2", answer) == -401
    assert message("v2", answer) == (
        "invalid request data: userip must be the user's IP address: 'my-laptop'")
    assert ledger(emulator.base_url)["charges"] == []
