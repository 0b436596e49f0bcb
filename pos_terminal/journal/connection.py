"""The journal's connections: one for writes behind a lock, and one for reads per thread; the
write transaction, reads, streamed reads, appended events and the row types. Every part of the
store (payments.py, refunds.py, leasing.py, day_reports.py, receipt_prints.py) builds on
`JournalBase`.

Reads never take a lock: a report or a reconcile pass reading on its thread's connection (a WAL
reader, a snapshot of the last commit) never makes a payment wait, in this process or in another
one.
"""

from __future__ import annotations

import sqlite3
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager, suppress
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Self, TypeVar

from pos_terminal.base.reasons import Reason, stored
from pos_terminal.journal.errors import (
    JournalError,
    JournalUnavailable,
    UnknownPayment,
    UnknownRefund,
    unavailable_from,
)
from pos_terminal.journal.states import PaymentState, RefundState
from pos_terminal.journal.views import EventView, PaymentView, RefundView

_UNSET: Any = object()
T = TypeVar("T")


def now_ms() -> int:
    return time.time_ns() // 1_000_000


_PAYMENT_COLUMNS = (
    "app_trans_id, state, amount, description, return_code, message, service_message, "
    "provider_trans_id, code_last4, created_ms, updated_ms, polls, refunded_amount, "
    "needs_review, kind, generation, sub_return_code, submitted_ms, order_url, qr_code, "
    "items_json, z_number, late, cashier_id, abandoned, sale_ref, provider"
)
_REFUND_COLUMNS = (
    "m_refund_id, app_trans_id, amount, description, state, return_code, sub_return_code, message, "
    "service_message, refund_id, request_ms, created_ms, updated_ms, needs_review, z_number, "
    "cashier_id, auto, authorised_by, refund_ref, provider"
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
        abandoned=bool(row[24]), sale_ref=row[25], provider=row[26],
    )


def _refund(row: Sequence[Any]) -> RefundView:
    return RefundView(
        m_refund_id=row[0], app_trans_id=row[1], amount=row[2], description=row[3],
        state=RefundState(row[4]), return_code=row[5], sub_return_code=row[6],
        why=Reason.loads(row[7]),
        service_message=row[8], refund_id=row[9], request_ms=row[10], created_ms=row[11],
        updated_ms=row[12], needs_review=bool(row[13]), z_number=row[14], cashier_id=row[15],
        auto=bool(row[16]), authorised_by=row[17], refund_ref=row[18], provider=row[19],
    )


def _event(row: Sequence[Any]) -> EventView:
    return EventView(
        id=row[0], app_trans_id=row[1], m_refund_id=row[2], time_ms=row[3], kind=row[4],
        from_state=row[5], to_state=row[6], return_code=row[7], sub_return_code=row[8],
        why=Reason.loads(row[9]), reason=row[10], who=row[11], cashier_id=row[12],
    )


def read_connection(path: Path, busy_timeout_s: float = 5.0) -> sqlite3.Connection:
    """A connection that only reads (query_only): a WAL reader of the journal at `path`."""
    conn = sqlite3.connect(f"file:{path}?mode=rw", uri=True, timeout=busy_timeout_s,
                           isolation_level=None, check_same_thread=False)
    conn.execute("PRAGMA query_only=1")
    return conn


@dataclass(frozen=True)
class _Reader:
    """One thread's read connection, and the lock its reads hold: `close` waits for it."""

    thread: threading.Thread
    conn: sqlite3.Connection
    lock: threading.RLock = field(default_factory=threading.RLock)


class JournalBase:
    """Thread-safe (a write connection behind a lock, a read connection per thread); several
    processes may share the file."""

    def __init__(
        self,
        conn: sqlite3.Connection,
        path: Path,
        secret: bytes,
        clock: Callable[[], int] = now_ms,
        busy_timeout_s: float = 5.0,
    ) -> None:
        self._conn = conn
        self.path = path
        self.busy_timeout_s = busy_timeout_s
        self._secret = secret
        self._clock = clock
        self._lock = threading.RLock()
        self._bulk = False
        # one read connection per thread: a report read by the UI's background pass never
        # makes the payment's thread wait for it, not even for a read
        self._readers = threading.local()
        self._reader_conns: list[_Reader] = []
        self._readers_lock = threading.Lock()
        self._closed = False
        self._reader()  # the first one now: a file that cannot be read fails the open

    def _reader(self) -> _Reader:
        """This thread's read connection (made on its first read; those of threads that have
        ended are closed meanwhile: the UI runs each background pass in a new thread)."""
        reader: _Reader | None = getattr(self._readers, "reader", None)
        if reader is None:
            reader = _Reader(threading.current_thread(),
                             read_connection(self.path, self.busy_timeout_s))
            with self._readers_lock:
                if self._closed:
                    reader.conn.close()
                    raise self._closed_error()
                for old in self._reader_conns:
                    if not old.thread.is_alive():
                        old.conn.close()
                self._reader_conns = [r for r in self._reader_conns if r.thread.is_alive()]
                self._reader_conns.append(reader)
            self._readers.reader = reader
        return reader

    def _closed_error(self) -> JournalUnavailable:
        return JournalUnavailable(
            f"The payment journal {self.path} was closed: the terminal is shutting down.",
            "closed")

    def close(self) -> None:
        """Close every connection. A read or write under way on another thread (a payment
        still followed when the terminal quits) ends first: SQLite's connection is not to be
        closed under a statement running on it, which crashes the process; that thread's next
        read or write says the journal was closed."""
        with self._readers_lock:
            self._closed = True
            readers, self._reader_conns = self._reader_conns, []
        for reader in readers:
            with reader.lock:
                reader.conn.close()
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
        """One durable write transaction; any storage failure becomes JournalUnavailable.
        Inside `bulk()`, a savepoint of the bulk's transaction."""
        begin, commit, rollback = (
            ("SAVEPOINT tx", "RELEASE tx", "ROLLBACK TO tx; RELEASE tx") if self._bulk
            else ("BEGIN IMMEDIATE", "COMMIT", "ROLLBACK"))
        with self._lock:
            if self._closed:
                raise self._closed_error()
            conn = self._conn
            try:
                conn.execute(begin)
            except sqlite3.Error as exc:
                raise unavailable_from(exc, self.path) from exc
            try:
                yield conn
                conn.execute(commit)
            except BaseException as exc:
                with suppress(sqlite3.Error):
                    for statement in rollback.split("; "):
                        conn.execute(statement)
                if isinstance(exc, sqlite3.IntegrityError):
                    raise JournalError(f"The journal refused the change: {exc}") from exc
                if isinstance(exc, sqlite3.Error):
                    raise unavailable_from(exc, self.path) from exc
                raise

    @contextmanager
    def bulk(self) -> Iterator[None]:
        """Many changes in one durable transaction (an import, or growing a journal for a
        benchmark): each change keeps its own all-or-nothing savepoint; nothing is visible to
        other connections, nor durable, before the end. Payments of other processes wait."""
        with self._tx():
            self._bulk = True
            try:
                yield
            finally:
                self._bulk = False

    def _read(self, sql: str, args: Sequence[Any] = ()) -> list[Any]:
        return self._reading(lambda conn: conn.execute(sql, tuple(args)).fetchall())

    def _stream(self, sql: str, args: Sequence[Any] = (), batch: int = 500) -> Iterator[Any]:
        """The rows of one query, a batch at a time, from one snapshot, on a connection of
        their own (never all rows in memory; no lock held while the caller works)."""
        try:
            conn = read_connection(self.path, self.busy_timeout_s)
        except sqlite3.Error as exc:
            raise unavailable_from(exc, self.path) from exc
        try:
            conn.execute("BEGIN")
            cursor = conn.execute(sql, tuple(args))
            while rows := cursor.fetchmany(batch):
                yield from rows
            conn.execute("COMMIT")
        except sqlite3.Error as exc:
            raise unavailable_from(exc, self.path) from exc
        finally:
            conn.close()

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
        """`read` on this thread's read connection, in one read transaction (one snapshot of
        the last commit, no lock shared with any other thread); storage failures become
        JournalUnavailable."""
        try:
            reader = self._reader()
        except sqlite3.Error as exc:
            raise unavailable_from(exc, self.path) from exc
        with reader.lock:
            if self._closed:
                raise self._closed_error()
            conn = reader.conn
            try:
                conn.execute("BEGIN")
                try:
                    return read(conn)
                finally:
                    conn.execute("COMMIT")
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
