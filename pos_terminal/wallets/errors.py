"""The wallet errors every provider raises (base/wallet_errors.py) and those raised before
anything is sent: a request field refused, an unusable RSA key."""

from __future__ import annotations

from pos_terminal.base.errors import ExitCode
from pos_terminal.base.reasons import Reason
from pos_terminal.base.wallet_errors import (
    MismatchedAnswer,
    NoAnswer,
    NotSent,
    ServiceRefused,
    UnreadableAnswer,
    WalletError,
)


class FieldError(WalletError):
    """A request field was refused locally: nothing was sent. ``field`` is the wire name."""

    exit_code = ExitCode.NOTHING_SENT
    kind = "wallet.field_refused"

    def __init__(self, field: str, message: str | Reason) -> None:
        super().__init__(message)
        self.field = field


class RsaKeyError(WalletError):
    """The RSA public key is unreadable, or the payment code is too long for it."""

    kind = "wallet.rsa_key"


__all__ = [
    "FieldError",
    "MismatchedAnswer",
    "NoAnswer",
    "NotSent",
    "RsaKeyError",
    "ServiceRefused",
    "UnreadableAnswer",
    "WalletError",
]
