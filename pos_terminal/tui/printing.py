"""Receipts from the counter: the one place the UI prints (a key, or `[printer] auto`).

`print_for_counter` is blocking and never raises: it answers whether the printer took the
bytes and, when it did not, the exact cause and the setting to fix. `start_print` runs it in a
worker thread and delivers a `ReceiptPrinted` message to the App, so a listener of settled
payments and refunds can call the same function later."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from textual.message import Message

from pos_terminal.base.i18n import _, current_language
from pos_terminal.config import Settings
from pos_terminal.journal import Journal

if TYPE_CHECKING:
    from textual.app import App


@dataclass(frozen=True)
class PrintOutcome:
    subject_id: str  # app_trans_id or m_refund_id
    printed: bool    # True only once the printer took the bytes
    message: str


def print_for_counter(journal: Journal, settings: Settings, subject_id: str, *,
                      cashier_id: str | None) -> PrintOutcome:
    """Print the receipt of a settled payment or refund on `[printer] target`."""
    from hardware.printers import PrinterError, PrinterSpecError
    from pos_terminal.receipts import ENGLISH, LABELS, NoReceipt, ReceiptFontMissing
    from pos_terminal.receipts.service import UnknownReceipt, print_receipt

    def refused(message: str) -> PrintOutcome:
        return PrintOutcome(subject_id, False, _("No receipt printed: {cause}").format(
            cause=message))

    target = settings.printer.target.strip()
    if not target:
        return refused(_("no receipt printer is set up. Set [printer] target in {config} "
                         "(e.g. target = \"tcp:192.168.1.50:9100\").").format(
                             config=settings.source))
    try:
        receipt = print_receipt(journal, settings, subject_id, cashier_id=cashier_id,
                                labels=LABELS.get(current_language(), ENGLISH))
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
                             error=getattr(exc, "message", None) or exc, id=subject_id))
    text = (_("Reprint of the receipt printed on {target}.") if receipt.reprint
            else _("Receipt printed on {target}."))
    return PrintOutcome(subject_id, True, text.format(target=target))


class ReceiptPrinted(Message):
    """A print finished (or failed): delivered to the App, on its thread."""

    def __init__(self, outcome: PrintOutcome) -> None:
        super().__init__()
        self.outcome = outcome


def start_print(app: App[None], journal: Journal, settings: Settings, subject_id: str, *,
                cashier_id: str | None) -> None:
    """Print in a worker thread; the UI never waits for the printer."""

    def work() -> None:
        outcome = print_for_counter(journal, settings, subject_id, cashier_id=cashier_id)
        app.post_message(ReceiptPrinted(outcome))

    app.run_worker(work, thread=True, group="receipt", exit_on_error=False)
