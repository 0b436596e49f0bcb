"""MoMo's result codes as data: one row per (call, code), each with its source.

MoMo's "List result codes" page has a "Final status" column, and it decides: a final code is a
verdict (0 paid; 1001, 1002... nothing charged); a code that is not final, or a code this table
does not hold, says nothing about the money: the terminal asks again (a status query), never
"not paid". 9000 (authorised, money held) is not final either: with auto capture MoMo says the
payment "can be considered successful"; in the two-step flow the terminal captures or cancels it
(wallet.py reads it as such).
"""

from __future__ import annotations

from pos_terminal.wallets.code_table import CodeClass, CodeRow, CodeTable, Operation

SPEC = "shared/spec/momo.md (developers.momo.vn v3, result codes; momo-wallet/payment samples)"
RESULT_PAGE = "developers.momo.vn v3 'List result codes' (Final status column)"

SUCCESS = 0
AUTHORISED = 9000
#: Repeating a requestId whose request is not final yet (spec: "then query").
DUPLICATED_REQUEST_ID = 40
#: "invalid orderId or orderId not found": to a status query, no record of the order.
ORDER_NOT_FOUND = 42
#: A payment authorised (9000) then cancelled by its merchant: final, nothing charged.
CANCELLED_AFTER_AUTHORISED = 1003

PAYMENT_CALLS = (Operation.QUICK_PAY, Operation.STATUS)

_PROCESSING = CodeClass.PROCESSING
_NO_INFO = CodeClass.NO_INFORMATION
_NOT_CHARGED = CodeClass.NOT_CHARGED

# The codes that refuse a request for its own sake (not final), and 99, published final but
# saying nothing about where the money is (the spec): for every call, no information: ask again.
_REFUSED_REQUESTS: tuple[tuple[int, CodeClass, str, str, str], ...] = (
    (10, _NO_INFO, "system under maintenance", "hệ thống đang bảo trì", RESULT_PAGE),
    (11, _NO_INFO, "access denied (merchant configuration)",
     "truy cập bị từ chối (cấu hình đối tác)", RESULT_PAGE),
    (12, _NO_INFO, "unsupported API version", "phiên bản API không được hỗ trợ", RESULT_PAGE),
    (13, _NO_INFO, "merchant authentication failed (check the signature)",
     "xác thực đối tác thất bại (kiểm tra chữ ký)", RESULT_PAGE),
    (20, _NO_INFO, "badly formatted request", "yêu cầu sai định dạng", RESULT_PAGE),
    (21, _NO_INFO, "invalid amount", "số tiền không hợp lệ", RESULT_PAGE),
    (22, _NO_INFO, "amount out of range (a capture: not the authorised amount)",
     "số tiền ngoài giới hạn (xác nhận: khác số tiền đã xác thực)", RESULT_PAGE),
    (DUPLICATED_REQUEST_ID, _NO_INFO, "duplicated requestId: its request is not final; query",
     "requestId bị trùng: yêu cầu chưa có kết quả cuối; hãy truy vấn", RESULT_PAGE),
    (41, _NO_INFO, "duplicated orderId: query the order's status",
     "orderId bị trùng: hãy truy vấn trạng thái đơn hàng", RESULT_PAGE),
    (ORDER_NOT_FOUND, _NO_INFO, "invalid orderId, or orderId not found",
     "orderId không hợp lệ hoặc không tìm thấy", RESULT_PAGE),
    (43, _NO_INFO, "a similar transaction is being processed",
     "một giao dịch tương tự đang được xử lý", RESULT_PAGE),
    (45, _NO_INFO, "duplicated ItemId", "ItemId bị trùng", RESULT_PAGE),
    (47, _NO_INFO, "information not applicable to the given data",
     "thông tin không áp dụng được cho dữ liệu đã gửi", RESULT_PAGE),
    (99, _NO_INFO, "unknown error (published final, but says nothing about the money)",
     "lỗi không xác định (công bố là kết quả cuối, nhưng không cho biết gì về tiền)",
     RESULT_PAGE),
)

# (code, class for a payment, English, Vietnamese, source)
_PAYMENT_CODES: tuple[tuple[int, CodeClass, str, str, str], ...] = (
    (SUCCESS, CodeClass.PAID, "success", "thành công", RESULT_PAGE),
    (AUTHORISED, _PROCESSING, "authorised, the money held: capture or cancel it",
     "đã xác thực, tiền đang được giữ: cần xác nhận hoặc huỷ", RESULT_PAGE),
    (1000, _PROCESSING, "initiated, waiting for the customer to confirm",
     "đã khởi tạo, chờ khách hàng xác nhận", RESULT_PAGE),
    (7000, _PROCESSING, "being processed", "đang xử lý", RESULT_PAGE),
    (7002, _PROCESSING, "being processed by the payment method's provider",
     "đang được nhà cung cấp phương thức thanh toán xử lý", RESULT_PAGE),
    (8000, _PROCESSING, "waiting for the customer to confirm again",
     "chờ khách hàng xác nhận lại", RESULT_PAGE),
    (1001, _NOT_CHARGED, "insufficient funds", "tài khoản không đủ tiền", RESULT_PAGE),
    (1002, _NOT_CHARGED, "rejected by the issuer of the payment method",
     "bị từ chối bởi nhà phát hành phương thức thanh toán", RESULT_PAGE),
    (CANCELLED_AFTER_AUTHORISED, _NOT_CHARGED,
     "cancelled after it was authorised: the held money went back",
     "đã huỷ sau khi xác thực: tiền giữ đã được hoàn lại", RESULT_PAGE),
    (98, _NOT_CHARGED, "the QR code was not generated", "mã QR không được tạo thành công",
     RESULT_PAGE),
    (1004, _NOT_CHARGED, "the amount exceeds the customer's daily or monthly payment limit",
     "số tiền vượt hạn mức thanh toán ngày hoặc tháng của khách hàng", RESULT_PAGE),
    (1005, _NOT_CHARGED, "the payment link or QR code expired",
     "đường dẫn hoặc mã QR thanh toán đã hết hạn", RESULT_PAGE),
    (1006, _NOT_CHARGED, "the customer declined to confirm the payment",
     "khách hàng đã từ chối xác nhận thanh toán", RESULT_PAGE),
    (1007, _NOT_CHARGED, "the customer's account is inactive or does not exist",
     "tài khoản của khách hàng không hoạt động hoặc không tồn tại", RESULT_PAGE),
    (1017, _NOT_CHARGED, "cancelled by the merchant", "đã bị đối tác huỷ", RESULT_PAGE),
    (1026, _NOT_CHARGED, "restricted by the promotion's rules",
     "bị hạn chế theo thể lệ chương trình khuyến mãi", RESULT_PAGE),
    (2019, _NOT_CHARGED, "invalid order group (orderGroupId)",
     "nhóm đơn hàng (orderGroupId) không hợp lệ", RESULT_PAGE),
    (4001, _NOT_CHARGED, "the customer's account is restricted",
     "tài khoản của khách hàng đang bị hạn chế", RESULT_PAGE),
    (4002, _NOT_CHARGED, "the customer's account is not verified",
     "tài khoản của khách hàng chưa được xác thực", RESULT_PAGE),
    (4100, _NOT_CHARGED, "the customer failed to log in",
     "khách hàng đăng nhập không thành công", RESULT_PAGE),
    *_REFUSED_REQUESTS,
)

_REFUND_CODES: tuple[tuple[int, CodeClass, str, str, str], ...] = (
    (SUCCESS, CodeClass.REFUNDED, "refunded", "đã hoàn tiền", RESULT_PAGE),
    (1080, _NOT_CHARGED, "refund failed while being processed", "hoàn tiền thất bại khi xử lý",
     RESULT_PAGE),
    (1081, _NOT_CHARGED, "refund rejected (already refunded, or more than is left)",
     "hoàn tiền bị từ chối (đã hoàn, hoặc vượt số tiền còn lại)", RESULT_PAGE),
    (1088, _NOT_CHARGED, "refund rejected: the payment is not eligible for a refund",
     "hoàn tiền bị từ chối: giao dịch không đủ điều kiện hoàn tiền", RESULT_PAGE),
    (7000, _PROCESSING, "being processed", "đang xử lý", RESULT_PAGE),
    (7002, _PROCESSING, "being processed by the payment method's provider",
     "đang được nhà cung cấp phương thức thanh toán xử lý", RESULT_PAGE),
    *_REFUSED_REQUESTS,
)

# Confirm (capture / cancel): 0 done; anything else decides nothing here: the payment's status
# query says where the money is.
_CONFIRM_CODES: tuple[tuple[int, CodeClass, str, str, str], ...] = (
    (SUCCESS, CodeClass.PAID, "done", "đã thực hiện", SPEC),
    (7000, _PROCESSING, "being processed", "đang xử lý", RESULT_PAGE),
    *_REFUSED_REQUESTS,
)


def _rows() -> list[CodeRow]:
    rows = [CodeRow(op, code, None, cls, en, vi, source)
            for op in PAYMENT_CALLS for code, cls, en, vi, source in _PAYMENT_CODES]
    rows += [CodeRow(Operation.REFUND, code, None, cls, en, vi, source)
             for code, cls, en, vi, source in _REFUND_CODES]
    rows += [CodeRow(op, code, None, cls, en, vi, source)
             for op in (Operation.CAPTURE, Operation.CANCEL)
             for code, cls, en, vi, source in _CONFIRM_CODES]
    return rows


TABLE = CodeTable("momo", _rows())


def is_final(row: CodeRow) -> bool:
    """MoMo's "Final status" column: a verdict about the money."""
    return row.cls in (CodeClass.PAID, CodeClass.REFUNDED, CodeClass.NOT_CHARGED)
