"""The counter's calls grouped by resource (issue 22 item 4): payments, refunds, history, reports,
cashiers and receipts are services of the counter, each over a narrow port of the journal; the
Counter keeps no pass-throughs. Real payments against the emulator, a real journal file."""

from __future__ import annotations

import inspect
import io
from typing import Any

from pos_terminal.config import Settings
from pos_terminal.counter import Counter, RefundSettled
from pos_terminal.counter.history import HistoryJournal
from pos_terminal.counter.office import BackOffice
from pos_terminal.counter.payments import PaymentRows
from pos_terminal.counter.refunds import RefundRows
from pos_terminal.counter.reports import ReportJournal
from pos_terminal.counter.types import PaymentState, RefundState
from pos_terminal.journal import Journal
from tests.checkout.conftest import wallet_code

PORTS = (PaymentRows, RefundRows, HistoryJournal, ReportJournal)


def _members(port: type) -> set[str]:
    names = {n for n in vars(port) if not n.startswith("_")}
    return names | set(getattr(port, "__annotations__", {}))


def test_a_sale_goes_through_the_services_of_its_resources(settings: Settings,
                                                            emulator: Any) -> None:
    with Counter(settings) as co:
        co.cashiers.book().add("ann", "Ann", "2468")
        signed = co.cashiers.sign_in("ann", "2468")
        assert co.cashiers.at_counter == signed.cashier.id == "ann"

        paid = co.payments.pay(30_000, wallet_code(emulator, "an"), cashier_id="ann")
        assert paid.state is PaymentState.SUCCEEDED
        assert co.payments.get(paid.app_trans_id) == paid

        settled: list[RefundSettled] = []
        co.bus.subscribe(RefundSettled, settled.append, name="test")
        refund = co.refunds.create(paid.app_trans_id, 10_000)
        co.bus.drain()
        # the refund is asked for by the cashier signed in at this counter
        assert refund.cashier_id == "ann" and refund.state is RefundState.REFUNDED
        assert [e.refund.m_refund_id for e in settled] == [refund.m_refund_id]
        assert co.refunds.list(paid.app_trans_id) == [co.refunds.get(refund.m_refund_id)]

        record = co.history.record(paid.app_trans_id)
        assert record.payment.refunded_amount == 10_000 and record.refunds[0] == refund
        assert "succeeded" in [e.to_state for e in record.events]
        assert refund.m_refund_id in [e.m_refund_id for e in record.events]
        assert [v.app_trans_id for v in co.history.list()] == [paid.app_trans_id]
        out = io.StringIO()
        assert co.history.export_csv(co.history.list(), out) == 1

        x = co.reports.x()
        assert (x.sales_count, x.sales_amount, x.refunds_amount) == (1, 30_000, 10_000)
        found = co.reports.shift_totals("ann")
        assert found is not None and found[2] == {"quick_pay": (1, 30_000)}

        receipt = co.receipts.lines(paid.app_trans_id, "en")
        assert any("30.000" in line for line in receipt.lines)
        co.cashiers.sign_out("ann")
        assert co.cashiers.at_counter is None


def test_the_back_office_reads_what_a_counter_wrote_without_a_checkout(
        settings: Settings, emulator: Any) -> None:
    with Counter(settings) as co:
        paid = co.payments.pay(12_000, wallet_code(emulator, "an"))
    with BackOffice.open(settings) as office:
        assert [v.app_trans_id for v in office.history.iter_payments()] == [paid.app_trans_id]
        assert office.reports.x().sales_amount == 12_000
        assert office.reports.z().number == 1
        assert office.reports.stored_z(1).sales_amount == 12_000


def test_the_counter_keeps_no_pass_throughs() -> None:
    """Its own calls concern the whole counter; a resource's calls live in its service."""
    own = {name for name, member in inspect.getmembers(Counter)
           if not name.startswith("_") and callable(member)}
    assert own == {"accept_code", "awaiting_code", "check_service", "close", "is_payment_code",
                   "publish_pending", "reconcile", "reconcile_in_background", "sale_cancelled"}


def test_each_service_reads_the_journal_through_a_narrow_port(settings: Settings) -> None:
    journal = Journal.open(settings.terminal.journal)
    whole = {n for n in dir(journal) if not n.startswith("_")}
    for port in PORTS:
        members = _members(port)
        # every member is the journal's own, and a service sees a handful, not the whole store
        assert members and all(hasattr(journal, m) for m in members), port
        assert len(members) <= 8 < len(whole), (port, members)
    journal.close()
