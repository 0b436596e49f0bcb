"""Receipts from the journal: find the payment or refund, build, print and journal the print.

The first print of a receipt is the original; every later one carries the reprint mark, counted
from `receipts_printed` in the journal (a print is journaled once the printer took it).
"""

from __future__ import annotations

from pos_terminal.base.errors import PosError
from pos_terminal.base.reasons import Reason
from pos_terminal.config import Settings
from pos_terminal.journal import Journal, UnknownPayment, UnknownRefund
from pos_terminal.journal.cashiers import Cashiers, UnknownCashier
from pos_terminal.receipts.content import (
    Receipt,
    Shop,
    copy_of,
    payment_receipt,
    refund_receipt,
)
from pos_terminal.receipts.labels import ENGLISH, ReceiptLabels
from pos_terminal.receipts.printing import to_escpos


class UnknownReceipt(PosError, LookupError):
    def __init__(self, subject_id: str, journal: Journal) -> None:
        super().__init__(Reason.of("receipt.unknown", subject_id=subject_id,
                                   journal=str(journal.path)))


def _cashier_label(journal: Journal, cashier_id: str | None) -> str | None:
    if cashier_id is None:
        return None
    try:
        return f"{Cashiers(journal).get(cashier_id).name} ({cashier_id})"
    except UnknownCashier:
        return cashier_id


def subject_of(journal: Journal, subject_id: str) -> tuple[str, str]:
    """("payment" | "refund", id) of an app_trans_id or m_refund_id in the journal."""
    if journal.find(subject_id) is not None:
        return "payment", subject_id
    try:
        journal.get_refund(subject_id)
    except UnknownRefund:
        raise UnknownReceipt(subject_id, journal) from None
    return "refund", subject_id


def build_receipt(journal: Journal, settings: Settings, subject_id: str, *,
                  reprint: bool | None = None, labels: ReceiptLabels = ENGLISH) -> Receipt:
    """The receipt of a payment or refund; `reprint` None: marked when printed before.

    Raises UnknownReceipt, or NoReceipt for a payment or refund that did not settle."""
    kind, _ = subject_of(journal, subject_id)
    if reprint is None:
        reprint = journal.receipt_prints(kind, subject_id) > 0
    shop = Shop(settings.shop.name, settings.shop.address, settings.shop.tax_id)
    terminal_id, width = settings.terminal.terminal_id, settings.printer.width
    if kind == "payment":
        payment = journal.get(subject_id)
        return payment_receipt(payment, cashier=_cashier_label(journal, payment.cashier_id),
                               shop=shop, terminal_id=terminal_id, width=width,
                               reprint=reprint, labels=labels)
    refund = journal.get_refund(subject_id)
    try:
        payment = journal.get(refund.app_trans_id)
    except UnknownPayment:  # pragma: no cover - a refund always has its payment (foreign key)
        raise UnknownReceipt(subject_id, journal) from None
    return refund_receipt(refund, payment, cashier=_cashier_label(journal, refund.cashier_id),
                          authorised_by=_cashier_label(journal, refund.authorised_by),
                          shop=shop, terminal_id=terminal_id, width=width, reprint=reprint,
                          labels=labels)


def receipt_bytes(receipt: Receipt, settings: Settings) -> bytes:
    return to_escpos(receipt, codepage=settings.printer.codepage,
                     font_path=settings.printer.font, width=settings.printer.width)


def print_receipt(journal: Journal, settings: Settings, subject_id: str, *,
                  target: str | None = None, labels: ReceiptLabels = ENGLISH,
                  cashier_id: str | None = None) -> Receipt:
    """Print the receipt on the configured printer (or `target`) and journal the print.

    Raises UnknownReceipt, NoReceipt, ReceiptFontMissing, hardware PrinterSpecError /
    PrinterError (nothing journaled then)."""
    from hardware.printers import send

    spec = target or settings.printer.target
    receipt = build_receipt(journal, settings, subject_id, labels=labels)
    if settings.printer.copies == 2:  # each copy its own cut: torn off apart
        data = b"".join(receipt_bytes(copy_of(receipt, label, settings.printer.width), settings)
                        for label in labels.copies)
    else:
        data = receipt_bytes(receipt, settings)
    sent = send(spec, data, timeout_s=settings.printer.timeout_s)
    journal.record_receipt_print(receipt.kind, subject_id, target=sent.spec,
                                 cashier_id=cashier_id)
    return receipt
