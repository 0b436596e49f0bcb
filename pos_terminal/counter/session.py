"""The counter session every front end drives. Its calls are grouped by resource, as a payment
SDK's client groups its services:

    counter.payments   charge, follow, status, abandon, override, look up (payments.py)
    counter.refunds    refund, look up (refunds.py)
    counter.history    list, a payment's record, export (history.py)
    counter.reports    X, Z, per cashier or shift, a shift's settlement (reports.py)
    counter.cashiers   sign in and out, authorise, supervisors (cashiers.py)
    counter.receipts   print a receipt or a slip, a receipt's lines (receipt_service.py)

Each service depends on a narrow port (the few journal methods it uses). The Counter itself
keeps what concerns the whole counter: codes read by any scan source, settling what is open
(reconcile), the service check, and its EventBus, on which every service publishes what happens;
listeners (a receipt printer, a customer display, a fleet sync) subscribe to it
(pos_terminal.counter.listeners)."""

from __future__ import annotations

import logging
import threading
import time

from pos_terminal.base.wallet_types import ServiceCheck
from pos_terminal.checkout import Checkout, ReconcileReport
from pos_terminal.config import Settings
from pos_terminal.counter.bus import EventBus
from pos_terminal.counter.cashiers import CashierService
from pos_terminal.counter.events import (
    AwaitingCode,
    CodeIgnored,
    CodeRead,
    PendingCount,
    ReconcileFailed,
    RefundSettled,
    SaleCancelled,
    ServiceStatus,
)
from pos_terminal.counter.history import HistoryService
from pos_terminal.counter.payments import PaymentService, ScannedCode, publish_end
from pos_terminal.counter.receipt_service import ReceiptService
from pos_terminal.counter.refunds import RefundService, publish_refund_end
from pos_terminal.counter.reports import ReportService
from pos_terminal.counter.wallets import open_checkout
from pos_terminal.journal import Journal

log = logging.getLogger(__name__)


class Counter:
    """One terminal's counter. Thread-safe as the Checkout is: the UI calls it from workers."""

    def __init__(self, settings: Settings, checkout: Checkout | None = None, *,
                 bus: EventBus | None = None) -> None:
        self.settings = settings
        self._owns_checkout = checkout is None
        self.checkout = checkout if checkout is not None else open_checkout(settings)
        self.bus = bus if bus is not None else EventBus()
        #: The journal file itself: the cashier book, receipts and API tokens keep their own
        #: rows in it, beside the checkout's payments.
        self.journal = _journal_file(self.checkout)
        self.cashiers = CashierService(self.journal, settings)

        def at_counter() -> str | None:
            return self.cashiers.at_counter

        self.payments = PaymentService(self.checkout, self.journal, self.bus, at_counter)
        self.refunds = RefundService(self.checkout, self.journal, self.bus, at_counter)
        self.history = HistoryService(self.journal)
        self.reports = ReportService(self.journal, settings, self.cashiers.open_shift_of)
        self.receipts = ReceiptService(self.journal, settings, self.bus, at_counter)
        from hardware import CodeFilter

        sc = settings.scanner
        self._code_filter = CodeFilter(settings.scan_alphabet, sc.code_min_length,
                                       sc.code_max_length)

    # ---------------------------------------------------------------- a sale and its code
    def awaiting_code(self, amount: int, *, sale: int | None = None,
                      sale_ref: str | None = None) -> None:
        """A sale waits for the customer's code (the pay screen is up, the API waits for a
        scan): published as AwaitingCode, so a customer display asks for it."""
        self.bus.publish(AwaitingCode(sale, amount, sale_ref))

    def sale_cancelled(self, amount: int, *, sale: int | None = None,
                       sale_ref: str | None = None, app_trans_id: str | None = None) -> None:
        """The sale no longer waits for the customer (cancelled, aborted, no code in time):
        published as SaleCancelled, so a customer display stops asking."""
        self.bus.publish(SaleCancelled(sale, amount, sale_ref, app_trans_id))

    def is_payment_code(self, text: str) -> bool:
        """Whether `text` reads as a payment code (the scanner settings' alphabet and lengths);
        nothing is published."""
        return bool(self._code_filter.accepts(text))

    def accept_code(self, text: str, source: str) -> ScannedCode | None:
        """A read from any scan source. A plausible payment code is published as CodeRead and
        returned; anything else (a product barcode typed by a wedge scanner) as CodeIgnored."""
        code = ScannedCode(text, source)
        if not self._code_filter.accepts(text):
            self.bus.publish(CodeIgnored(code.masked, len(text), source))
            return None
        self.bus.publish(CodeRead(code.masked, source))
        return code

    # ---------------------------------------------------------------- settle unknowns
    def reconcile(self, *, wait_s: float = 0.0,
                  cancel: threading.Event | None = None) -> ReconcileReport:
        """Resolve every open payment and refund by status queries (never by paying again)."""
        report = self.checkout.reconcile(wait_s=wait_s, cancel=cancel)
        for view in report.payments:
            publish_end(self.bus, None, view, "reconcile", unresolved_too=False)
        shown = {view.app_trans_id for view in report.payments}
        for refund in report.refunds:
            if refund.is_final and refund.app_trans_id not in shown:
                publish_refund_end(self.bus, self.journal, refund, "reconcile")
            elif refund.is_final:
                self.bus.publish(RefundSettled(refund, "reconcile"))
        return report

    def reconcile_in_background(self) -> ReconcileReport | None:
        """A pass of the background reconciler: a failure is published (ReconcileFailed),
        never raised."""
        try:
            return self.reconcile()
        except Exception as exc:
            self.bus.publish(ReconcileFailed(str(exc)))
            return None

    def check_service(self) -> tuple[ServiceCheck, str]:
        """One signed call (wallet/probe.py: a status query of an order that does not exist):
        "ok" only once the service accepted this terminal's app id and key1; otherwise
        credentials wrong, unreachable, busy or refused, with a detail. Blocking, never raises;
        published as ServiceStatus.
        With more than one wallet each is checked with its own service; the answer is the
        first that is not "ok" (its detail names the wallet), else "ok"."""
        results: list[tuple[str, ServiceCheck, str]] = []
        for provider in self.checkout.providers:
            client = provider.wallet
            try:
                state, detail = client.check_service(
                    client.new_order_id(int(time.time() * 1000)))
            except Exception as exc:  # never let the check stop the counter
                state, detail = ServiceCheck.REFUSED, f"{type(exc).__name__}: {exc}"
            results.append((provider.name, state, detail))
        name, state, detail = next((r for r in results if r[1] is not ServiceCheck.OK),
                                   results[0])
        if len(results) > 1:
            detail = f"{name}: {detail}" if detail else name
        self.bus.publish(ServiceStatus(state is not ServiceCheck.UNREACHABLE, state.value,
                                       detail))
        return state, detail

    def publish_pending(self) -> int | None:
        """Count the payments still open and publish it (PendingCount)."""
        try:
            count: int | None = self.checkout.pending_count()
        except Exception:
            count = None
        self.bus.publish(PendingCount(count))
        return count

    # ---------------------------------------------------------------- end
    def close(self) -> None:
        self.bus.drain()
        self.bus.close()
        if self._owns_checkout:
            self.checkout.close()

    def __enter__(self) -> Counter:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def _journal_file(checkout: Checkout) -> Journal:
    """The SQLite journal behind `checkout`: a counter keeps cashiers, receipt prints and API
    tokens in that file, so a checkout over another store cannot serve a counter."""
    journal = checkout.journal
    if not isinstance(journal, Journal):
        raise TypeError(f"a Counter needs the checkout's journal to be journal.Journal "
                        f"(cashiers, receipts and API tokens live in it), not "
                        f"{type(journal).__name__}")
    return journal
