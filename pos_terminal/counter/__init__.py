"""The counter layer: the session every front end drives (pos_terminal.counter.session) and
its services by resource (payments, refunds, history, reports, cashiers, receipt_service), the
typed events it publishes (events) on a thread-safe bus (bus), scan sources seen from the
counter (scanning), the outcome rule (outcome), and the types the front ends name (types).

Front ends (tui, cli, headless) import from here, never from wallet, checkout or journal."""

from pos_terminal.counter import events, outcome
from pos_terminal.counter.bus import EventBus, Subscription
from pos_terminal.counter.cashiers import SignedIn
from pos_terminal.counter.events import (
    AwaitingCode,
    CodeIgnored,
    CodeRead,
    CounterEvent,
    GatewayShown,
    ListenerFailed,
    PaymentError,
    PaymentProgress,
    PaymentSettled,
    PaymentStarted,
    PaymentUnresolved,
    PendingCount,
    ReceiptPrinted,
    ReceiptPrinting,
    ReconcileFailed,
    RefundSettled,
    ScannerStatus,
    ScannerUnavailable,
    ServiceStatus,
)
from pos_terminal.counter.opening import open_counter
from pos_terminal.counter.payments import UNRESOLVED, SaleLine, ScannedCode
from pos_terminal.counter.receipts import PrintOutcome
from pos_terminal.counter.scanning import Scanner, SourceFactory, missing_device, source_factory
from pos_terminal.counter.session import Counter

__all__ = [
    "UNRESOLVED", "AwaitingCode", "CodeIgnored", "CodeRead", "Counter", "CounterEvent",
    "EventBus", "GatewayShown",
    "ListenerFailed", "PaymentError", "PaymentProgress", "PaymentSettled", "PaymentStarted",
    "PaymentUnresolved", "PendingCount", "PrintOutcome", "ReceiptPrinted", "ReceiptPrinting",
    "ReconcileFailed", "RefundSettled", "SaleLine", "ScannedCode", "Scanner", "ScannerStatus",
    "ScannerUnavailable", "ServiceStatus", "SignedIn",
    "SourceFactory", "Subscription", "events", "missing_device", "open_counter", "outcome",
    "source_factory",
]
