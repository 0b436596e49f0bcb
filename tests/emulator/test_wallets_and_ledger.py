"""Payment codes (expiry, single use), wallet scenarios, balances and the ledger, status queries."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import requests

from pos_terminal.config import load_settings
from pos_terminal.emulator import RunningEmulator, start_emulator
from tests.conftest import reset_emulator
from tests.emulator.wirehelp import (
    QUICK_PAY_PATH,
    QuickPay,
    code_of,
    ledger,
    message,
    outcome,
    post,
    query,
    refused_code,
    wait_until,
)

REPO = Path(__file__).resolve().parents[2]
CODE_LIFETIME_S = 0.5
PROCESSING_S = 0.3


def _start(**emulator: float) -> RunningEmulator:
    settings = load_settings(REPO / "config" / "default.toml", env={}).replace_section(
        "emulator", **emulator)
    return start_emulator(settings)


@pytest.fixture(scope="module")
def fast() -> Iterator[RunningEmulator]:
    """An emulator whose processing lasts 0.3 s (codes live the usual 60 s)."""
    with _start(processing_s=PROCESSING_S) as server:
        yield server


@pytest.fixture(scope="module")
def short_codes() -> Iterator[RunningEmulator]:
    """An emulator whose payment codes live half a second."""
    with _start(code_lifetime_s=CODE_LIFETIME_S) as server:
        yield server


@pytest.fixture
def emu(fast: RunningEmulator) -> RunningEmulator:
    reset_emulator(fast)
    return fast


def _wallets(base_url: str) -> dict[str, dict[str, Any]]:
    data = requests.get(base_url + "/_emulator/wallets", timeout=5).json()
    return {w["id"]: w for w in data["wallets"]}


def test_wallets_json(short_codes: RunningEmulator) -> None:
    wallets = _wallets(short_codes.base_url)
    assert list(wallets) == ["an", "binh", "chi", "dung", "giang", "khoa"]
    assert [w["name"] for w in wallets.values()] == ["An Nguyen", "Binh Tran", "Chi Le",
                                                     "Dung Pham", "Giang Vo", "Khoa Do"]
    assert wallets["dung"]["balance"] == 0
    for wallet in wallets.values():
        assert set(wallet) == {"id", "name", "balance", "scenario", "code", "expires_at"}
        assert len(wallet["code"]) == 18 and wallet["code"].isdigit()
        assert 0 < wallet["expires_at"] - time.time() * 1000 <= CODE_LIFETIME_S * 1000
    assert len({w["code"] for w in wallets.values()}) == 6


@pytest.mark.parametrize("generation", ["v2", "v001"])
def test_expired_code_is_refused_322(short_codes: RunningEmulator, generation: str) -> None:
    base_url = short_codes.base_url
    code = code_of(base_url, "an")
    wait_until(lambda: code_of(base_url, "an") != code)  # the wallet moved on: it expired
    answer = post(base_url, QUICK_PAY_PATH[generation], QuickPay(code=code).form(generation))
    assert refused_code(generation, answer) == -322
    assert message(generation, answer) == "payment code expired, customer not charged"
    charges = [c for c in ledger(base_url)["charges"] if c["wallet"] == "an"]
    assert charges == []


@pytest.mark.parametrize("generation", ["v2", "v001"])
def test_code_is_single_use(emu: RunningEmulator, generation: str) -> None:
    code = code_of(emu.base_url, "an")
    first = post(emu.base_url, QUICK_PAY_PATH[generation], QuickPay(code=code).form(generation))
    assert outcome(generation, first)[0] == 1
    again = post(emu.base_url, QUICK_PAY_PATH[generation], QuickPay(code=code).form(generation))
    assert refused_code(generation, again) == -322
    assert message(generation, again) == "payment code already used"
    assert code_of(emu.base_url, "an") != code  # the wallet app shows a fresh one
    assert _wallets(emu.base_url)["an"]["balance"] == 50_000_000 - 50_000


def test_unknown_code(emu: RunningEmulator) -> None:
    answer = post(emu.base_url, "/v2/quick_pay", QuickPay(code="123456789012345678").form("v2"))
    assert answer["sub_return_code"] == -401
    assert answer["sub_return_message"] == (
        "invalid request data: payment_code: unknown payment code")


def test_rotate_issues_a_new_code(emu: RunningEmulator) -> None:
    before = code_of(emu.base_url, "binh")
    answer = requests.post(emu.base_url + "/_emulator/wallets/binh/rotate", json={},
                           timeout=5).json()
    assert answer["codes"][0] != before
    assert answer["wallet"]["code"] == answer["codes"][0] == code_of(emu.base_url, "binh")
    missing = requests.post(emu.base_url + "/_emulator/wallets/zoe/rotate", json={}, timeout=5)
    assert missing.status_code == 404


@pytest.mark.parametrize("generation", ["v2", "v001"])
def test_insufficient_balance(emu: RunningEmulator, generation: str) -> None:
    order = QuickPay(code=code_of(emu.base_url, "dung"), amount="1000")
    answer = post(emu.base_url, QUICK_PAY_PATH[generation], order.form(generation))
    assert refused_code(generation, answer) == -63
    status = query(emu.base_url, generation, order.app_trans_id)
    assert refused_code(generation, status) == -63
    charge = ledger(emu.base_url)["charges"][0]
    assert (charge["wallet"], charge["state"], charge["amount"]) == ("dung", "failed", 1000)


@pytest.mark.parametrize("generation", ["v2", "v001"])
def test_processing_then_paid(emu: RunningEmulator, generation: str) -> None:
    order = QuickPay(code=code_of(emu.base_url, "binh"), amount="120000")
    answer = post(emu.base_url, QUICK_PAY_PATH[generation], order.form(generation))
    if generation == "v2":
        assert (answer["return_code"], answer["is_processing"]) == (3, True)
    else:
        assert (answer["returncode"], answer["isprocessing"]) == (10, True)
    assert _wallets(emu.base_url)["binh"]["balance"] == 20_000_000 - 120_000
    final = wait_until(lambda: (s := query(emu.base_url, generation, order.app_trans_id))
                       and outcome(generation, s)[0] == 1 and s)
    assert final["amount"] == 120_000
    assert (final["is_processing"] if generation == "v2" else final["isprocessing"]) is False
    assert _wallets(emu.base_url)["binh"]["balance"] == 20_000_000 - 120_000
    charge = ledger(emu.base_url)["charges"][0]
    assert (charge["app_trans_id"], charge["state"]) == (order.app_trans_id, "succeeded")


@pytest.mark.parametrize("generation", ["v2", "v001"])
def test_processing_then_failed_releases_the_money(emu: RunningEmulator, generation: str) -> None:
    order = QuickPay(code=code_of(emu.base_url, "chi"), amount="70000")
    answer = post(emu.base_url, QUICK_PAY_PATH[generation], order.form(generation))
    assert outcome(generation, answer)[0] == (3 if generation == "v2" else 10)
    assert _wallets(emu.base_url)["chi"]["balance"] == 20_000_000 - 70_000  # held
    final = wait_until(lambda: (s := query(emu.base_url, generation, order.app_trans_id))
                       and outcome(generation, s)[0] not in (3, 10) and s)
    assert refused_code(generation, final) == -217
    assert _wallets(emu.base_url)["chi"]["balance"] == 20_000_000


@pytest.mark.parametrize("generation", ["v2", "v001"])
def test_query_not_found(emu: RunningEmulator, generation: str) -> None:
    answer = query(emu.base_url, generation, "201231_never_sent")
    assert refused_code(generation, answer) == -101


@pytest.mark.parametrize("generation", ["v2", "v001"])
def test_query_refuses_bad_mac(emu: RunningEmulator, generation: str) -> None:
    from tests.emulator.wirehelp import query_form

    form = query_form(generation, "201231_x")
    form["mac"] = form["mac"][::-1]
    answer = post(emu.base_url, {"v2": "/v2/query", "v001": "/v001/tpe/getstatusbyapptransid"}[
        generation], form)
    assert refused_code(generation, answer) == -402


def test_concurrent_payments_charge_each_order_once(emu: RunningEmulator) -> None:
    """8 threads pay 10 orders each from fresh codes, and race two payments per shared code."""
    threads, per_thread = 8, 10
    rotate = emu.base_url + "/_emulator/wallets/an/rotate?count="
    codes = requests.post(rotate + str(threads * per_thread), json={}, timeout=10).json()["codes"]
    contested = requests.post(rotate + str(per_thread), json={}, timeout=10).json()["codes"]
    results: list[tuple[str, int]] = []
    lock = threading.Lock()
    barrier = threading.Barrier(threads)

    def worker(index: int) -> None:
        session = requests.Session()
        mine = codes[index * per_thread:(index + 1) * per_thread]
        # threads 0 and 1 both try every contested code (amount 7 to tell them apart)
        extra = contested if index < 2 else []
        barrier.wait()
        for code, amount in [(c, "1000") for c in mine] + [(c, "7") for c in extra]:
            order = QuickPay(code=code, amount=amount)
            answer = session.post(emu.base_url + "/v2/quick_pay", data=order.form("v2"),
                                  timeout=10).json()
            with lock:
                results.append((amount, answer["return_code"] if answer["return_code"] == 1
                                else answer["sub_return_code"]))

    pool = [threading.Thread(target=worker, args=(i,)) for i in range(threads)]
    for thread in pool:
        thread.start()
    for thread in pool:
        thread.join(60)

    assert sorted(code for amount, code in results if amount == "1000") == [1] * 80
    contested_results = sorted(code for amount, code in results if amount == "7")
    assert contested_results == [-322] * per_thread + [1] * per_thread
    book = ledger(emu.base_url)
    succeeded = [c for c in book["charges"] if c["state"] == "succeeded"]
    assert len(succeeded) == 90
    assert len({c["app_trans_id"] for c in succeeded}) == 90
    assert len({c["zp_trans_id"] for c in succeeded}) == 90
    assert book["requests"]["quick_pay"] == 100
    assert book["balances"]["an"] == 50_000_000 - 80 * 1000 - per_thread * 7
    assert _wallets(emu.base_url)["an"]["balance"] == book["balances"]["an"]


def test_reset_restores_wallets_and_empties_the_ledger(emu: RunningEmulator) -> None:
    post(emu.base_url, "/v2/quick_pay", QuickPay(code=code_of(emu.base_url, "an")).form("v2"))
    assert ledger(emu.base_url)["charges"]
    reset_emulator(emu)
    book = ledger(emu.base_url)
    assert (book["charges"], book["refunds"], book["requests"]) == ([], [], {})
    assert _wallets(emu.base_url)["an"]["balance"] == 50_000_000


def test_in_process_control_matches_http(emu: RunningEmulator) -> None:
    code = emu.control.code("an")
    assert code == code_of(emu.base_url, "an")
    post(emu.base_url, "/v2/quick_pay", QuickPay(code=code).form("v2"))
    assert emu.control.ledger()["charges"] == ledger(emu.base_url)["charges"]


def test_wallets_page_shows_every_current_code(short_codes: RunningEmulator) -> None:
    page = requests.get(short_codes.base_url + "/wallets", timeout=5)
    assert page.status_code == 200
    assert '<meta http-equiv="refresh" content="1">' in page.text  # codes live 0.5 s here
    for wallet in _wallets(short_codes.base_url).values():
        # the page and the JSON agree while the code lives (it may have rotated in between)
        assert f'id="wallet-{wallet["id"]}"' in page.text
    assert page.text.count('class="segno"') == 6
    assert page.text.count("<svg") == 12  # one QR and one Code 128 per wallet
