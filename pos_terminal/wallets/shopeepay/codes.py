"""ShopeePay's result codes as data, with the terminal's reading of each: its `final` column
(shared/spec/shopeepay.md, "Result codes"), kept in this one place.

Only a proven failure is a failure: a code not marked final, no answer, or an unreadable one
decides nothing (the terminal checks); errcode 0 sends the reader to the transaction's status
(`STATUSES`). A code this table does not hold is "no information".
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from pos_terminal.wallets.code_table import CodeClass, CodeRow, CodeTable, Operation

SOURCE = "shared/spec/shopeepay.md (Midtrans' ShopeePay response codes, Invalidate Order page)"
STATUS_SOURCE = "shared/spec/shopeepay.md (Common Objects: transaction status)"

SUCCESS = 0
NOT_FOUND = 4
DUPLICATE = 11
REFUND_WINDOW_PASSED = 304

#: transaction_type of a payment and of a refund (the check names which it asks about)
PAYMENT_TYPE = 13
REFUND_TYPE = 15


class Final(StrEnum):
    """The `final` column: what a code proves."""

    SEE_STATUS = "see below"  # errcode 0: the transaction's status says
    NO = "no"  # decides nothing: check again
    NOTHING_CHARGED = "yes, nothing charged"
    NOTHING_REFUNDED = "yes, nothing refunded"


@dataclass(frozen=True)
class ErrRow:
    codes: tuple[int, ...]
    meaning_en: str
    meaning_vi: str
    final: Final


ERRCODES: tuple[ErrRow, ...] = (
    ErrRow((0,), "success: read the transaction's status",
           "thành công: đọc trạng thái giao dịch", Final.SEE_STATUS),
    ErrRow((-2, -1, 1800), "connection dropped, server error", "mất kết nối, lỗi máy chủ",
           Final.NO),
    ErrRow((1, 2, 4), "parameters, permission (often an invalid status), not found",
           "tham số, quyền (thường là trạng thái không hợp lệ), không tìm thấy", Final.NO),
    ErrRow((11,), "duplicate request or transaction", "yêu cầu hoặc giao dịch bị trùng",
           Final.NO),
    ErrRow((121,), "update of a completed transaction",
           "cập nhật một giao dịch đã hoàn tất", Final.NO),
    ErrRow((6, 7, 9, 24), "wallet not activated, expired, account banned, account frozen",
           "ví chưa kích hoạt, hết hạn, tài khoản bị cấm, tài khoản bị khoá",
           Final.NOTHING_CHARGED),
    ErrRow((42,), "insufficient balance", "số dư không đủ", Final.NOTHING_CHARGED),
    ErrRow((101, 102, 103, 104), "a wallet limit (103: the daily one)",
           "vượt hạn mức ví (103: hạn mức ngày)", Final.NOTHING_CHARGED),
    ErrRow((105,), "authorisation code invalid", "mã xác thực không hợp lệ",
           Final.NOTHING_CHARGED),
    ErrRow((301,), "invalid payment code or QR content",
           "mã thanh toán hoặc nội dung QR không hợp lệ", Final.NOTHING_CHARGED),
    ErrRow((303,), "paying one's own account", "thanh toán cho chính tài khoản của mình",
           Final.NOTHING_CHARGED),
    ErrRow((REFUND_WINDOW_PASSED,), "refund past its window", "đã quá hạn hoàn tiền",
           Final.NOTHING_REFUNDED),
)

#: transaction status -> (English, Vietnamese, what it proves)
STATUSES: dict[int, tuple[str, str, CodeClass]] = {
    1: ("initial", "khởi tạo", CodeClass.PROCESSING),
    2: ("processing", "đang xử lý", CodeClass.PROCESSING),
    3: ("successful", "thành công", CodeClass.PAID),
    4: ("failed", "thất bại", CodeClass.NOT_CHARGED),
    6: ("expired", "hết hạn", CodeClass.NOT_CHARGED),
    7: ("invalidated", "bị huỷ", CodeClass.NOT_CHARGED),
}

_CLASS = {Final.SEE_STATUS: CodeClass.PROCESSING, Final.NO: CodeClass.NO_INFORMATION,
          Final.NOTHING_CHARGED: CodeClass.NOT_CHARGED,
          Final.NOTHING_REFUNDED: CodeClass.NOT_CHARGED}
_PAYMENT_CALLS = (Operation.QUICK_PAY, Operation.STATUS)
_REFUND_CALLS = (Operation.REFUND, Operation.REFUND_STATUS)


def _rows() -> list[CodeRow]:
    rows: list[CodeRow] = []
    for row in ERRCODES:
        calls = _REFUND_CALLS if row.final is Final.NOTHING_REFUNDED else (
            _PAYMENT_CALLS if row.final is Final.NOTHING_CHARGED else (
                *_PAYMENT_CALLS, *_REFUND_CALLS))
        for call in calls:
            for code in row.codes:
                cls = _CLASS[row.final]
                if code == NOT_FOUND and call in (Operation.STATUS, Operation.REFUND_STATUS):
                    cls = CodeClass.NOT_FOUND  # to a check, 4 is "not found"
                rows.append(CodeRow(call, code, None, cls, row.meaning_en, row.meaning_vi,
                                    SOURCE))
    return rows


#: The errcodes by call (errcode 0's class is PROCESSING: its transaction status decides).
TABLE = CodeTable("shopeepay", _rows())


def final_of(errcode: int) -> Final:
    """The `final` column for `errcode`; "no" for a code the table does not hold."""
    return next((row.final for row in ERRCODES if errcode in row.codes), Final.NO)
