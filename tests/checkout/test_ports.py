"""The checkout depends on the WalletPort and JournalStore interfaces, not on the classes behind
them: a second wallet implementation (here one that keeps a log of its calls and delegates to
the real client over HTTP) takes the client's place without a change to the checkout."""

from __future__ import annotations

from typing import Any

from pos_terminal.checkout import Checkout, PaymentState
from pos_terminal.checkout.ports import JournalStore, WalletPort
from pos_terminal.config import Settings
from pos_terminal.journal import Journal
from pos_terminal.wallet.client import PreparedQuickPay, WalletClient
from pos_terminal.wallet.messages import GatewayOrder, QuickPayOrder, RefundRequest
from pos_terminal.wallet.results import BankList, GatewayOrderResult, PaymentResult, RefundResult
from tests.checkout.conftest import charged, wallet_code


class LoggingWallet:
    """Another WalletPort: every call logged, then made by the real client."""

    def __init__(self, inner: WalletClient) -> None:
        self._inner = inner
        self.generation = inner.generation
        self.calls: list[str] = []

    def build_quick_pay(self, order: QuickPayOrder, payment_code: str) -> PreparedQuickPay:
        self.calls.append("build_quick_pay")
        return self._inner.build_quick_pay(order, payment_code)

    def send_quick_pay(self, prepared: PreparedQuickPay) -> PaymentResult:
        self.calls.append("send_quick_pay")
        return self._inner.send_quick_pay(prepared)

    def query_status(self, app_trans_id: str) -> PaymentResult:
        self.calls.append("query_status")
        return self._inner.query_status(app_trans_id)

    def refund(self, req: RefundRequest) -> RefundResult:
        self.calls.append("refund")
        return self._inner.refund(req)

    def query_refund(self, m_refund_id: str) -> RefundResult:
        self.calls.append("query_refund")
        return self._inner.query_refund(m_refund_id)

    def create_order(self, order: GatewayOrder) -> GatewayOrderResult:
        self.calls.append("create_order")
        return self._inner.create_order(order)

    def list_banks(self) -> BankList:
        return self._inner.list_banks()

    def close(self) -> None:
        self._inner.close()


def test_a_second_wallet_implementation_takes_the_clients_place(settings: Settings,
                                                                 emulator: Any) -> None:
    wallet = LoggingWallet(WalletClient(settings.service))
    port: WalletPort = wallet  # the interface the checkout asks for
    store: JournalStore = Journal.open(settings.terminal.journal)
    with Checkout(settings, client=port, journal=store) as co:
        view = co.pay(12_000, wallet_code(emulator, "an"))
        refunded = co.refund(view.app_trans_id, 2_000, "one item back")
    assert view.state is PaymentState.SUCCEEDED
    assert refunded.state is PaymentState.REFUNDED
    assert wallet.calls[:2] == ["build_quick_pay", "send_quick_pay"]
    assert "refund" in wallet.calls
    assert len(charged(emulator, view.app_trans_id)) == 1
    store.close()
    wallet.close()
