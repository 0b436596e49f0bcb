"""ZaloPay's published code table, as data: both generations, every call, every code.

Each row says what one answer proves about the money (wallets/code_table.py: the classes and the
one classifier) and names the public page it comes from. The current generation (v2) answers
``return_code`` with, on a failure (2), the detail in ``sub_return_code``: its rows are keyed by
(return code, sub code), a return code that decides alone by (return code, None). The legacy
generation (v001) answers one ``returncode``: its rows are keyed by (code, None).

What a code proves depends on the call. On a status query, a refusal (maintenance, a system
error, a rate limit, a bad signature...) is a refusal of the *query*: it says nothing about the
payment. On a quick pay, a system error (-500, -301, -32, -135) may come after the charge was
made: query before deciding, never resend. Codes that refuse a send's own data or credentials
before any order exists (-401, -402, -403, -405, -92) prove that send did nothing. ``-101`` is
"order not found" in one published table and "refund succeeded, cards credited in 3-5 working
days" in another (docs/protocol.md: "The codes"): on a payment's status it is a not-found
(either reading leaves the customer's money where it was); on a refund it decides nothing.
"""

from __future__ import annotations

from collections.abc import Iterator

from pos_terminal.wallets.code_table import CodeClass, CodeRow, CodeTable, Operation

#: The public material each row names.
ZLP_ORDER_QUERY = ("zalopay-oss/zalopay-nodejs specs/zlp.yaml, OrderQueryResponse "
                   "(https://github.com/zalopay-oss/zalopay-nodejs)")
ZLP_REFUND_QUERY = ("zalopay-oss/zalopay-nodejs specs/zlp.yaml, RefundQueryResponse "
                    "(https://github.com/zalopay-oss/zalopay-nodejs)")
ZLP_ORDER_CREATE = ("zalopay-oss/zalopay-nodejs specs/zlp.yaml, OrderCreateResponse "
                    "(https://github.com/zalopay-oss/zalopay-nodejs)")
STATUS_CODES = "https://beta-docs.zalopay.vn/docs/developer-tools/knowledge-base/status-codes"
ERRORS_V1 = "https://docs.zalopay.vn/en/v1/general/errors.html"

#: The short names docs/protocol.md's table gives the sources (its legend names them in full).
SHORT_SOURCES = {ZLP_ORDER_QUERY: "[zlp] OrderQuery", ZLP_REFUND_QUERY: "[zlp] RefundQuery",
                 ZLP_ORDER_CREATE: "[zlp] OrderCreate", STATUS_CODES: "[status-codes]",
                 ERRORS_V1: "[errors-v1]"}

Q = Operation.QUICK_PAY
S = Operation.STATUS
R = Operation.REFUND
RS = Operation.REFUND_STATUS
B = Operation.BANK_LIST
G = Operation.GATEWAY_ORDER
C = CodeClass

#: code: (English meaning, Vietnamese meaning). The words the rows share.
MEANINGS: dict[int, tuple[str, str]] = {
    1: ("success", "thành công"),
    3: ("processing: the order is not paid yet or still being processed",
        "đơn hàng chưa thanh toán hoặc giao dịch đang xử lý"),
    -32: ("system error, come back later", "hệ thống đang có lỗi, vui lòng quay lại sau"),
    -33: ("the app is under maintenance", "ứng dụng đang bảo trì"),
    -34: ("the payment channel is under maintenance", "kênh thanh toán đang bảo trì"),
    -35: ("the payment channel is unsupported or under maintenance",
          "kênh thanh toán không hỗ trợ hoặc đang bảo trì"),
    -43: ("the bank is under maintenance", "ngân hàng đang bảo trì"),
    -54: ("the transaction expired", "giao dịch đã hết hạn"),
    -63: ("the wallet balance is too low", "số dư ví không đủ"),
    -68: ("the order id already exists", "mã giao dịch đã tồn tại"),
    -88: ("this function is under maintenance", "chức năng này đang bảo trì"),
    -92: ("the transaction id is invalid", "mã giao dịch không hợp lệ"),
    -101: ("order not found / refund succeeded, cards credited in 3-5 working days "
           "(two published readings)",
           "không tìm thấy đơn hàng / hoàn tiền thành công, thẻ được hoàn trong 3-5 ngày làm "
           "việc (hai cách hiểu được công bố)"),
    -135: ("the system is under maintenance", "hệ thống đang bảo trì"),
    -217: ("the bank reported an error; nothing was charged", "ngân hàng báo lỗi"),
    -301: ("system error, try again later", "hệ thống đang có lỗi, vui lòng thử lại sau"),
    -322: ("the payment code expired or was used; nothing was charged",
           "mã thanh toán hết hạn, tài khoản chưa bị trừ tiền"),
    -329: ("the user cancelled the payment", "người dùng huỷ giao dịch thanh toán"),
    -401: ("illegal data request: the request data is invalid",
           "dữ liệu yêu cầu không hợp lệ"),
    -402: ("illegal app request: the app id or signature is not accepted",
           "ứng dụng hoặc chữ ký không hợp lệ"),
    -403: ("illegal signature request", "chữ ký yêu cầu không hợp lệ"),
    -405: ("illegal client request", "yêu cầu từ máy khách không hợp lệ"),
    406: ("illegal status", "trạng thái không hợp lệ"),
    -429: ("rate limit reached", "vượt giới hạn số yêu cầu"),
    -500: ("system error", "lỗi hệ thống"),
    -999: ("the system is under maintenance", "hệ thống đang bảo trì"),
}
#: The legacy generation's pending codes: its error list classes every positive code from 2 to
#: 48 as *pending* (the ones it names, and the gaps between them).
LEGACY_PENDING = tuple(range(2, 49))

#: Codes that only refuse a request for its own sake (the query, or a send before it ran).
_MAINTENANCE = (-33, -34, -35, -43, -88, -135, -999)
_SYSTEM_ERRORS = (-32, -301, -500)
_VALIDATION = (-401, -402, -403, -405)
#: Final failures of a payment: each proves nothing was charged.
_NOT_CHARGED = (-54, -63, -217, -322, -329)


def _class(operation: Operation, code: int) -> CodeClass:
    """What `code` proves on `operation` (the rule in this module's docstring)."""
    done = {Q: C.PAID, S: C.PAID, R: C.REFUNDED, RS: C.REFUNDED, B: C.OK, G: C.OK}[operation]
    if code == 1:
        return done
    if code == 3 or code in LEGACY_PENDING:
        return C.PROCESSING
    if operation in (Q, S) and code in _NOT_CHARGED:
        return C.NOT_CHARGED
    if code == -68:
        # the order exists already: query it (a refund id used by another refund refuses this
        # one; a hosted order: the one that exists is the one to show)
        return C.NOT_CHARGED if operation is R else C.PROCESSING if operation is not RS \
            else C.NO_INFORMATION
    if code == -101:
        return C.NOT_FOUND if operation in (Q, S) else C.NO_INFORMATION
    if operation in (Q, R, G) and (code in _VALIDATION or code == -92):
        return C.NOT_CHARGED  # refused before any order or refund existed
    if operation in (Q, R) and (code in _SYSTEM_ERRORS or code == -135):
        return C.MAY_HAVE_CHARGED
    return C.NO_INFORMATION


def _row(operation: Operation, code: int, sub: int | None, source: str,
         meaning_of: int | None = None) -> CodeRow:
    decides = sub if sub is not None else code
    english, vietnamese = MEANINGS.get(meaning_of if meaning_of is not None else decides,
                                       ("pending", "đang xử lý"))
    return CodeRow(operation, code, sub, _class(operation, decides), english, vietnamese, source)


def _v2_rows() -> Iterator[CodeRow]:
    queries = {S: ZLP_ORDER_QUERY, RS: ZLP_REFUND_QUERY}
    # The status queries: zlp.yaml's return codes, and its sub codes under FAIL (2).
    for operation, source in queries.items():
        for code in (1, 3, -500, -429, 406, -405, -403, -402, -401):
            yield _row(operation, code, None, source)
        for sub in (-32, -33, -34, -35, -43, -88, -101, -135, -301, -322, -329):
            yield _row(operation, 2, sub, source)
        for sub in (-401, -402, -429, -500, -999):
            yield _row(operation, 2, sub, STATUS_CODES)
    for sub in (-54, -63, -68, -92, -217):
        yield _row(S, 2, sub, STATUS_CODES)
    # The sends: the same general codes (ZaloPay's status-code page), with their own details.
    for operation in (Q, R):
        for code in (1, 3, -500, -429, -405, -403, -402, -401):
            yield _row(operation, code, None, STATUS_CODES)
        for sub in (-32, -33, -34, -35, -43, -68, -88, -92, -101, -135, -301, -401, -402,
                    -403, -405, -429, -500, -999):
            yield _row(operation, 2, sub, STATUS_CODES if sub not in (-32, -33, -34, -35, -43,
                                                                      -88, -135, -301)
                       else ZLP_ORDER_QUERY)
    for sub in (-54, -63, -217, -322, -329):
        yield _row(Q, 2, sub, STATUS_CODES if sub not in (-322, -329) else ZLP_ORDER_QUERY)
    yield _row(G, 1, None, ZLP_ORDER_CREATE)
    for sub in (-33, -68, -401, -402, -500):
        yield _row(G, 2, sub, ZLP_ORDER_CREATE)
    for sub in (-429, -999):
        yield _row(G, 2, sub, STATUS_CODES)
    yield _row(B, 1, None, STATUS_CODES)
    for code in (-401, -402, -429, -500, -999):
        yield _row(B, code, None, STATUS_CODES)


def _v001_rows() -> Iterator[CodeRow]:
    for operation in (Q, S, R, RS):
        yield _row(operation, 1, None, ERRORS_V1)
        for code in LEGACY_PENDING:
            yield _row(operation, code, None, ERRORS_V1)
        codes: tuple[int, ...] = (-68, -92, -101, -401, -402, -429, -500, -999)
        if operation in (Q, S):
            codes += _NOT_CHARGED
        for code in codes:
            yield _row(operation, code, None, ERRORS_V1)
    yield _row(G, 1, None, ERRORS_V1)
    for code in (-68, -401, -402, -429, -500, -999):
        yield _row(G, code, None, ERRORS_V1)
    yield _row(B, 1, None, ERRORS_V1)
    for code in (-401, -402, -429, -500, -999):
        yield _row(B, code, None, ERRORS_V1)


TABLES: dict[str, CodeTable] = {
    "v2": CodeTable("ZaloPay v2", _v2_rows()),
    "v001": CodeTable("ZaloPay v001", _v001_rows()),
}


def classify(generation: str, operation: Operation, return_code: int,
             sub_return_code: int | None) -> CodeRow:
    """The row of ZaloPay's table for this answer (a code it does not publish: no_information).
    The legacy generation has no sub code: its one code decides."""
    if generation == "v001":
        return TABLES["v001"].classify(operation, return_code, None)
    table = TABLES["v2"]
    row = table.classify(operation, return_code, sub_return_code)
    if not row.published and return_code < 0 and (sub_return_code or 0) >= 0:
        # a failure's detail sent as the return code itself: read it as the detail it is
        return table.classify(operation, 2, return_code)
    return row


#: The columns of docs/protocol.md's table, one per call.
_DOC_COLUMNS = (Q, S, R, RS, G, B)
_DOC_NAMES = {Q: "quick pay", S: "status", R: "refund", RS: "refund status", G: "hosted order",
              B: "bank list"}


def markdown_table() -> str:
    """docs/protocol.md's table of the codes, made from the rows (tests/wallet/test_code_table.py
    checks the page holds it): one line per generation and code, the class per call."""
    header = ("| generation | code | meaning | " + " | ".join(_DOC_NAMES[o] for o in _DOC_COLUMNS)
              + " | source |")
    lines = [header, "|" + "---|" * (len(_DOC_COLUMNS) + 4)]
    for generation, table in TABLES.items():
        by_code: dict[tuple[int, int | None], dict[Operation, CodeRow]] = {}
        for row in table:
            by_code.setdefault((row.code, row.sub_code), {})[row.operation] = row
        pending_done = False
        for (code, sub), rows in sorted(by_code.items(), key=lambda kv: (
                kv[0][0] < 0, abs(kv[0][0]), abs(kv[0][1] or 0))):
            if generation == "v001" and code in LEGACY_PENDING:
                if pending_done:
                    continue
                pending_done, shown = True, f"{LEGACY_PENDING[0]}..{LEGACY_PENDING[-1]}"
            else:
                shown = f"{code}" if sub is None else f"{code} / {sub}"
            first = next(iter(rows.values()))
            classes = " | ".join(rows[o].cls.value if o in rows else "" for o in _DOC_COLUMNS)
            sources = sorted({SHORT_SOURCES[r.source] for r in rows.values()})
            lines.append(f"| {generation} | {shown} | {first.meaning_en} | {classes} | "
                         f"{'; '.join(sources)} |")
    return "\n".join(lines) + "\n"


if __name__ == "__main__":  # python -m pos_terminal.wallets.zalopay.code_table: the docs' table
    print(markdown_table(), end="")
