"""What can go wrong between a counter (or head office) and the fleet ledger, with its exit code:
2 configuration (nothing was tried), 4 unreachable (nothing of the batch in flight was kept),
5 refused (the ledger answered but will not take it)."""

from __future__ import annotations

from pos_terminal.base.errors import PosError

EXIT_CONFIG, EXIT_UNREACHABLE, EXIT_REFUSED = 2, 4, 5


class LedgerError(PosError):
    """Any of the below, or a sync that could not finish (the commands exit 2 on it)."""


class LedgerConfigError(LedgerError):
    """The ledger's settings cannot be used as they are (a malformed DSN, clear text asked for
    without `[ledger] insecure = true`): nothing was sent."""

    exit_code = EXIT_CONFIG


class LedgerUnavailable(LedgerError):
    """No connection, a dropped one, a timeout: nothing of the batch in flight was kept."""

    exit_code = EXIT_UNREACHABLE


class LedgerRefused(LedgerError):
    """The ledger answered but will not take the data (schema not current, permissions, a
    journal claiming another counter's terminal id)."""

    exit_code = EXIT_REFUSED


__all__ = ["EXIT_CONFIG", "EXIT_REFUSED", "EXIT_UNREACHABLE", "LedgerConfigError", "LedgerError",
           "LedgerRefused", "LedgerUnavailable"]
