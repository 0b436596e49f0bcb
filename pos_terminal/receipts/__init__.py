"""Receipts of settled payments and refunds: text lines and ESC/POS bytes."""

from pos_terminal.receipts.content import NoReceipt, Receipt, Shop, payment_receipt, refund_receipt
from pos_terminal.receipts.labels import ENGLISH, LABELS, VIETNAMESE, ReceiptLabels
from pos_terminal.receipts.printing import ReceiptFontMissing, encode_cp1258, to_escpos

__all__ = [
    "ENGLISH", "LABELS", "VIETNAMESE", "NoReceipt", "Receipt", "ReceiptFontMissing",
    "ReceiptLabels", "Shop", "encode_cp1258", "payment_receipt",
    "refund_receipt", "to_escpos",
]
