"""The checkout depends on the WalletPort and JournalStore interfaces, not on the classes behind
them: a second wallet implementation (here one that keeps a log of its calls and delegates to
the real client over HTTP) takes the client's place without a change to the checkout."""

from __future__ import annotations

from typing import Any

from pos_terminal.checkout import Checkout, PaymentState, RefundState
from pos_terminal.checkout.ports import JournalStore, WalletPort
from pos_terminal.config import Settings
from pos_terminal.journal import Journal
from pos_terminal.wallet.client import WalletClient
from tests.checkout.conftest import charged, wallet_code


def _logged(name: str) -> Any:
    """A WalletPort method that logs its name, then makes the real client's call."""

    def call(self: LoggingWallet, *args: Any) -> Any:
        self.calls.append(name)
        return getattr(self._inner, name)(*args)

    return call


class LoggingWallet:
    """Another WalletPort: every call logged, then made by the real client."""

    def __init__(self, inner: WalletClient) -> None:
        self._inner = inner
        self.generation = inner.generation
        self.calls: list[str] = []

    build_quick_pay = _logged("build_quick_pay")
    send_quick_pay = _logged("send_quick_pay")
    query_status = _logged("query_status")
    refund = _logged("refund")
    query_refund = _logged("query_refund")
    create_order = _logged("create_order")
    list_banks = _logged("list_banks")
    close = _logged("close")


def test_a_second_wallet_implementation_takes_the_clients_place(settings: Settings,
                                                                 emulator: Any) -> None:
    wallet = LoggingWallet(WalletClient(settings.service))
    port: WalletPort = wallet  # the interface the checkout asks for
    store: JournalStore = Journal.open(settings.terminal.journal)
    with Checkout(settings, client=port, journal=store) as co:
        view = co.pay(12_000, wallet_code(emulator, "an"))
        refunded = co.refund(view.app_trans_id, 2_000, "one item back")
    assert view.state is PaymentState.SUCCEEDED
    assert refunded.state is RefundState.REFUNDED
    assert wallet.calls[:2] == ["build_quick_pay", "send_quick_pay"]
    assert "refund" in wallet.calls
    assert len(charged(emulator, view.app_trans_id)) == 1
    store.close()
    wallet.close()
