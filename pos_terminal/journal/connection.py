"""The journal's connection: one SQLite connection behind a lock, the write transaction, reads,
appended events and the row types. Every part of the store (payments.py, refunds.py,
leasing.py, day_reports.py, receipt_prints.py) builds on `JournalBase`.
"""

from __future__ import annotations

import sqlite3
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager, suppress
from pathlib import Path
from typing import Any, Self, TypeVar

from pos_terminal.base.money import format_vnd
from pos_terminal.base.reasons import Reason, stored
from pos_terminal.journal.errors import (
    JournalError,
    UnknownPayment,
    UnknownRefund,
    unavailable_from,
)
from pos_terminal.journal.states import PaymentState
from pos_terminal.journal.views import EventView, PaymentView, RefundView

_UNSET: Any = object()
T = TypeVar("T")


def now_ms() -> int:
    return time.time_ns() // 1_000_000


def vnd(amount: int) -> str:
    """An amount as every message shows it: "25.000 ₫" (pos_terminal.base.money)."""
    return format_vnd(amount)


_PAYMENT_COLUMNS = (
    "app_trans_id, state, amount, description, return_code, message, service_message, "
    "zp_trans_id, code_last4, created_ms, updated_ms, polls, refunded_amount, needs_review, kind, "
    "generation, sub_return_code, submitted_ms, order_url, qr_code, items_json, z_number, late, "
    "cashier_id, abandoned"
)
_REFUND_COLUMNS = (
    "m_refund_id, app_trans_id, amount, description, state, return_code, sub_return_code, message, "
    "service_message, refund_id, request_ms, created_ms, updated_ms, needs_review, z_number, "
    "cashier_id, auto, authorised_by"
)
_EVENT_COLUMNS = (
    "id, app_trans_id, m_refund_id, time_ms, kind, from_state, to_state, return_code, "
    "sub_return_code, message, reason, who, cashier_id"
)


def _payment(row: Sequence[Any]) -> PaymentView:
    return PaymentView(
        app_trans_id=row[0], state=PaymentState(row[1]), amount=row[2], description=row[3],
        return_code=row[4], why=Reason.loads(row[5]), service_message=row[6], zp_trans_id=row[7],
        code_last4=row[8], created_ms=row[9], updated_ms=row[10], polls=row[11],
        refunded_amount=row[12], needs_review=bool(row[13]), kind=row[14], generation=row[15],
        sub_return_code=row[16], submitted_ms=row[17], order_url=row[18], qr_code=row[19],
        items_json=row[20], z_number=row[21], late=bool(row[22]), cashier_id=row[23],
        abandoned=bool(row[24]),
    )


def _refund(row: Sequence[Any]) -> RefundView:
    return RefundView(
        m_refund_id=row[0], app_trans_id=row[1], amount=row[2], description=row[3],
        state=PaymentState(row[4]), return_code=row[5], sub_return_code=row[6],
        why=Reason.loads(row[7]),
        service_message=row[8], refund_id=row[9], request_ms=row[10], created_ms=row[11],
        updated_ms=row[12], needs_review=bool(row[13]), z_number=row[14], cashier_id=row[15],
        auto=bool(row[16]), authorised_by=row[17],
    )


def _event(row: Sequence[Any]) -> EventView:
    return EventView(
        id=row[0], app_trans_id=row[1], m_refund_id=row[2], time_ms=row[3], kind=row[4],
        from_state=row[5], to_state=row[6], return_code=row[7], sub_return_code=row[8],
        why=Reason.loads(row[9]), reason=row[10], who=row[11], cashier_id=row[12],
    )


class JournalBase:
    """Thread-safe (one connection behind a lock); several processes may share the file."""

    def __init__(
        self,
        conn: sqlite3.Connection,
        path: Path,
        secret: bytes,
        clock: Callable[[], int] = now_ms,
    ) -> None:
        self._conn = conn
        self.path = path
        self._secret = secret
        self._clock = clock
        self._lock = threading.RLock()

    def close(self) -> None:
        with self._lock:
            self._conn.close()

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    @property
    def schema_version(self) -> int:
        with self._lock:
            return int(self._conn.execute("PRAGMA user_version").fetchone()[0])

    def now(self) -> int:
        return self._clock()

    @contextmanager
    def _tx(self) -> Iterator[sqlite3.Connection]:
        """One durable write transaction; any storage failure becomes JournalUnavailable."""
        with self._lock:
            conn = self._conn
            try:
                conn.execute("BEGIN IMMEDIATE")
            except sqlite3.Error as exc:
                raise unavailable_from(exc, self.path) from exc
            try:
                yield conn
                conn.execute("COMMIT")
            except BaseException as exc:
                with suppress(sqlite3.Error):
                    conn.execute("ROLLBACK")
                if isinstance(exc, sqlite3.IntegrityError):
                    raise JournalError(f"The journal refused the change: {exc}") from exc
                if isinstance(exc, sqlite3.Error):
                    raise unavailable_from(exc, self.path) from exc
                raise

    def _read(self, sql: str, args: Sequence[Any] = ()) -> list[Any]:
        with self._lock:
            try:
                return self._conn.execute(sql, tuple(args)).fetchall()
            except sqlite3.Error as exc:
                raise unavailable_from(exc, self.path) from exc

    @staticmethod
    def _append_event(
        conn: sqlite3.Connection,
        *,
        app_trans_id: str,
        time_ms: int,
        kind: str,
        from_state: str | None,
        to_state: str,
        return_code: int | None = None,
        sub_return_code: int | None = None,
        message: Reason | str = "",
        m_refund_id: str | None = None,
        reason: str | None = None,
        who: str | None = None,
        cashier_id: str | None = None,
    ) -> None:
        conn.execute(
            "INSERT INTO events(app_trans_id, m_refund_id, time_ms, kind, from_state, to_state, "
            "return_code, sub_return_code, message, reason, who, cashier_id) "
            "VALUES (?,?,?,?,?,?,?,?,?,?,?,?)",
            (app_trans_id, m_refund_id, time_ms, kind, from_state, to_state, return_code,
             sub_return_code, stored(message), reason, who, cashier_id),
        )

    def _reading(self, read: Callable[[sqlite3.Connection], T]) -> T:
        """`read` on the connection outside a write transaction; storage failures become
        JournalUnavailable."""
        with self._lock:
            try:
                return read(self._conn)
            except sqlite3.Error as exc:
                raise unavailable_from(exc, self.path) from exc

    def _get_in(self, conn: sqlite3.Connection, app_trans_id: str) -> PaymentView:
        row = conn.execute(
            f"SELECT {_PAYMENT_COLUMNS} FROM payments WHERE app_trans_id=?",  # noqa: S608
            (app_trans_id,),
        ).fetchone()
        if row is None:
            raise UnknownPayment(app_trans_id)
        return _payment(row)

    def _get_refund_in(self, conn: sqlite3.Connection, m_refund_id: str) -> RefundView:
        sql = f"SELECT {_REFUND_COLUMNS} FROM refunds WHERE m_refund_id=?"  # noqa: S608
        row = conn.execute(sql, (m_refund_id,)).fetchone()
        if row is None:
            raise UnknownRefund(m_refund_id)
        return _refund(row)
