"""Refunds in both generations: partial and full, never more than what remains, asynchronous."""

from __future__ import annotations

from typing import Any

import pytest

from tests.emulator.wirehelp import (
    QUERY_REFUND_PATH,
    QUICK_PAY_PATH,
    REFUND_PATH,
    QuickPay,
    code_of,
    ledger,
    new_refund_id,
    post,
    query_refund_form,
    refund_form,
    refused_code,
    wait_until,
)

DONE = {"v2": 1, "v001": 1}
PROCESSING = {"v2": 3, "v001": 2}


def _paid(emulator: Any, amount: int = 50000, wallet: str = "an") -> str:
    order = QuickPay(code=code_of(emulator.base_url, wallet), amount=str(amount))
    answer = post(emulator.base_url, QUICK_PAY_PATH["v2"], order.form("v2"))
    assert answer["return_code"] in (1, 3)
    return str(answer["zp_trans_id"])


def _rc(generation: str, answer: dict[str, Any]) -> int:
    return int(answer["return_code" if generation == "v2" else "returncode"])


def _refund(emulator: Any, generation: str, zp_trans_id: str, amount: int,
            m_refund_id: str = "") -> dict[str, Any]:
    return post(emulator.base_url, REFUND_PATH[generation],
                refund_form(generation, zp_trans_id, amount, m_refund_id))


def _status(emulator: Any, generation: str, m_refund_id: str) -> dict[str, Any]:
    return post(emulator.base_url, QUERY_REFUND_PATH[generation],
                query_refund_form(generation, m_refund_id))


@pytest.mark.parametrize("generation", ["v2", "v001"])
def test_partial_then_full_refund(emulator: Any, generation: str) -> None:
    zp_trans_id = _paid(emulator, 50000)
    first_id = new_refund_id()
    first = _refund(emulator, generation, zp_trans_id, 20000, first_id)
    assert _rc(generation, first) == PROCESSING[generation]
    assert str(first["refund_id" if generation == "v2" else "refundid"]).isdigit()
    assert ledger(emulator.base_url)["balances"]["an"] == 50_000_000 - 50000  # not yet
    wait_until(lambda: _rc(generation, _status(emulator, generation, first_id)) == 1)
    assert ledger(emulator.base_url)["balances"]["an"] == 50_000_000 - 30000

    too_much = _refund(emulator, generation, zp_trans_id, 30001)
    assert refused_code(generation, too_much) == -401
    assert "30001 is more than what remains to refund (30000)" in str(too_much)

    rest = _refund(emulator, generation, zp_trans_id, 30000)
    assert _rc(generation, rest) == PROCESSING[generation]
    nothing_left = _refund(emulator, generation, zp_trans_id, 1)
    assert refused_code(generation, nothing_left) == -401
    refunds = ledger(emulator.base_url)["refunds"]
    assert [(r["amount"], r["zp_trans_id"]) for r in refunds] == [
        (20000, int(zp_trans_id)), (30000, int(zp_trans_id))]
    wait_until(lambda: ledger(emulator.base_url)["balances"]["an"] == 50_000_000)


@pytest.mark.parametrize("generation", ["v2", "v001"])
def test_same_refund_request_again_refunds_once(emulator: Any, generation: str) -> None:
    zp_trans_id = _paid(emulator, 50000)
    m_refund_id = new_refund_id()
    first = _refund(emulator, generation, zp_trans_id, 10000, m_refund_id)
    again = _refund(emulator, generation, zp_trans_id, 10000, m_refund_id)
    key = "refund_id" if generation == "v2" else "refundid"
    assert first[key] == again[key]
    assert len(ledger(emulator.base_url)["refunds"]) == 1
    other = _refund(emulator, generation, zp_trans_id, 5000, m_refund_id)
    assert refused_code(generation, other) == -68


@pytest.mark.parametrize("generation", ["v2", "v001"])
def test_refund_refusals(emulator: Any, generation: str) -> None:
    zp_trans_id = _paid(emulator, 50000)
    assert refused_code(generation, _refund(emulator, generation, "261121999999999", 1)) == -101
    bad_id = _refund(emulator, generation, zp_trans_id, 1, m_refund_id="991231_2553_x")
    assert refused_code(generation, bad_id) == -401
    assert ("m_refund_id" if generation == "v2" else "mrefundid") in str(bad_id)
    form = refund_form(generation, zp_trans_id, 1, key1="wrong")
    assert refused_code(generation, post(emulator.base_url, REFUND_PATH[generation], form)) == -402
    unpaid = _paid(emulator, 1000, wallet="chi")  # still processing
    assert refused_code(generation, _refund(emulator, generation, unpaid, 1)) == -401
    assert refused_code(generation, _status(emulator, generation, new_refund_id())) == -101
