"""Receipts of settled payments and refunds: text lines and ESC/POS bytes."""

from pos_terminal.receipts.content import NoReceipt, Receipt, Shop, payment_receipt, refund_receipt
from pos_terminal.receipts.labels import ENGLISH, LABELS, VIETNAMESE, ReceiptLabels
from pos_terminal.receipts.printing import ReceiptFontMissing, encode_cp1258, to_escpos
from pos_terminal.receipts.slips import RULE, Slip, SlipLine, slip_lines

__all__ = [
    "ENGLISH", "LABELS", "RULE", "VIETNAMESE", "NoReceipt", "Receipt", "ReceiptFontMissing",
    "ReceiptLabels", "Shop", "Slip", "SlipLine", "encode_cp1258", "payment_receipt",
    "refund_receipt", "slip_lines", "to_escpos",
]
