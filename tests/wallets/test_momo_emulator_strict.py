"""The emulator's MoMo part is as strict as the ZaloPay part: a bad signature, a wrong partner,
an amount outside MoMo's limits, a replayed code are refused; a repeated requestId answers its
first answer once final and 40 while it is not."""

from __future__ import annotations

from typing import Any

import requests

from pos_terminal.config import Settings
from pos_terminal.emulator.momo import service as emulated
from pos_terminal.emulator.momo import signatures
from pos_terminal.wallets.momo.client import MomoClient
from tests.wallets.conftest import momo_account


def _send(emulator: Any, body: dict[str, Any]) -> dict[str, Any]:
    answer = requests.post(f"{emulator.base_url}/v2/gateway/api/pos", json=body, timeout=10)
    data: dict[str, Any] = answer.json()
    return data


def _body(settings: Settings, emulator: Any, code: str, order_id: str = "T-1",
          amount: int = 20_000) -> dict[str, Any]:
    client = MomoClient(momo_account(settings, emulator))
    return dict(client.prepare_pay(order_id, amount, "x", code).body)


def test_a_bad_signature_is_refused(settings: Settings, emulator: Any, momo: Any) -> None:
    body = _body(settings, emulator, emulator.control.momo_code("momo-paid"))
    body["amount"] = 20_001  # changed after signing
    assert _send(emulator, body)["resultCode"] == 13
    assert momo.orders == {}


def test_a_wrong_partner_is_refused(settings: Settings, emulator: Any, momo: Any) -> None:
    body = _body(settings, emulator, emulator.control.momo_code("momo-paid"))
    body["partnerCode"] = "SOMEONE"
    assert _send(emulator, body)["resultCode"] == 11 and momo.orders == {}


def test_an_amount_outside_the_limits_is_refused(settings: Settings, emulator: Any,
                                                 momo: Any) -> None:
    body = _body(settings, emulator, emulator.control.momo_code("momo-paid"))
    body["amount"] = 5_000_001
    body["signature"] = signatures.expected(
        "pay", body, emulated.DEMO_ACCESS_KEY, emulated.DEMO_SECRET_KEY)
    assert _send(emulator, body)["resultCode"] == 22 and momo.orders == {}


def test_a_code_is_used_once(settings: Settings, emulator: Any, momo: Any) -> None:
    code = emulator.control.momo_code("momo-paid")
    assert _send(emulator, _body(settings, emulator, code, "T-1"))["resultCode"] == 0
    again = _send(emulator, _body(settings, emulator, code, "T-2"))
    assert again["resultCode"] == 1002 and list(momo.orders) == ["T-1"]


def test_a_repeated_request_id_is_one_request(settings: Settings, emulator: Any,
                                              momo: Any) -> None:
    body = _body(settings, emulator, emulator.control.momo_code("momo-paid"))
    first = _send(emulator, body)
    assert _send(emulator, body) == first  # final: the same answer, charged once
    assert momo.balances["momo-paid"] == 50_000_000 - 20_000
    momo.processing_s = 3600.0
    slow = _body(settings, emulator, emulator.control.momo_code("momo-slow"), "T-9")
    assert _send(emulator, slow)["resultCode"] == 1000
    assert _send(emulator, slow)["resultCode"] == 40  # not final yet: query it
    assert len(momo.orders) == 2


def test_the_wallets_page_shows_each_momo_customer_s_code(emulator: Any, momo: Any) -> None:
    import re

    page = requests.get(f"{emulator.base_url}/wallets/momo", timeout=10).text
    assert page.count('class="segno"') == 4 and page.count("<svg") == 8  # a QR, a barcode
    for customer in ("momo-paid", "momo-slow", "momo-poor", "momo-hold"):
        card = page[page.index(f'id="momo-{customer}"'):]
        code = re.search(r'data-code="(MM[0-9]{18})"', card)
        assert code is not None and code.group(1) == momo.code(customer)
    listed = requests.get(f"{emulator.base_url}/_emulator/momo/customers", timeout=10).json()
    assert [c["id"] for c in listed["customers"]] == ["momo-paid", "momo-slow", "momo-poor",
                                                      "momo-hold"]
    fresh = requests.post(f"{emulator.base_url}/_emulator/momo/customers/momo-paid/code",
                          json={}, timeout=10).json()
    assert fresh["code"] != listed["customers"][0]["code"] and momo.code("momo-paid") == (
        fresh["code"])
