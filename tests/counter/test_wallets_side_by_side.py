"""Every wallet at one counter (issue 31): a counter configured for ZaloPay and MoMo takes a
code of each, one after the other; each is charged once by its own service, queried, refunded
and reconciled by it alone, and journaled with its provider. A code that no wallet or both
wallets take is sent nowhere."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from pos_terminal.checkout.providers import (
    Provider,
    Providers,
    UnknownProvider,
    WalletChoiceNeeded,
)
from pos_terminal.config import Settings
from pos_terminal.counter import Counter, open_checkout
from pos_terminal.journal import PaymentState, RefundState
from pos_terminal.sentences import render
from tests.checkout.second_wallet import SoXanhService, SoXanhWallet
from tests.conftest import fresh_code

S = PaymentState


@pytest.fixture
def counter(both_settings: Settings) -> Iterator[Counter]:
    with Counter(both_settings) as co:
        yield co


def _momo_code(emulator: Any, customer: str = "momo-paid") -> str:
    code: str = emulator.control.momo_code(customer)
    return code


def test_each_code_goes_to_its_own_wallet_and_is_charged_once(
        counter: Counter, emulator: Any) -> None:
    momo = emulator.control.momo
    zalopay = emulator.control.books
    assert counter.payments.wallets == ("zalopay", "momo")
    zp = counter.payments.pay(25_000, fresh_code(emulator, "an"))
    mm = counter.payments.pay(45_000, _momo_code(emulator))
    assert (zp.state, zp.provider) == (S.SUCCEEDED, "zalopay")
    assert (mm.state, mm.provider) == (S.SUCCEEDED, "momo")
    assert zp.app_trans_id in zalopay.orders and zp.app_trans_id not in momo.orders
    assert mm.app_trans_id in momo.orders and mm.app_trans_id not in zalopay.orders
    assert momo.requests["pay"] == 1
    # each refund goes to the service that charged the payment, and says so
    r_zp = counter.refunds.create(zp.app_trans_id, 5_000)
    r_mm = counter.refunds.create(mm.app_trans_id, 15_000)
    assert (r_zp.state, r_zp.provider) == (RefundState.REFUNDED, "zalopay")
    assert (r_mm.state, r_mm.provider) == (RefundState.REFUNDED, "momo")
    assert [r["amount"] for r in momo.orders[mm.app_trans_id].refunds] == [15_000]
    assert momo.requests["refund"] == 1
    assert r_zp.m_refund_id in zalopay.refunds


def test_an_open_momo_payment_is_reconciled_by_momo(
        both_settings: Settings, emulator: Any) -> None:
    momo = emulator.control.momo
    momo.processing_s = 3600.0
    with Counter(both_settings) as counter:
        view = counter.payments.pay(30_000, _momo_code(emulator, "momo-slow"), deadline_s=0.2)
        assert (view.state, view.provider) == (S.PROCESSING, "momo")
        queries = momo.requests["query"]
        momo.processing_s = 0.0
        for order in momo.orders.values():
            order.ready_at = 0.0
        report = counter.reconcile()
    assert [p.state for p in report.payments] == [S.SUCCEEDED]
    assert momo.requests["query"] > queries  # asked of MoMo, the row's own wallet


@pytest.mark.parametrize("code", ["ABC-not-a-wallet-code", "12345678901234567890MM"])
def test_a_code_no_wallet_takes_is_sent_nowhere(counter: Counter, emulator: Any,
                                                code: str) -> None:
    momo = emulator.control.momo
    with pytest.raises(WalletChoiceNeeded) as refused:
        counter.payments.pay(25_000, code)
    assert refused.value.candidates == ("zalopay", "momo")
    assert refused.value.why.code == "refused.code_no_wallet"
    sentence = render(refused.value.why, "en")
    assert "zalopay, momo" in sentence and "not sent" in sentence and code not in sentence
    assert counter.payments.pending_count() == 0
    assert momo.requests["pay"] == 0 and not emulator.control.books.orders


def test_the_cashier_s_choice_sends_a_code_to_the_wallet_named(
        counter: Counter, emulator: Any) -> None:
    view = counter.payments.pay(25_000, fresh_code(emulator, "an"), provider="zalopay")
    assert (view.state, view.provider) == (S.SUCCEEDED, "zalopay")
    with pytest.raises(UnknownProvider) as refused:
        counter.payments.pay(25_000, fresh_code(emulator, "an"), provider="shopeepay")
    assert "shopeepay" in render(refused.value.why, "en")


def test_a_code_both_wallets_take_is_sent_nowhere(both_settings: Settings,
                                                  emulator: Any) -> None:
    # a shop whose MoMo pattern overlaps ZaloPay's digits
    overlapping = both_settings.replace_section("providers.momo", code_pattern=r"^[0-9M]+$")
    with Counter(overlapping) as counter, pytest.raises(WalletChoiceNeeded) as refused:
        counter.payments.pay(25_000, fresh_code(emulator, "an"))
    assert refused.value.candidates == ("zalopay", "momo")
    assert refused.value.why.code == "refused.code_many_wallets"
    assert not emulator.control.books.orders and emulator.control.momo.requests["pay"] == 0


def test_the_service_check_asks_every_wallet(counter: Counter, emulator: Any) -> None:
    state, detail = counter.check_service()
    assert state.value == "ok", detail
    emulator.control.add_fault(endpoint="momo_query", mode="refuse", return_code=10, count=0)
    state, detail = counter.check_service()
    assert state.value != "ok" and detail.startswith("momo")


def test_routing_rules_with_a_test_double_beside_zalopay(settings: Settings) -> None:
    """The registry alone: patterns, the only provider, a name asked for, none, several."""
    service = SoXanhService()
    zalopay = open_checkout(settings).providers.default
    try:
        two = Providers([Provider("zalopay", zalopay.wallet, r"^[0-9]+$"),
                         Provider("soxanh", SoXanhWallet(service, "T1"), r"^SX[0-9]{6}$")])
        assert two.route("123456789012345678").name == "zalopay"
        assert two.route("sx123456").name == "soxanh"  # upper or lower case alike
        assert two.route("123", asked="soxanh").name == "soxanh"
        with pytest.raises(WalletChoiceNeeded):
            two.route("SX12")
        with pytest.raises(UnknownProvider):
            two.route("123", asked="momo")
        one = Providers.single(SoXanhWallet(service, "T1"), "soxanh")
        assert one.route("anything at all").name == "soxanh"  # its service is the judge
    finally:
        zalopay.wallet.close()
