"""Undocumented values the documentation's own samples send: accepted.

See docs/emulator-compatibility.md.

item="" (no items), legacy embeddata="[]" (no data) and appuser="" are accepted on quick pay and
gateway orders; the mac is still over the values exactly as sent.
"""

from __future__ import annotations

from typing import Any

import pytest

from tests.emulator.wirehelp import (
    APP_ID,
    CREATE_PATH,
    KEY1,
    QUICK_PAY_PATH,
    QuickPay,
    code_of,
    hmac_hex,
    ledger,
    message,
    new_trans_id,
    now_ms,
    outcome,
    post,
    refused_code,
)

LENIENT = [
    ("v2", {"item": ""}), ("v001", {"item": ""}),
    ("v001", {"embed_data": "[]"}),
    ("v2", {"app_user": ""}), ("v001", {"app_user": ""}),
    ("v001", {"app_user": "", "item": "", "embed_data": "[]"}),
]


@pytest.mark.parametrize(("generation", "values"), LENIENT)
def test_quick_pay_accepts_what_the_samples_send(emulator: Any, generation: str,
                                                 values: dict[str, str]) -> None:
    order = QuickPay(code=code_of(emulator.base_url, "an"), **values)
    answer = post(emulator.base_url, QUICK_PAY_PATH[generation], order.form(generation))
    assert outcome(generation, answer)[0] == 1, answer
    assert [c["app_trans_id"] for c in ledger(emulator.base_url)["charges"]] == [
        order.app_trans_id]


def _create(generation: str, app_user: str, embed_data: str, item: str) -> dict[str, str]:
    trans_id, app_time = new_trans_id("l"), str(now_ms())
    mac = hmac_hex(KEY1, "|".join([str(APP_ID), trans_id, app_user, "70000", app_time,
                                   embed_data, item]))
    if generation == "v2":
        return {"app_id": str(APP_ID), "app_trans_id": trans_id, "app_user": app_user,
                "app_time": app_time, "amount": "70000", "embed_data": embed_data,
                "item": item, "description": "d", "bank_code": "", "mac": mac}
    return {"appid": str(APP_ID), "apptransid": trans_id, "appuser": app_user,
            "apptime": app_time, "amount": "70000", "embeddata": embed_data, "item": item,
            "description": "d", "bankcode": "", "mac": mac}


@pytest.mark.parametrize(("generation", "values"), LENIENT)
def test_gateway_orders_accept_what_the_samples_send(emulator: Any, generation: str,
                                                     values: dict[str, str]) -> None:
    fields = {"app_user": "web", "embed_data": "{}", "item": "[]", **values}
    answer = post(emulator.base_url, CREATE_PATH[generation], _create(generation, **fields))
    assert outcome(generation, answer)[0] == 1, answer


def test_the_current_generation_keeps_embed_data_an_object(emulator: Any) -> None:
    order = QuickPay(code=code_of(emulator.base_url, "an"), embed_data="[]")
    answer = post(emulator.base_url, QUICK_PAY_PATH["v2"], order.form("v2"))
    assert refused_code("v2", answer) == -401
    assert message("v2", answer) == "invalid request data: embed_data must be a JSON object"


def test_a_lenient_value_still_needs_the_right_mac(emulator: Any) -> None:
    order = QuickPay(code=code_of(emulator.base_url, "an"), item="")
    form = order.form("v001")
    form["item"] = "[]"  # signed over "", sent as "[]"
    answer = post(emulator.base_url, QUICK_PAY_PATH["v001"], form)
    assert refused_code("v001", answer) == -402
