"""What the counter tells its listeners: typed, immutable events.

Payment codes appear only masked (••••1234): events reach screens, printers, logs and the fleet.
A payment's events carry its `sale` number (Counter.start_sale) so a listener can tell the sale
on the counter from payments settled in the background (`via`)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from pos_terminal.checkout.verdict import Verdict, of_payment
from pos_terminal.counter.receipts import PrintOutcome
from pos_terminal.journal import PaymentView, RefundView

#: How a payment or refund reached its final state.
Via = Literal["pay", "follow", "status", "reconcile", "override", "refund", "gateway",
              "abandon"]


class CounterEvent:
    """Base of every counter event (what EventBus.subscribe filters on)."""


@dataclass(frozen=True)
class CodeRead(CounterEvent):
    """A payment code was read and accepted as one (any scan source)."""

    masked: str
    source: str


@dataclass(frozen=True)
class CodeIgnored(CounterEvent):
    """A scanner read something that is not a payment code (e.g. a product barcode)."""

    masked: str
    length: int
    source: str


@dataclass(frozen=True)
class AwaitingCode(CounterEvent):
    """A sale waits for the customer's payment code (a customer display asks for it)."""

    sale: int | None
    amount: int
    sale_ref: str | None = None


@dataclass(frozen=True)
class SaleCancelled(CounterEvent):
    """A sale that waited for the customer (a code to scan, a gateway QR to pay) is over without
    a payment: the cashier cancelled it, the POS aborted it, or no code came in time. A
    customer display stops asking."""

    sale: int | None
    amount: int
    sale_ref: str | None = None
    app_trans_id: str | None = None  # a gateway order the cashier stopped showing


@dataclass(frozen=True)
class PaymentStarted(CounterEvent):
    sale: int
    amount: int
    masked_code: str
    source: str
    sale_ref: str | None = None  # the sale system's reference (Terminal API, PAY REF=)


@dataclass(frozen=True)
class GatewayShown(CounterEvent):
    """A gateway order's QR is shown to the customer (the UI's Show QR)."""

    sale: int | None
    view: PaymentView


@dataclass(frozen=True)
class PaymentProgress(CounterEvent):
    """A payment not final yet: submitting, processing, unknown (asked again)."""

    sale: int | None
    view: PaymentView


@dataclass(frozen=True)
class PaymentUnresolved(CounterEvent):
    """Waiting ended (deadline or cancel) while the payment is still open: never charge again."""

    sale: int | None
    view: PaymentView


@dataclass(frozen=True)
class PaymentSettled(CounterEvent):
    """A payment reached a final state: paid, definitely not paid, charged late (after the sale
    was given up), or returned."""

    sale: int | None
    view: PaymentView
    via: Via

    @property
    def paid(self) -> bool:
        """Paid for the sale (never a late charge, never money returned)."""
        return of_payment(self.view) is Verdict.PAID


@dataclass(frozen=True)
class PaymentError(CounterEvent):
    """The payment call ended with an error; `app_trans_id` once its intent was recorded (its
    outcome is then what the journal says, never "not charged")."""

    sale: int | None
    amount: int
    message: str
    app_trans_id: str | None
    view: PaymentView | None


@dataclass(frozen=True)
class RefundSettled(CounterEvent):
    """A refund reached a final state (refunded or failed)."""

    refund: RefundView
    via: Via

    @property
    def refunded(self) -> bool:
        return self.refund.state.value == "refunded"


@dataclass(frozen=True)
class ReceiptPrinting(CounterEvent):
    """A receipt is on its way to the printer (Counter.print_receipt)."""

    subject_id: str  # app_trans_id or m_refund_id
    app_trans_id: str  # the payment it belongs to (a refund's payment)


@dataclass(frozen=True)
class ReceiptPrinted(CounterEvent):
    """A print ended: `outcome.printed` only once the printer took the bytes; otherwise its
    message says why not and the setting to fix."""

    outcome: PrintOutcome
    app_trans_id: str


@dataclass(frozen=True)
class ScannerStatus(CounterEvent):
    spec: str
    state: str
    detail: str = ""
    hint: str | None = None
    fps: float | None = None
    decode_ms: float | None = None
    #: the state changed to disconnected / reconnecting (say it once, not on every frame)
    lost: bool = False


@dataclass(frozen=True)
class ScannerUnavailable(CounterEvent):
    """The configured scanner could not be opened; the keyboard wedge still works."""

    error: str


@dataclass(frozen=True)
class ServiceStatus(CounterEvent):
    """The signed service check (Counter.check_service): `state` is a ServiceCheck value
    ("ok", "wrong" credentials, "unreachable", "busy", "refused"), `detail` what was said."""

    reachable: bool
    state: str = ""
    detail: str = ""


@dataclass(frozen=True)
class PendingCount(CounterEvent):
    """Payments still to reconcile; None when the journal cannot be read."""

    count: int | None


@dataclass(frozen=True)
class ReconcileFailed(CounterEvent):
    error: str


@dataclass(frozen=True)
class ListenerFailed(CounterEvent):
    """A listener raised; the payment went on (the others are told, e.g. to show it)."""

    listener: str
    event: str
    error: str
