"""Back-office tools the CLI offers beside the counter: the journal opened on its own (history,
export, X/Z reports), cashiers and shifts, and the wallet service's own calls (banks, checking a
callback or a redirect). Re-exported here so that the front ends import nothing from `wallet`,
`checkout` or `journal`."""

from pos_terminal.config import Settings
from pos_terminal.journal import Journal
from pos_terminal.journal.api_tokens import (
    DEFAULT_SCOPES,
    SCOPES,
    ApiToken,
    ApiTokens,
    TokenError,
)
from pos_terminal.journal.cashiers import (
    Cashier,
    CashierError,
    CashierLocked,
    Cashiers,
    NotSupervisor,
    PinRejected,
    Shift,
    UnknownCashier,
    check_cashier_name,
    check_pin_format,
)
from pos_terminal.journal.event_runs import EventRun, start_event_run
from pos_terminal.journal.export import (
    write_csv,
    write_json,
    write_json_list,
    write_refunds_csv,
    write_refunds_json,
)
from pos_terminal.wallets.errors import NoAnswer, NotSent, ServiceRefused, UnreadableAnswer
from pos_terminal.wallets.zalopay.client import WalletClient
from pos_terminal.wallets.zalopay.verification import verify_callback, verify_redirect

__all__ = [
    "DEFAULT_SCOPES",
    "SCOPES",
    "ApiToken",
    "ApiTokens",
    "Cashier",
    "CashierError",
    "CashierLocked",
    "Cashiers",
    "EventRun",
    "Journal",
    "NoAnswer",
    "NotSent",
    "NotSupervisor",
    "PinRejected",
    "ServiceRefused",
    "Shift",
    "TokenError",
    "UnknownCashier",
    "UnreadableAnswer",
    "WalletClient",
    "check_cashier_name",
    "check_pin_format",
    "has_ledger",
    "start_event_run",
    "verify_callback",
    "verify_redirect",
    "write_csv",
    "write_json",
    "write_json_list",
    "write_refunds_csv",
    "write_refunds_json",
]


def has_ledger(settings: Settings) -> bool:
    """Whether this counter ships its journal to a fleet ledger: then only the outbox rows the
    ledger confirmed are pruned, else every old one (Journal.close_day)."""
    from pos_terminal.ledger.dsn import ledger_dsn

    return bool(ledger_dsn(settings))
