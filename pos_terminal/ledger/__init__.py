"""The fleet ledger: every terminal's journal shipped, once, to one PostgreSQL database.

The payment core (wallet, journal, checkout) never imports this package: a payment never waits
for head office. See docs/fleet.md.
"""

from pos_terminal.ledger.dsn import describe_dsn, ledger_dsn
from pos_terminal.ledger.errors import (
    LedgerConfigError,
    LedgerError,
    LedgerRefused,
    LedgerUnavailable,
)
from pos_terminal.ledger.store import Ledger
from pos_terminal.ledger.sync import (
    BackgroundSync,
    LedgerSync,
    SyncReport,
    SyncStatus,
    start_background_sync,
)

__all__ = [
    "BackgroundSync",
    "Ledger",
    "LedgerConfigError",
    "LedgerError",
    "LedgerRefused",
    "LedgerSync",
    "LedgerUnavailable",
    "SyncReport",
    "SyncStatus",
    "describe_dsn",
    "ledger_dsn",
    "start_background_sync",
]
