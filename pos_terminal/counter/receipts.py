"""Printing a receipt at the counter (a key in a front end, or `[printer] auto`): blocking, and
never raising. The answer says whether the printer took the bytes and, when it did not, the
exact cause, as a reason (sentences/printing.py) the front end renders when it shows it: a
Result screen still showing a print failure after F8 says it in the new language."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from pos_terminal.base.errors import PosError, cashier_message
from pos_terminal.base.i18n import current_language
from pos_terminal.base.reasons import Reason, render
from pos_terminal.config import Settings
from pos_terminal.journal import Journal

if TYPE_CHECKING:
    from hardware.printers import PrinterError
    from pos_terminal.receipts.slips import Slip


@dataclass(frozen=True)
class PrintOutcome:
    subject_id: str  # app_trans_id or m_refund_id
    printed: bool    # True only once the printer took the bytes
    reason: Reason   # printed on which target, or why not

    @property
    def message(self) -> str:
        """The sentence in the language shown now (rendered on every read)."""
        return render(self.reason)


def print_for_counter(journal: Journal, settings: Settings, subject_id: str, *,
                      cashier_id: str | None) -> PrintOutcome:
    """Print the receipt of a settled payment or refund on `[printer] target`."""
    from pos_terminal.receipts import ENGLISH, LABELS
    from pos_terminal.receipts.service import print_receipt

    def printed() -> tuple[str, str]:
        receipt = print_receipt(journal, settings, subject_id, cashier_id=cashier_id,
                                labels=LABELS.get(current_language(), ENGLISH))
        return ("receipt.reprinted" if receipt.reprint else "receipt.printed",
                save_picture(settings, subject_id, receipt.lines))

    return _print(settings, subject_id, printed)


def save_picture(settings: Settings, subject_id: str, lines: Sequence[str]) -> str:
    """`[printer] pictures`: the paper as a PNG picture in that folder (its path), "" when no
    folder is set. A picture that cannot be saved is not a print that failed: "" then too."""
    folder = settings.printer.pictures.strip()
    if not folder:
        return ""
    from pos_terminal.receipts.printing import render_raster

    try:
        path = Path(folder).expanduser()
        path.mkdir(parents=True, exist_ok=True)
        number = len(list(path.glob("*.png"))) + 1
        safe = "".join(c if c.isalnum() or c in "-_" else "_" for c in subject_id)[:60]
        picture = path / f"{number:04d}-{safe}.png"
        image = render_raster(tuple(lines), font_path=settings.printer.font,
                              width=settings.printer.width)
        image.save(picture)
    except Exception:  # the printer took it: the picture is only a copy
        return ""
    return str(picture)


def slip_text(settings: Settings, slip: Slip, width: int | None = None) -> tuple[str, ...]:
    """The slip as the paper prints it: the shop's header, `[printer] width` (or `width`)."""
    from pos_terminal.receipts import Shop
    from pos_terminal.receipts.slips import slip_lines

    shop = Shop(settings.shop.name, settings.shop.address, settings.shop.tax_id)
    return slip_lines(slip, shop=shop, width=width or settings.printer.width)


def print_slip(settings: Settings, slip_id: str, slip: Slip) -> PrintOutcome:
    """A slip of totals (shift settlement, X or Z report) on `[printer] target`: the journal's
    own numbers printed, so nothing is journaled."""
    from hardware.printers import send
    from pos_terminal.receipts import Receipt
    from pos_terminal.receipts.service import receipt_bytes

    def printed() -> tuple[str, str]:
        lines = slip_text(settings, slip)
        data = receipt_bytes(Receipt("slip", slip_id, lines, False), settings)
        send(settings.printer.target, data, timeout_s=settings.printer.timeout_s)
        return "slip.printed", save_picture(settings, slip_id, lines)

    return _print(settings, slip_id, printed)


def printer_reason(exc: PrinterError) -> Reason:
    """The printer's problem as a reason: the target named, and the driver's own words."""
    target = exc.target
    address = {"tcp": f"{target.host}:{target.port}",
               "usb": f"{target.vendor_id:04x}:{target.product_id:04x}",
               "serial": f"{target.device} ({target.baud} baud)"}.get(target.kind, target.device)
    return Reason.of(f"printer.{exc.problem}", kind=target.kind, address=address,
                     port=target.port, detail=exc.detail)


def _print(settings: Settings, subject_id: str,
           printed: Callable[[], tuple[str, str]]) -> PrintOutcome:
    """Run `printed` (which returns the reason's code for "printed on the target", and the
    picture saved of it or ""); every failure as a reason."""
    from hardware.printers import PrinterError, PrinterSpecError
    from pos_terminal.receipts import NoReceipt, ReceiptFontMissing
    from pos_terminal.receipts.service import UnknownReceipt

    def refused(cause: Reason) -> PrintOutcome:
        return PrintOutcome(subject_id, False, Reason.of("receipt.not_printed", cause=cause))

    target = settings.printer.target.strip()
    if not target:
        return refused(Reason.of("printer.not_set_up", config=str(settings.source)))
    try:
        code, picture = printed()
    except PrinterSpecError as exc:
        return refused(Reason.of("printer.setting_unusable", config=str(settings.source),
                                 error=str(exc)))
    except PrinterError as exc:  # names the printer and what to check
        return refused(printer_reason(exc))
    except (NoReceipt, UnknownReceipt, ReceiptFontMissing) as exc:
        return refused(exc.why)
    except Exception as exc:  # e.g. the journal: never a traceback at the counter
        error = exc.why if isinstance(exc, PosError) else Reason.text(cashier_message(exc))
        return refused(Reason.of("print.failed", error=error, id=subject_id))
    if picture:
        return PrintOutcome(subject_id, True, Reason.of(f"{code}_picture", target=target,
                                                        picture=picture))
    return PrintOutcome(subject_id, True, Reason.of(code, target=target))
