"""A wallet's published code table, and the one rule that reads an answer from it.

Each row says, for one operation and one code (and, where the provider details its codes, one
sub code), what the answer proves about the money: paid or refunded, certainly not charged,
still processing, nothing at all (the request was refused for its own sake), or a charge that may
have happened. Every row names its public source. A code the table does not hold says nothing
about the money: ``classify`` answers it as ``no_information``, never as a failure.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from enum import StrEnum


class CodeClass(StrEnum):
    """What an answer proves about the money it is about."""

    PAID = "paid"  # the payment is paid
    REFUNDED = "refunded"  # the refund is done
    OK = "ok"  # a call that moves no money (a bank list, a hosted order) succeeded
    NOT_CHARGED = "not_charged"  # final, and proves nothing moved
    PROCESSING = "processing"  # the order exists and is not settled: ask again
    NO_INFORMATION = "no_information"  # the request was refused for its own sake: says nothing
    MAY_HAVE_CHARGED = "may_have_charged"  # a send after which the charge may have happened
    NOT_FOUND = "not_found"  # no record of it (yet): final only once its grace period is over


class Operation(StrEnum):
    """The calls a provider answers with codes."""

    QUICK_PAY = "quick_pay"
    STATUS = "status"
    REFUND = "refund"
    REFUND_STATUS = "refund_status"
    BANK_LIST = "bank_list"
    GATEWAY_ORDER = "gateway_order"
    CAPTURE = "capture"
    CANCEL = "cancel"


@dataclass(frozen=True)
class CodeRow:
    """One published code: for `operation`, `code` (with `sub_code` when the provider details
    its codes, None for "any or none"), its class, its meaning in both languages, its source."""

    operation: Operation
    code: int
    sub_code: int | None
    cls: CodeClass
    meaning_en: str
    meaning_vi: str
    source: str

    @property
    def published(self) -> bool:
        """False for the row ``classify`` makes up for a code the table does not hold."""
        return self.source != UNLISTED_SOURCE


UNLISTED_SOURCE = "not in the provider's published table"


class CodeTable:
    """One provider generation's table: rows looked up by (operation, code, sub code)."""

    def __init__(self, provider: str, rows: Iterable[CodeRow]) -> None:
        self.provider = provider
        self._rows: dict[tuple[Operation, int, int | None], CodeRow] = {}
        for row in rows:
            key = (row.operation, row.code, row.sub_code)
            if key in self._rows:
                raise ValueError(f"{provider}: two rows for {key}")
            self._rows[key] = row

    def __iter__(self) -> Iterator[CodeRow]:
        return iter(self._rows.values())

    @property
    def rows(self) -> Mapping[tuple[Operation, int, int | None], CodeRow]:
        return self._rows

    def classify(self, operation: Operation, code: int, sub_code: int | None = None) -> CodeRow:
        """The row for this answer: the exact (code, sub code) row, else the code's row for any
        sub code, else a made-up ``no_information`` row (an unknown code proves nothing)."""
        exact = self._rows.get((operation, code, sub_code))
        if exact is not None:
            return exact
        if sub_code is not None:
            any_sub = self._rows.get((operation, code, None))
            if any_sub is not None:
                return any_sub
        return CodeRow(operation, code, sub_code, CodeClass.NO_INFORMATION,
                       "a code the provider does not publish for this call",
                       "mã không có trong bảng mã nhà cung cấp công bố cho lệnh này",
                       UNLISTED_SOURCE)
