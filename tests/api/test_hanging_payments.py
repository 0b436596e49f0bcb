"""Payments hanging at the wallet starve nothing: with more of them than FastAPI's shared pool
has threads (40), every one reaches the wallet, and a look-up by sale_ref, an abort, the event
stream and a new payment still answer while they hang (api/pools.py)."""

from __future__ import annotations

import contextlib
import threading
from collections.abc import Iterator

import pytest
import requests

from pos_terminal.config import Settings
from tests.api.conftest import Api, start_api, wait_until

HANGING = 45  # more than the 40 threads of the shared pool
HOLD_S = 25.0


@pytest.fixture
def slow_api(settings: Settings, emulator: object) -> Iterator[Api]:
    patient = settings.replace_service(timeout_s=HOLD_S + 5).replace_section(
        "checkout", poll_deadline_s=60.0)
    running, stop = start_api(patient, emulator)
    try:
        yield running
    finally:
        requests.delete(running.emulator.base_url + "/_emulator/faults", timeout=5)
        stop()


def _quick_pays(api: Api) -> int:
    answer = requests.get(api.emulator.base_url + "/_emulator/ledger", timeout=5)
    return int(answer.json()["requests"].get("quick_pay", 0))


def test_hanging_payments_starve_no_look_up_abort_event_or_new_payment(slow_api: Api) -> None:
    api = slow_api
    rule = {"endpoint": "quick_pay", "mode": "delay_before_commit", "delay_s": HOLD_S,
            "count": 0, "wallet": "binh"}
    assert requests.post(api.emulator.base_url + "/_emulator/faults", json=rule,
                         timeout=5).status_code == 200
    codes = [api.wallet_code("binh") for _ in range(HANGING)]
    before = _quick_pays(api)

    def pay(n: int) -> None:
        with contextlib.suppress(requests.RequestException):
            api.post("/v1/payments", {"amount": 1000, "sale_ref": f"hang-{n}",
                                      "payment_code": codes[n]}, timeout=HOLD_S + 30)

    threads = [threading.Thread(target=pay, args=(n,), daemon=True) for n in range(HANGING)]
    for thread in threads:
        thread.start()
    # every one reaches the wallet (no payment waits for a thread)
    wait_until(f"{HANGING} payments at the wallet",
               lambda: _quick_pays(api) - before >= HANGING, timeout_s=HOLD_S - 5)

    looked_up = api.get("/v1/payments?sale_ref=hang-3", timeout=HOLD_S - 10)
    assert looked_up.status_code == 200 and looked_up.json()["outcome"] == "unknown"
    with requests.get(api.url + "/v1/events", headers=api.auth, stream=True,
                      timeout=HOLD_S - 10) as events:
        assert events.status_code == 200
    paid = api.post("/v1/payments", {"amount": 1000, "sale_ref": "not-hanging",
                                     "payment_code": api.wallet_code("an")},
                    timeout=HOLD_S - 10)
    assert paid.status_code == 200 and paid.json()["outcome"] == "paid"
    aborted = api.post("/v1/payments/hang-7/abort", {}, timeout=HOLD_S - 10)
    assert aborted.status_code == 200 and aborted.json()["abandoned"] is True
    assert _quick_pays(api) - before == HANGING + 1  # nothing was sent twice
