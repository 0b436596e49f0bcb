"""Errors of any wallet provider, as the checkout meets them (its port, checkout/ports.py).

NoAnswer and UnreadableAnswer mean "outcome unknown": a charge that raised one of them may or
may not have happened, so callers resolve it with a status query and never treat it as failed.
NotSent means the opposite, "certainly not sent": it is no kind of NoAnswer (the classes are
disjoint), so no caller's verdict depends on the order of its `except` clauses.

Each error keeps its machine fields beside the sentence: ``code`` (stable, e.g.
``wallet.not_sent``) and the fields of its kind (``cause``, ``http_status``, ``return_code``).
A provider's package raises these (and subclasses of WalletError, such as
wallets/errors.FieldError for a request it refuses before sending).
"""

from __future__ import annotations

from pos_terminal.base.errors import ExitCode, PosError
from pos_terminal.base.reasons import Reason


class WalletError(PosError):
    """Base of every wallet error; ``message`` is a sentence for a cashier or an integrator.
    Whether a charge happened is unknown unless a subclass says otherwise (exit 3)."""

    kind = "wallet.error"


class NoAnswer(WalletError):
    """No answer came back after the request may have left: read timeout, reset, a TLS failure
    after sending, a dropped connection. The outcome is unknown."""

    kind = "wallet.no_answer"


class NotSent(WalletError):
    """The request never left this machine: no connection could be opened (connection refused,
    name not resolved, connect timeout). The outcome is known: nothing reached the service.
    ``cause`` is a few words naming why ("connection refused", ...).

    A reset or a close on a reused keep-alive connection is NOT this: that request may have been
    sent, so it is a NoAnswer."""

    exit_code = ExitCode.NOT_PAID
    kind = "wallet.not_sent"

    def __init__(self, message: str | Reason, cause: str) -> None:
        super().__init__(message)
        self.cause = cause


class UnreadableAnswer(WalletError):
    """An answer came back but cannot be trusted: HTTP error, HTML, garbage, missing fields."""

    kind = "wallet.unreadable_answer"

    def __init__(self, message: str | Reason, http_status: int | None = None) -> None:
        super().__init__(message)
        self.http_status = http_status


class ServiceRefused(WalletError):
    """A non-payment operation (bank list, gateway order) was answered with a refusal."""

    kind = "wallet.refused"

    def __init__(
        self,
        message: str | Reason,
        return_code: int,
        sub_return_code: int | None = None,
        service_message: str = "",
    ) -> None:
        super().__init__(message)
        self.return_code = return_code
        self.sub_return_code = sub_return_code
        self.service_message = service_message


class MismatchedAnswer(UnreadableAnswer):
    """The answer names another order than the one asked about: never applied. For a charge it
    means "outcome unknown, needs review"."""

    kind = "wallet.other_order"


class NoticeRefused(PosError):
    """A wallet's notice (its webhook) that is not believed: not the wallet's form, or its
    signature is not the one this counter's key makes, or it goes to a wallet that sends none.
    Nothing was changed. ``problem`` says which: ``form``, ``signature`` or ``no_webhook``."""

    exit_code = ExitCode.NOTHING_SENT
    kind = "wallet.notice_refused"

    def __init__(self, message: Reason, problem: str) -> None:
        super().__init__(message)
        self.problem = problem


__all__ = ["MismatchedAnswer", "NoAnswer", "NotSent", "NoticeRefused", "ServiceRefused",
           "UnreadableAnswer", "WalletError"]
