"""The checkout speaks to a wallet through its port, in the terminal's own types: a second
provider (tests/checkout/second_wallet, "Sổ Xanh") is one package of its own that imports
nothing of the ZaloPay package, and the checkout takes its payments and refunds through it,
journaled like any other, with nothing changed in the checkout."""

from __future__ import annotations

import ast
from dataclasses import replace
from pathlib import Path

import pytest

from pos_terminal.base.wallet_types import ChargeAnswer, PreparedCharge, WalletOutcome
from pos_terminal.checkout import PaymentState, RefundState
from pos_terminal.checkout.ports import WalletPort
from pos_terminal.config import Settings
from pos_terminal.counter import Counter, open_checkout
from pos_terminal.journal import Journal
from tests.checkout.second_wallet import SoXanhService, SoXanhWallet

S = PaymentState
PACKAGE = Path(__file__).parent / "second_wallet"
CODE = "SX-CUSTOMER-0042-7731"


def _imports(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module:
            names.add(node.module)
    return names


@pytest.fixture
def soxanh_settings(base_settings: Settings, tmp_path: Path) -> Settings:
    return (base_settings.replace_section("terminal", journal=tmp_path / "journal.sqlite3")
            .replace_section("checkout", poll_intervals_s=[0.05], poll_deadline_s=10.0))


def test_the_second_provider_imports_nothing_of_the_zalopay_package() -> None:
    imported = set().union(*(_imports(p) for p in PACKAGE.glob("*.py")))
    assert imported, "the package's modules were read"
    assert not {n for n in imported if n == "pos_terminal.wallets.zalopay"
                or n.startswith("pos_terminal.wallets.zalopay.")}
    assert "pos_terminal.base.wallet_types" in imported  # it speaks the terminal's own types


def test_a_payment_through_a_second_provider_goes_processing_then_paid_then_refunded(
        soxanh_settings: Settings) -> None:
    service = SoXanhService(confirm_after_queries=2)
    wallet = SoXanhWallet(service, terminal_id="counter1")
    port: WalletPort = wallet  # the interface the checkout asks for (checked by mypy too)
    seen: list[S] = []
    with open_checkout(soxanh_settings, client=port) as co:
        view = co.pay(12_000, CODE, description="Trà đá x2",
                      on_progress=lambda v: seen.append(v.state))
        refund = co.refund(view.app_trans_id, 2_000, "one glass back")
        payment_after = co.journal.get(view.app_trans_id)
    assert view.state is S.SUCCEEDED and not view.needs_review
    assert seen[0] is S.SUBMITTING and S.PROCESSING in seen and seen[-1] is S.SUCCEEDED
    charge = service.charges[view.app_trans_id]
    assert view.zp_trans_id == charge.transaction_id  # the provider's id, kept for refunds
    assert view.generation == "soxanh-1" and view.app_trans_id.startswith("sx-counter1-")
    assert service.calls.count("charge") == 1  # charged once; the doubt settled by queries
    assert service.calls.count("status") == 3  # waiting, waiting, paid
    assert refund.state is RefundState.REFUNDED and refund.amount == 2_000
    assert charge.refunded == 2_000 and service.refunds[refund.m_refund_id][1] == 2_000
    assert payment_after.refunded_amount == 2_000 and payment_after.state is S.SUCCEEDED
    assert CODE not in repr(service.charges) and charge.code_last4 == CODE[-4:]
    assert not wallet.closed  # the caller's wallet stays the caller's to close


def test_the_counter_runs_on_a_second_provider(soxanh_settings: Settings) -> None:
    """The counter above the checkout (service check, bank list, gateway orders) needs nothing
    of ZaloPay either."""
    wallet = SoXanhWallet(SoXanhService(confirm_after_queries=0), terminal_id="c2")
    with Journal.open(soxanh_settings.terminal.journal) as journal, \
            open_checkout(soxanh_settings, client=wallet, journal=journal) as co:
        counter = Counter(soxanh_settings, co)
        state, _detail = counter.check_service()
        banks = counter.payments.list_banks()
        order = counter.payments.create_gateway_order(30_000, "Bàn 4")
        paid = co.follow(order.app_trans_id, deadline_s=5)
    assert state.value == "ok" and banks.banks_by_pmcid[1][0].name == "Sổ Xanh"
    assert order.zp_trans_token == order.app_trans_id and order.qr_code is not None
    assert paid.state is S.SUCCEEDED and paid.generation == "soxanh-1"


def test_status_queries_and_refunds_name_the_payment_and_its_amount(
        soxanh_settings: Settings) -> None:
    """A wallet whose checks need the original amount, or that refunds by the merchant's order
    id (ShopeePay), finds both in what the port hands it."""
    service = SoXanhService(confirm_after_queries=1)
    wallet = SoXanhWallet(service, terminal_id="c3")
    with open_checkout(soxanh_settings, client=wallet) as co:
        view = co.pay(15_000, CODE)
        co.refund(view.app_trans_id, 5_000, "one back")
    order = view.app_trans_id
    assert ("status", order, 15_000) in wallet.asked
    assert ("refund", order, 5_000) in wallet.asked
    assert all(asked[1] == order for asked in wallet.asked)


class _UntiedWallet(SoXanhWallet):
    """A client that forgets to tie its answers: every charge answer names no payment."""

    def send_charge(self, prepared: PreparedCharge) -> ChargeAnswer:
        return replace(super().send_charge(prepared), order_id="",
                       outcome=WalletOutcome.DECLINED)

    def query_charge(self, order_id: str, amount: int) -> ChargeAnswer:
        return replace(super().query_charge(order_id, amount), order_id="",
                       outcome=WalletOutcome.DECLINED)


def test_an_answer_that_names_no_payment_is_recorded_as_such_never_applied(
        soxanh_settings: Settings, caplog: pytest.LogCaptureFixture) -> None:
    settings = soxanh_settings.replace_section("checkout", poll_deadline_s=0.2)
    wallet = _UntiedWallet(SoXanhService(confirm_after_queries=0), terminal_id="c4")
    with open_checkout(settings, client=wallet) as co:
        view = co.pay(9_000, CODE)
        said = {event.why.code for event in co.journal.events(view.app_trans_id)}
    assert view.state is S.UNKNOWN  # a decline that names no payment decides nothing
    assert "unknown.untied_answer" in said and "unknown.other_payment" not in said
    assert "names no payment" in caplog.text
