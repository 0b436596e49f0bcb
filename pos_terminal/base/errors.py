"""The one root of the errors a person reads: the cashier's sentence and the exit code.

Every error of the wallet, the journal, the checkout, the configuration, the fleet ledger and the
receipts derives from PosError, so a front end shows ``exc.message`` (or `cashier_message(exc)`
for any exception) and a command ends with ``exc.exit_code`` without knowing which layer raised.
"""

from __future__ import annotations

from enum import IntEnum


class ExitCode(IntEnum):
    """Exit codes of the money commands (checkout/verdict.py decides which one a payment gets)."""

    PAID = 0
    NOT_PAID = 1  # definitely not paid: said only when certain
    NOTHING_SENT = 2  # bad input, or refused before anything was sent
    UNKNOWN = 3  # outcome unknown, or needs review


class PosError(Exception):
    """Base of every error a cashier or integrator reads.

    ``message`` is one sentence naming the cause and the next step; ``exit_code`` is how a
    command that ends on this error exits (the class default unless given). ``text`` is what
    ``str(exc)`` says when it must carry more than the sentence (a file name, a key).
    """

    exit_code: int = ExitCode.UNKNOWN

    def __init__(self, message: str, *, exit_code: int | None = None,
                 text: str | None = None) -> None:
        super().__init__(message if text is None else text)
        self.message = message
        if exit_code is not None:
            self.exit_code = exit_code


def cashier_message(exc: BaseException) -> str:
    """The sentence to show for any exception: a PosError's message, else its text, else its
    type's name (never a traceback)."""
    if isinstance(exc, PosError) and exc.message:
        return exc.message
    try:
        text = str(exc)
    except Exception:
        text = ""
    return text or type(exc).__name__


__all__ = ["ExitCode", "PosError", "cashier_message"]
