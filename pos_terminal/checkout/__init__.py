"""The payment state machine: pay, poll, recover, reconcile, refund, override, gateway orders."""

from pos_terminal.checkout.engine import Checkout
from pos_terminal.checkout.errors import (
    AnswerNotRecorded,
    CheckoutError,
    CodeRefused,
    InvalidPayment,
)
from pos_terminal.checkout.gateway import GatewayOrderView
from pos_terminal.checkout.recovery import ReconcileReport
from pos_terminal.journal import (
    JournalUnavailable,
    PaymentState,
    PaymentView,
    RefundState,
    RefundView,
)

__all__ = [
    "AnswerNotRecorded",
    "Checkout",
    "CheckoutError",
    "CodeRefused",
    "GatewayOrderView",
    "InvalidPayment",
    "JournalUnavailable",
    "PaymentState",
    "PaymentView",
    "ReconcileReport",
    "RefundState",
    "RefundView",
]
