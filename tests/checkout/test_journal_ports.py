"""The checkout asks the journal through a narrow port per use (issue 22 item 4), as the
counter's services do: the engine's charge, gateway orders, refunds, late charges, reconciliation
and the recording of an answer each name the few Journal methods they call, and a Checkout over a
store that has exactly those methods and no other takes, refunds and reconciles real payments."""

from __future__ import annotations

import inspect
import typing
from types import ModuleType
from typing import Any

from pos_terminal.checkout import (
    Checkout,
    PaymentState,
    RefundState,
    gateway,
    late_charges,
    outcomes,
    recovery,
    refunds,
)
from pos_terminal.checkout.ports import (
    Answers,
    ChargeJournal,
    CheckoutContext,
    CheckoutJournal,
    GatewayJournal,
    LateChargeJournal,
    RecoveryJournal,
    RefundJournal,
)
from pos_terminal.config import Settings
from pos_terminal.counter.wallets import wallet_for
from pos_terminal.journal import Journal
from tests.checkout.conftest import wallet_code
from tests.conftest import ProcessingHold

PORTS = (Answers, ChargeJournal, GatewayJournal, RefundJournal, LateChargeJournal,
         RecoveryJournal)
#: the port each helper module's functions ask their Checkout context for
MODULE_PORTS: dict[ModuleType, type] = {gateway: GatewayJournal, refunds: RefundJournal,
                                        late_charges: LateChargeJournal,
                                        recovery: RecoveryJournal}


def _own(port: type) -> set[str]:
    return {n for n in vars(port) if not n.startswith("_")}


def _members(port: type) -> set[str]:
    names: set[str] = set()
    for klass in port.__mro__:
        if klass is not object and klass is not typing.Protocol and klass is not typing.Generic:
            names |= _own(klass)
    return names


def test_each_port_is_small_and_made_only_of_journal_methods() -> None:
    journal_methods = {n for n in dir(Journal) if not n.startswith("_")}
    for port in PORTS:
        own = _own(port)
        assert own <= journal_methods, (port, own - journal_methods)
        assert len(own) <= 8, (port, own)
    # the whole is every use's port and nothing of its own; the day's reports are no use of
    # the checkout (counter.reports reads them through its own port)
    assert _own(CheckoutJournal) == set()
    whole = _members(CheckoutJournal)
    assert whole == set().union(*(_members(p) for p in PORTS))
    assert not whole & {"x_report", "close_day", "z_report", "list_payments", "events"}
    assert len(whole) < len(journal_methods) / 2


def test_each_helper_asks_for_its_own_port() -> None:
    for module, port in MODULE_PORTS.items():
        asked = [typing.get_type_hints(f)["co"] for _, f in inspect.getmembers(module,
                 inspect.isfunction) if f.__module__ == module.__name__
                 and "co" in inspect.signature(f).parameters]
        assert asked and set(asked) == {CheckoutContext[port]}, (module.__name__, asked)
    recorders = [typing.get_type_hints(f)["journal"] for _, f in inspect.getmembers(
        outcomes, inspect.isfunction) if "journal" in inspect.signature(f).parameters]
    assert recorders and set(recorders) == {Answers}


class OnlyThePort:
    """A store with the CheckoutJournal's methods and nothing else, each the real journal's."""

    def __init__(self, journal: Journal) -> None:
        for name in _members(CheckoutJournal):
            setattr(self, name, getattr(journal, name))


def test_a_checkout_over_only_its_ports_pays_refunds_and_reconciles(
        settings: Settings, emulator: Any) -> None:
    journal = Journal.open(settings.terminal.journal)
    store: Any = OnlyThePort(journal)
    with Checkout(settings, wallet_for(settings), store, owns_client=True) as co:
        paid = co.pay(20_000, wallet_code(emulator, "an"), description="two coffees")
        assert paid.state is PaymentState.SUCCEEDED
        back = co.refund(paid.app_trans_id, 5_000, "one coffee back")
        assert back.state is RefundState.REFUNDED
        assert co.status(paid.app_trans_id).state is PaymentState.SUCCEEDED
        hold = ProcessingHold(emulator)
        try:
            open_one = co.pay(9_000, wallet_code(emulator, "binh"), deadline_s=0)
            assert open_one.state is PaymentState.PROCESSING
        finally:
            hold.release()
        report = co.reconcile()
        assert [v.state for v in report.payments] == [PaymentState.SUCCEEDED]
        order = co.create_gateway_order(15_000, "a cake")
        assert co.journal.get(order.app_trans_id).amount == 15_000
    assert journal.get(paid.app_trans_id).refunded_amount == 5_000
    journal.close()
