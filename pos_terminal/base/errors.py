"""The one root of the errors a person reads: the cashier's sentence and the exit code.

Every error of the wallet, the journal, the checkout, the configuration, the fleet ledger and the
receipts derives from PosError, so a front end shows ``exc.message`` (or `cashier_message(exc)`
for any exception) and a command ends with ``exc.exit_code`` without knowing which layer raised.
"""

from __future__ import annotations

from enum import IntEnum

from pos_terminal.base.reasons import TEXT, Reason, render


class ExitCode(IntEnum):
    """The one exit-code table of every command, one meaning a number (docs/commands.md). The
    money commands' code is decided by the outcome rule (checkout/verdict.py's verdict, turned
    into an exit code by counter/answers.py)."""

    PAID = 0  # paid; for any other command: done
    NOT_PAID = 1  # definitely not paid (said only when certain), or the operation failed
    NOTHING_SENT = 2  # bad input, configuration or journal: refused before anything was sent
    UNKNOWN = 3  # outcome unknown, or needs review: reconcile later, never pay again
    UNREACHABLE = 4  # a device or service beside the payment did not answer (printer, ledger)
    REFUSED = 5  # that device or service answered with a refusal (the ledger's credentials)


class PosError(Exception):
    """Base of every error a cashier or integrator reads.

    ``why`` is the machine side: a reason (``code`` and parameters, base/reasons.py) that the
    payment core raises instead of a sentence; ``message`` is the sentence a person reads,
    rendered from it in the current language when it is read (an error built from plain text
    keeps that text, as the reason ``text``). ``exit_code`` is how a command that ends on this
    error exits (the class default unless given). ``text`` is what ``str(exc)`` says when it
    must carry more than the sentence (a file name, a key).
    """

    exit_code: int = ExitCode.UNKNOWN
    #: The code of an error raised with a plain sentence (a subclass names its own).
    kind: str = "error"

    def __init__(self, message: str | Reason, *, exit_code: int | None = None,
                 text: str | None = None) -> None:
        self.why = message if isinstance(message, Reason) else Reason.text(message)
        super().__init__(self.why.code if text is None and isinstance(message, Reason)
                         else message if text is None else text)
        self._text = text
        if exit_code is not None:
            self.exit_code = exit_code

    @property
    def code(self) -> str:
        """The stable code of what went wrong: its reason's, or its kind's when it was raised
        with a plain sentence."""
        return self.kind if self.why.code == TEXT else self.why.code

    @property
    def message(self) -> str:
        return render(self.why)

    def __str__(self) -> str:
        return self.message if self._text is None else self._text


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
