"""What the front ends name from the payment core: result types, state names, errors.

Re-exported here so that the UI, the CLI and headless mode import nothing from `wallet`,
`checkout` or `journal` (import-linter contract in pyproject.toml)."""

from pos_terminal.base.codes import mask_code
from pos_terminal.base.wallet_types import Bank, BankList, Item, ServiceCheck
from pos_terminal.checkout import (
    AnswerNotRecorded,
    CheckoutError,
    CodeRefused,
    GatewayOrderView,
    InvalidPayment,
    ReconcileReport,
)
from pos_terminal.checkout.errors import Stopped, intent_of, refund_of
from pos_terminal.checkout.providers import UnknownProvider, WalletChoiceNeeded
from pos_terminal.checkout.validation import (
    check_code,
    check_code_format,
    description_problem,
    items_problem,
)
from pos_terminal.journal import (
    FINAL_STATES,
    EventView,
    IllegalTransition,
    JournalError,
    PaymentState,
    PaymentView,
    RefundNotAllowed,
    RefundRefTaken,
    RefundState,
    RefundView,
    Report,
    SaleRefTaken,
    UnknownPayment,
    UnknownRefund,
)
from pos_terminal.journal.cashiers import CashierError
from pos_terminal.receipts.content import NoReceipt
from pos_terminal.sentences.labels import late_charge_note
from pos_terminal.wallets.errors import FieldError, RsaKeyError, WalletError
from pos_terminal.wallets.zalopay.results import RedirectResult, pmc_name

__all__ = [
    "FINAL_STATES", "AnswerNotRecorded", "Bank", "BankList", "CashierError",
    "CheckoutError",
    "CodeRefused", "EventView", "FieldError", "GatewayOrderView", "IllegalTransition",
    "InvalidPayment", "Item", "JournalError", "NoReceipt", "PaymentState", "PaymentView",
    "ReconcileReport", "RedirectResult", "RefundNotAllowed", "RefundRefTaken", "RefundState",
    "RefundView",
    "Report", "RsaKeyError", "SaleRefTaken", "ServiceCheck", "Stopped", "UnknownPayment",
    "UnknownProvider", "UnknownRefund", "WalletChoiceNeeded", "WalletError", "check_code",
    "check_code_format",
    "description_problem", "intent_of", "items_problem", "late_charge_note", "mask_code",
    "pmc_name", "refund_of",
]
