"""Printing a receipt at the counter (a key in a front end, or `[printer] auto`): blocking, and
never raising. The answer says whether the printer took the bytes and, when it did not, the
exact cause and the setting to fix."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from pos_terminal.base.errors import cashier_message
from pos_terminal.base.i18n import _, current_language
from pos_terminal.config import Settings
from pos_terminal.journal import Journal


@dataclass(frozen=True)
class PrintOutcome:
    subject_id: str  # app_trans_id or m_refund_id
    printed: bool    # True only once the printer took the bytes
    message: str


def print_for_counter(journal: Journal, settings: Settings, subject_id: str, *,
                      cashier_id: str | None) -> PrintOutcome:
    """Print the receipt of a settled payment or refund on `[printer] target`."""
    from pos_terminal.receipts import ENGLISH, LABELS
    from pos_terminal.receipts.service import print_receipt

    def printed() -> str:
        receipt = print_receipt(journal, settings, subject_id, cashier_id=cashier_id,
                                labels=LABELS.get(current_language(), ENGLISH))
        return (_("Reprint of the receipt printed on {target}.") if receipt.reprint
                else _("Receipt printed on {target}."))

    return _print(settings, subject_id, printed)


def print_slip(settings: Settings, slip_id: str, lines: Sequence[str]) -> PrintOutcome:
    """A slip of totals (shift settlement, X or Z report) on `[printer] target`: the journal's
    own numbers printed, so nothing is journaled."""
    from hardware.printers import send
    from pos_terminal.receipts import Receipt
    from pos_terminal.receipts.service import receipt_bytes

    def printed() -> str:
        data = receipt_bytes(Receipt("slip", slip_id, tuple(lines), False), settings)
        send(settings.printer.target, data, timeout_s=settings.printer.timeout_s)
        return _("Printed on {target}.")

    return _print(settings, slip_id, printed)


def _print(settings: Settings, subject_id: str, printed: Callable[[], str]) -> PrintOutcome:
    """Run `printed` (which returns the sentence to say, with {target}); every failure in the
    cashier's words."""
    from hardware.printers import PrinterError, PrinterSpecError
    from pos_terminal.receipts import NoReceipt, ReceiptFontMissing
    from pos_terminal.receipts.service import UnknownReceipt

    def refused(message: str) -> PrintOutcome:
        return PrintOutcome(subject_id, False, _("No receipt printed: {cause}").format(
            cause=message))

    target = settings.printer.target.strip()
    if not target:
        return refused(_("no receipt printer is set up. Set [printer] target in {config} "
                         "(e.g. target = \"tcp:192.168.1.50:9100\").").format(
                             config=settings.source))
    try:
        text = printed()
    except PrinterSpecError as exc:
        return refused(_("[printer] target in {config} is not usable: {error}").format(
            config=settings.source, error=exc))
    except PrinterError as exc:  # names the printer and what to check
        return refused(f"{exc}.")
    except (NoReceipt, UnknownReceipt) as exc:
        return refused(str(exc))
    except ReceiptFontMissing as exc:
        return refused(exc.message)
    except Exception as exc:  # e.g. the journal: never a traceback at the counter
        return refused(_("{error}. Try again; if it happens again, print it with "
                         "`pos-terminal receipt {id} --print`.").format(
                             error=cashier_message(exc), id=subject_id))
    return PrintOutcome(subject_id, True, text.format(target=target))
