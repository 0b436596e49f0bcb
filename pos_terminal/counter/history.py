"""`counter.history`: what the journal remembers, read and exported (the History screen,
`journal list/show/export`). Read-only: it goes through `HistoryJournal`, the journal's reading
methods this service uses, so a back office without a checkout has it too
(counter/office.py)."""

from __future__ import annotations

import builtins
from collections.abc import Callable, Collection, Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol, TextIO

from pos_terminal.journal import EventView, PaymentState, PaymentView, RefundState, RefundView
from pos_terminal.journal.export import (
    CSV_COLUMNS,
    REFUND_CSV_COLUMNS,
    write_csv,
    write_json,
    write_json_list,
    write_refunds_csv,
    write_refunds_json,
)


class HistoryJournal(Protocol):
    """The journal as the history reads it."""

    path: Path

    def get(self, app_trans_id: str) -> PaymentView: ...
    def events(self, app_trans_id: str) -> list[EventView]: ...
    def refunds(self, app_trans_id: str | None = ...) -> list[RefundView]: ...
    def list_payments(
        self, *, since_ms: int | None = ..., until_ms: int | None = ...,
        states: Collection[PaymentState] | None = ..., limit: int | None = ...,
        newest_first: bool = ..., provider: str | None = ...,
    ) -> list[PaymentView]: ...
    def iter_payments(
        self, *, since_ms: int | None = ..., until_ms: int | None = ...,
        states: Collection[PaymentState] | None = ..., limit: int | None = ...,
        newest_first: bool = ..., after: str | None = ..., provider: str | None = ...,
    ) -> Iterator[PaymentView]: ...
    def iter_refunds(
        self, *, since_ms: int | None = ..., until_ms: int | None = ...,
        states: Collection[RefundState] | None = ..., provider: str | None = ...,
    ) -> Iterator[RefundView]: ...


@dataclass(frozen=True)
class PaymentRecord:
    """One payment with its full history of events and its refunds."""

    payment: PaymentView
    events: list[EventView]
    refunds: list[RefundView]


class HistoryService:
    def __init__(self, journal: HistoryJournal) -> None:
        self._journal = journal

    @property
    def folder(self) -> Path:
        """The journal's folder (an export from the UI goes beside it)."""
        return self._journal.path.parent

    def list(self, *, since_ms: int | None = None, until_ms: int | None = None,
             states: Collection[PaymentState] | None = None, limit: int | None = None,
             newest_first: bool = False, provider: str | None = None) -> list[PaymentView]:
        """The payments created in [since_ms, until_ms) (a screenful: give a day or a
        limit), of one wallet `provider` (None: all)."""
        return self._journal.list_payments(since_ms=since_ms, until_ms=until_ms, states=states,
                                           limit=limit, newest_first=newest_first,
                                           provider=provider)

    def iter_payments(self, *, since_ms: int | None = None, until_ms: int | None = None,
                      states: Collection[PaymentState] | None = None,
                      limit: int | None = None, newest_first: bool = False,
                      after: str | None = None,
                      provider: str | None = None) -> Iterator[PaymentView]:
        """Like `list`, streamed; `after` a page's cursor (UnknownPayment if there is none)."""
        return self._journal.iter_payments(since_ms=since_ms, until_ms=until_ms, states=states,
                                           limit=limit, newest_first=newest_first, after=after,
                                           provider=provider)

    def iter_refunds(self, *, since_ms: int | None = None, until_ms: int | None = None,
                     states: Collection[RefundState] | None = None,
                     provider: str | None = None) -> Iterator[RefundView]:
        return self._journal.iter_refunds(since_ms=since_ms, until_ms=until_ms, states=states,
                                          provider=provider)

    def events(self, app_trans_id: str) -> builtins.list[EventView]:
        return self._journal.events(app_trans_id)

    def record(self, app_trans_id: str) -> PaymentRecord:
        """The payment, its events and its refunds (UnknownPayment when there is none)."""
        view = self._journal.get(app_trans_id)
        return PaymentRecord(view, self._journal.events(app_trans_id),
                             self._journal.refunds(app_trans_id))

    # ---------------------------------------------------------------- exports
    def export_csv(self, rows: Iterable[PaymentView], out: TextIO,
                   headers: Callable[[str], str] = str,
                   values: Callable[[str, object], object] | None = None) -> int:
        """CSV of `rows`; `headers` names each column and `values` writes each cell (e.g. in
        the cashier's language)."""
        if values is None:
            return write_csv(rows, out, [headers(c) for c in CSV_COLUMNS])
        return write_csv(rows, out, [headers(c) for c in CSV_COLUMNS], values)

    def export_refunds_csv(self, rows: Iterable[RefundView], out: TextIO,
                           headers: Callable[[str], str] = str,
                           values: Callable[[str, object], object] | None = None) -> int:
        if values is None:
            return write_refunds_csv(rows, out, [headers(c) for c in REFUND_CSV_COLUMNS])
        return write_refunds_csv(rows, out, [headers(c) for c in REFUND_CSV_COLUMNS], values)

    def export_json(self, rows: Iterable[PaymentView], out: TextIO) -> int:
        """{"payments": [...]}: each payment with its events and refunds."""
        return write_json(self._journal, rows, out)

    @staticmethod
    def export_refunds_json(rows: Iterable[RefundView], out: TextIO) -> int:
        return write_refunds_json(rows, out)

    @staticmethod
    def write_list(key: str, rows: Iterable[dict[str, object]], out: TextIO,
                   tail: Callable[[int], dict[str, object]] | None = None) -> int:
        """One JSON object {key: [rows...], **tail(count)}, written row by row."""
        return write_json_list(key, rows, out, tail)
