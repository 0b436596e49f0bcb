"""The durable payment journal (SQLite): schema, migrations, events, queries, reports, export."""

from pos_terminal.journal.errors import (
    AlreadyReturned,
    CodeClaimed,
    IllegalTransition,
    JournalCorrupt,
    JournalError,
    JournalUnavailable,
    RefundNotAllowed,
    RefundRefTaken,
    SaleRefTaken,
    UnknownPayment,
    UnknownRefund,
    UnknownZReport,
)
from pos_terminal.journal.machine import Answer, Refused
from pos_terminal.journal.reports import Report
from pos_terminal.journal.schema import SCHEMA_VERSION
from pos_terminal.journal.states import (
    FINAL_STATES,
    PAYMENT_TRANSITIONS,
    PENDING_STATES,
    REFUND_TRANSITIONS,
    PaymentEvent,
    PaymentState,
    RefundEvent,
    RefundState,
    can_move,
)
from pos_terminal.journal.store import Journal, now_ms
from pos_terminal.journal.views import EventView, PaymentView, RefundView

__all__ = [
    "FINAL_STATES",
    "PAYMENT_TRANSITIONS",
    "PENDING_STATES",
    "REFUND_TRANSITIONS",
    "SCHEMA_VERSION",
    "AlreadyReturned",
    "Answer",
    "CodeClaimed",
    "EventView",
    "IllegalTransition",
    "Journal",
    "JournalCorrupt",
    "JournalError",
    "JournalUnavailable",
    "PaymentEvent",
    "PaymentState",
    "PaymentView",
    "RefundEvent",
    "RefundNotAllowed",
    "RefundRefTaken",
    "RefundState",
    "RefundView",
    "Refused",
    "Report",
    "SaleRefTaken",
    "UnknownPayment",
    "UnknownRefund", "UnknownZReport",
    "can_move",
    "now_ms",
]
