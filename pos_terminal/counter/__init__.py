"""The counter layer: the session every front end drives (pos_terminal.counter.session) and
its services by resource (payments, refunds, history, reports, cashiers, receipt_service), the
typed events it publishes (events) on a thread-safe bus (bus), scan sources seen from the
counter (scanning), the answers of the outcome rule (answers), and the types the front ends
name (types).

Front ends (tui, cli, headless) import from here, never from wallet, checkout or journal."""

from pos_terminal.counter import answers, events
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
    SaleCancelled,
    ScannerStatus,
    ScannerUnavailable,
    ServiceStatus,
)
from pos_terminal.counter.opening import open_counter
from pos_terminal.counter.payments import UNRESOLVED, SaleLine, ScannedCode
from pos_terminal.counter.receipts import PrintOutcome
from pos_terminal.counter.scanning import Scanner, SourceFactory, missing_device, source_factory
from pos_terminal.counter.session import Counter
from pos_terminal.counter.wallets import open_checkout, wallet_for

__all__ = [
    "UNRESOLVED",
    "AwaitingCode",
    "CodeIgnored",
    "CodeRead",
    "Counter",
    "CounterEvent",
    "EventBus",
    "GatewayShown",
    "ListenerFailed",
    "PaymentError",
    "PaymentProgress",
    "PaymentSettled",
    "PaymentStarted",
    "PaymentUnresolved",
    "PendingCount",
    "PrintOutcome",
    "ReceiptPrinted",
    "ReceiptPrinting",
    "ReconcileFailed",
    "RefundSettled",
    "SaleCancelled",
    "SaleLine",
    "ScannedCode",
    "Scanner",
    "ScannerStatus",
    "ScannerUnavailable",
    "ServiceStatus",
    "SignedIn",
    "SourceFactory",
    "Subscription",
    "answers",
    "events",
    "missing_device",
    "open_checkout",
    "open_counter",
    "source_factory",
    "wallet_for",
]
