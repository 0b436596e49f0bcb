"""Lotus Pay's result codes as data (its API's "result" field), read through the terminal's
shared code table: a code not listed says nothing about the money."""

from __future__ import annotations

from pos_terminal.wallets.code_table import CodeClass, CodeRow, CodeTable, Operation

SOURCE = "examples/wallet-plugin/README.md (Lotus Pay API v1, result codes)"

PAID = 0
PROCESSING = 10
BALANCE_TOO_LOW = 21
CODE_NOT_VALID = 22
ACCOUNT_FROZEN = 23
MORE_THAN_LEFT = 31
NOT_FOUND = 44
KEY_REFUSED = 90

_KEY = (KEY_REFUSED, CodeClass.NO_INFORMATION, "API key refused", "khoá API bị từ chối")
# (code, class, English, Vietnamese): a payment and its status query answer the same codes
_PAYMENT = (
    (PAID, CodeClass.PAID, "paid", "đã thanh toán"),
    (PROCESSING, CodeClass.PROCESSING, "waiting for the customer", "đang chờ khách hàng"),
    (BALANCE_TOO_LOW, CodeClass.NOT_CHARGED, "balance too low", "số dư không đủ"),
    (CODE_NOT_VALID, CodeClass.NOT_CHARGED, "code expired or unknown",
     "mã hết hạn hoặc không hợp lệ"),
    (ACCOUNT_FROZEN, CodeClass.NOT_CHARGED, "account frozen", "tài khoản bị khoá"),
    _KEY,
)
_REFUND = (
    (PAID, CodeClass.REFUNDED, "refunded", "đã hoàn tiền"),
    (MORE_THAN_LEFT, CodeClass.NOT_CHARGED, "more than is left to refund",
     "vượt số tiền còn lại"),
    _KEY,
)
_ROWS = (
    *((op, *row) for op in (Operation.QUICK_PAY, Operation.STATUS) for row in _PAYMENT),
    (Operation.STATUS, NOT_FOUND, CodeClass.NOT_FOUND, "no such payment",
     "không có giao dịch này"),
    *((op, *row) for op in (Operation.REFUND, Operation.REFUND_STATUS) for row in _REFUND),
    (Operation.REFUND_STATUS, NOT_FOUND, CodeClass.NOT_FOUND, "no such refund",
     "không có lệnh hoàn tiền này"),
)

TABLE = CodeTable("lotus", (CodeRow(op, code, None, cls, en, vi, SOURCE)
                            for op, code, cls, en, vi in _ROWS))
