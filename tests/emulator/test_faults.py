"""Every fault mode produces what it claims, seen from a plain HTTP client (requests)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import requests

from pos_terminal.config import load_settings
from pos_terminal.emulator import FaultRule, start_emulator
from tests.emulator.wirehelp import QuickPay, code_of, ledger, post, query, wait_until

REPO = Path(__file__).resolve().parents[2]


def _fault(emulator: Any, **rule: Any) -> requests.Response:
    return requests.post(emulator.base_url + "/_emulator/faults", json=rule, timeout=5)


def _send(emulator: Any, wallet: str = "an", timeout: float = 10) -> tuple[QuickPay,
                                                                           requests.Response]:
    order = QuickPay(code=code_of(emulator.base_url, wallet))
    response = requests.post(emulator.base_url + "/v2/quick_pay", data=order.form("v2"),
                             timeout=timeout)
    return order, response


def _charges(emulator: Any, app_trans_id: str) -> list[dict[str, Any]]:
    return [c for c in ledger(emulator.base_url)["charges"] if c["app_trans_id"] == app_trans_id]


def _assert_not_committed(emulator: Any, order: QuickPay) -> None:
    assert _charges(emulator, order.app_trans_id) == []
    assert query(emulator.base_url, "v2", order.app_trans_id)["sub_return_code"] == -101
    # the code was not consumed: the same order goes through now
    retry = requests.post(emulator.base_url + "/v2/quick_pay", data=order.form("v2"), timeout=10)
    assert retry.json()["return_code"] == 1


def _assert_committed_once(emulator: Any, order: QuickPay) -> None:
    charges = _charges(emulator, order.app_trans_id)
    assert [(c["state"], c["amount"]) for c in charges] == [("succeeded", 50000)]
    assert query(emulator.base_url, "v2", order.app_trans_id)["return_code"] == 1


def test_http500_commits_nothing(emulator: Any) -> None:
    assert _fault(emulator, endpoint="quick_pay", mode="http500").status_code == 200
    order, response = _send(emulator)
    assert response.status_code == 500
    assert response.text == "500 Internal Server Error"
    _assert_not_committed(emulator, order)


@pytest.mark.parametrize("status", [502, 503, 200])
def test_html_error_page(emulator: Any, status: int) -> None:
    _fault(emulator, endpoint="quick_pay", mode="html", status=status)
    order, response = _send(emulator)
    assert response.status_code == status
    assert response.headers["Content-Type"].startswith("text/html")
    assert response.text.startswith("<!DOCTYPE html>")
    with pytest.raises(ValueError):
        response.json()
    _assert_not_committed(emulator, order)


def test_refuse_with_a_return_code(emulator: Any) -> None:
    _fault(emulator, endpoint="quick_pay", mode="refuse", return_code=-429)
    order, response = _send(emulator)
    assert response.status_code == 200
    assert (response.json()["return_code"], response.json()["sub_return_code"]) == (2, -429)
    _assert_not_committed(emulator, order)


def test_garbage_after_commit(emulator: Any) -> None:
    _fault(emulator, endpoint="quick_pay", mode="garbage")
    order, response = _send(emulator)
    assert response.status_code == 200
    with pytest.raises(ValueError):
        response.json()
    _assert_committed_once(emulator, order)


def test_truncated_json_after_commit(emulator: Any) -> None:
    _fault(emulator, endpoint="quick_pay", mode="truncated")
    order, response = _send(emulator)
    assert response.status_code == 200
    assert response.text.startswith('{"return_code": 1')
    with pytest.raises(ValueError):
        response.json()
    _assert_committed_once(emulator, order)


def test_drop_commits_nothing(emulator: Any) -> None:
    _fault(emulator, endpoint="quick_pay", mode="drop")
    with pytest.raises(requests.ConnectionError):
        _send(emulator)
    assert ledger(emulator.base_url)["charges"] == []
    assert ledger(emulator.base_url)["requests"]["quick_pay"] == 1


def test_drop_after_commit_charges_once(emulator: Any) -> None:
    _fault(emulator, endpoint="quick_pay", mode="drop_after_commit")
    order = QuickPay(code=code_of(emulator.base_url, "an"))
    with pytest.raises(requests.ConnectionError):
        requests.post(emulator.base_url + "/v2/quick_pay", data=order.form("v2"), timeout=10)
    _assert_committed_once(emulator, order)
    # sending the same order again is a duplicate, never a second charge
    again = post(emulator.base_url, "/v2/quick_pay", order.form("v2"))
    assert again["sub_return_code"] == -68
    assert len(_charges(emulator, order.app_trans_id)) == 1


SCOPES = pytest.mark.parametrize("wallet", [None, "an"], ids=["endpoint_rule", "wallet_rule"])


@SCOPES
def test_delay_commits_first_then_answers_late(emulator: Any, wallet: str | None) -> None:
    # A slow answer: the charge is committed at once, only the answer waits. Same for a rule on
    # the whole endpoint and a rule bound to the wallet.
    _fault(emulator, endpoint="quick_pay", mode="delay", delay_s=8, wallet=wallet)
    order = QuickPay(code=code_of(emulator.base_url, "an"))
    with pytest.raises(requests.ReadTimeout):
        requests.post(emulator.base_url + "/v2/quick_pay", data=order.form("v2"), timeout=0.3)
    # the answer is still seconds away, yet the status query already finds the order paid
    _assert_committed_once(emulator, order)


@SCOPES
def test_delay_before_commit_holds_the_request_in_transit(emulator: Any,
                                                          wallet: str | None) -> None:
    _fault(emulator, endpoint="quick_pay", mode="delay_before_commit", delay_s=2.0,
           wallet=wallet)
    order = QuickPay(code=code_of(emulator.base_url, "an"))
    with pytest.raises(requests.ReadTimeout):
        requests.post(emulator.base_url + "/v2/quick_pay", data=order.form("v2"), timeout=0.3)
    # not there yet: the request is still "on its way"
    assert query(emulator.base_url, "v2", order.app_trans_id)["sub_return_code"] == -101
    assert _charges(emulator, order.app_trans_id) == []
    # then it lands, once
    wait_until(lambda: _charges(emulator, order.app_trans_id))
    _assert_committed_once(emulator, order)
    assert ledger(emulator.base_url)["requests"]["quick_pay"] == 1


def test_delay_before_commit_answers_normally(emulator: Any) -> None:
    _fault(emulator, endpoint="quick_pay", mode="delay_before_commit", delay_s=0.2)
    order, response = _send(emulator)
    assert response.json()["return_code"] == 1
    _assert_committed_once(emulator, order)


def test_count_limits_the_fault_to_the_next_n_requests(emulator: Any) -> None:
    _fault(emulator, endpoint="quick_pay", mode="http500", count=2)
    assert [_send(emulator)[1].status_code for _ in range(3)] == [500, 500, 200]
    assert requests.get(emulator.base_url + "/_emulator/faults", timeout=5).json() == {
        "faults": []}


def test_count_zero_lasts_until_cleared(emulator: Any) -> None:
    _fault(emulator, endpoint="*", mode="http500", count=0)
    assert [_send(emulator)[1].status_code for _ in range(3)] == [500, 500, 500]
    assert requests.delete(emulator.base_url + "/_emulator/faults", timeout=5).ok
    assert _send(emulator)[1].status_code == 200


def test_fault_is_per_endpoint(emulator: Any) -> None:
    _fault(emulator, endpoint="query", mode="http500")
    order, response = _send(emulator)
    assert response.json()["return_code"] == 1
    status = requests.post(emulator.base_url + "/v2/query", timeout=5, data={
        "app_id": "2553", "app_trans_id": order.app_trans_id, "mac": "0"})
    assert status.status_code == 500
    assert query(emulator.base_url, "v2", order.app_trans_id)["return_code"] == 1


def test_fault_for_one_wallet(emulator: Any) -> None:
    _fault(emulator, endpoint="quick_pay", mode="drop_after_commit", wallet="binh")
    _, response = _send(emulator, "an")
    assert response.json()["return_code"] == 1
    with pytest.raises(requests.ConnectionError):
        _send(emulator, "binh")
    binh = [c for c in ledger(emulator.base_url)["charges"] if c["wallet"] == "binh"]
    assert [(c["state"], c["amount"]) for c in binh] == [("processing", 50000)]


def test_wallet_fault_that_does_not_commit(emulator: Any) -> None:
    _fault(emulator, endpoint="quick_pay", mode="http500", wallet="an")
    order, response = _send(emulator, "an")
    assert response.status_code == 500
    _assert_not_committed(emulator, order)


@pytest.mark.parametrize(("rule", "error"), [
    ({"endpoint": "pay", "mode": "drop"}, "endpoint must be one of"),
    ({"endpoint": "query", "mode": "explode"}, "mode must be one of"),
    ({"mode": "drop", "count": -1}, "count must be a whole number"),
    ({"mode": "drop", "wallet": "zoe"}, "wallet must be one of an, binh, chi, dung"),
    ({"mode": "html", "status": 404}, "status must be one of"),
    ({"mode": "drop", "color": "red"}, "unknown key 'color'"),
])
def test_bad_fault_spec_is_refused_with_a_reason(emulator: Any, rule: dict[str, Any],
                                                 error: str) -> None:
    response = _fault(emulator, **rule)
    assert response.status_code == 400
    assert error in response.json()["error"]
    assert requests.get(emulator.base_url + "/_emulator/faults", timeout=5).json() == {
        "faults": []}


def test_faults_from_configuration_come_back_after_reset() -> None:
    settings = load_settings(REPO / "config" / "default.toml", env={})
    rule = FaultRule(endpoint="banks", mode="http500", count=1)
    with start_emulator(settings, faults=(rule,)) as server:
        banks = server.base_url + "/api/getlistmerchantbanks"
        assert requests.get(banks, timeout=5).status_code == 500
        assert requests.get(banks, timeout=5).status_code == 200  # unsigned: a JSON refusal
        requests.post(server.base_url + "/_emulator/reset", json={}, timeout=5).raise_for_status()
        assert requests.get(banks, timeout=5).status_code == 500
