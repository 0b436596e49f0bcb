"""The durable payment journal: one SQLite file, WAL, synchronous=FULL.

Every state change is one `BEGIN IMMEDIATE ... COMMIT` holding both the row update and its
appended event, so after a crash the file shows either the old state or the new state with its
event, never one without the other. The raw payment code never reaches this module's storage:
only an HMAC-SHA256 fingerprint keyed by a random per-journal secret, and its last 4 characters.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import os
import secrets
import sqlite3
import threading
import time
from collections.abc import Callable, Collection, Iterator, Sequence
from contextlib import contextmanager, suppress
from pathlib import Path
from typing import Any

from pos_terminal.base.money import format_vnd
from pos_terminal.journal import lease
from pos_terminal.journal.errors import (
    CodeClaimed,
    IllegalTransition,
    JournalCorrupt,
    JournalError,
    JournalUnavailable,
    RefundNotAllowed,
    UnknownPayment,
    UnknownRefund,
    unavailable_from,
)
from pos_terminal.journal.reports import (
    GroupTotals,
    Report,
    compute_report,
    grouped_report,
    stored_z_report,
)
from pos_terminal.journal.schema import MIGRATIONS, SCHEMA_VERSION
from pos_terminal.journal.states import (
    FINAL_STATES,
    OVERRIDE_TARGETS,
    PENDING_STATES,
    PaymentState,
    can_move,
)
from pos_terminal.journal.views import EventView, PaymentView, RefundView

_UNSET: Any = object()


def now_ms() -> int:
    return time.time_ns() // 1_000_000


#: A code shorter than this keeps no characters at all: its last 4 would be most of it.
MIN_CODE_FOR_LAST4 = 8


def code_last4(code: str) -> str | None:
    """The last 4 characters of a payment code, or None for a code shorter than 8 (whose last
    4 would reveal too much of it)."""
    return code[-4:] if len(code) >= MIN_CODE_FOR_LAST4 else None


def vnd(amount: int) -> str:
    """An amount as every message shows it: "25.000 ₫" (pos_terminal.base.money)."""
    return format_vnd(amount)


_PAYMENT_COLUMNS = (
    "app_trans_id, state, amount, description, return_code, message, service_message, "
    "zp_trans_id, code_last4, created_ms, updated_ms, polls, refunded_amount, needs_review, kind, "
    "generation, sub_return_code, submitted_ms, order_url, qr_code, items_json, z_number, late, "
    "cashier_id"
)
_REFUND_COLUMNS = (
    "m_refund_id, app_trans_id, amount, description, state, return_code, sub_return_code, message, "
    "service_message, refund_id, request_ms, created_ms, updated_ms, needs_review, z_number, "
    "cashier_id"
)
_EVENT_COLUMNS = (
    "id, app_trans_id, m_refund_id, time_ms, kind, from_state, to_state, return_code, "
    "sub_return_code, message, reason, who, cashier_id"
)


def _payment(row: Sequence[Any]) -> PaymentView:
    return PaymentView(
        app_trans_id=row[0], state=PaymentState(row[1]), amount=row[2], description=row[3],
        return_code=row[4], message=row[5], service_message=row[6], zp_trans_id=row[7],
        code_last4=row[8], created_ms=row[9], updated_ms=row[10], polls=row[11],
        refunded_amount=row[12], needs_review=bool(row[13]), kind=row[14], generation=row[15],
        sub_return_code=row[16], submitted_ms=row[17], order_url=row[18], qr_code=row[19],
        items_json=row[20], z_number=row[21], late=bool(row[22]), cashier_id=row[23],
    )


def _refund(row: Sequence[Any]) -> RefundView:
    return RefundView(
        m_refund_id=row[0], app_trans_id=row[1], amount=row[2], description=row[3],
        state=PaymentState(row[4]), return_code=row[5], sub_return_code=row[6], message=row[7],
        service_message=row[8], refund_id=row[9], request_ms=row[10], created_ms=row[11],
        updated_ms=row[12], needs_review=bool(row[13]), z_number=row[14], cashier_id=row[15],
    )


def _event(row: Sequence[Any]) -> EventView:
    return EventView(*row)


class Journal:
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

    # ---------------------------------------------------------------- opening
    @classmethod
    def open(
        cls,
        path: Path | str,
        *,
        busy_timeout_s: float = 5.0,
        clock: Callable[[], int] = now_ms,
    ) -> Journal:
        """Open (creating or migrating) the journal at `path`.

        Raises JournalUnavailable when the file cannot be opened or written, JournalCorrupt when it
        is not a journal this version understands.
        """
        p = Path(path).expanduser()
        try:
            _create_private(p)
            conn = sqlite3.connect(
                str(p), timeout=busy_timeout_s, isolation_level=None, check_same_thread=False
            )
        except (sqlite3.Error, OSError) as exc:
            raise unavailable_from(exc, p) from exc
        try:
            mode = conn.execute("PRAGMA journal_mode=WAL").fetchone()[0]
            # Two processes creating the journal at once: the switch to WAL needs the file to
            # itself, so the loser sees the old mode for a moment. Try again for a while.
            deadline = time.monotonic() + min(busy_timeout_s, 5.0)
            while str(mode).lower() != "wal" and time.monotonic() < deadline:
                time.sleep(0.05)
                mode = conn.execute("PRAGMA journal_mode=WAL").fetchone()[0]
            if str(mode).lower() != "wal":
                raise JournalUnavailable(
                    f"The payment journal {p} cannot use write-ahead logging (mode {mode!r}). "
                    "New payments are stopped so that nothing is charged without a record. "
                    "Put the journal on a local disk.",
                    "no-wal",
                )
            conn.execute("PRAGMA synchronous=FULL")
            conn.execute("PRAGMA foreign_keys=ON")
            secret = cls._migrate(conn, p)
        except sqlite3.DatabaseError as exc:
            conn.close()
            if "not a database" in str(exc) or "malformed" in str(exc):
                raise JournalCorrupt(
                    f"{p} is not a pos-terminal journal or is damaged ({exc}). Move it aside and "
                    "keep it for inspection; a new journal will be created at this path."
                ) from exc
            raise unavailable_from(exc, p) from exc
        except JournalError:
            conn.close()
            raise
        return cls(conn, p, secret, clock)

    @staticmethod
    def _migrate(conn: sqlite3.Connection, path: Path) -> bytes:
        version = conn.execute("PRAGMA user_version").fetchone()[0]
        if version > SCHEMA_VERSION:
            raise JournalCorrupt(
                f"The journal {path} has schema version {version}, newer than this pos-terminal "
                f"understands ({SCHEMA_VERSION}). Upgrade pos-terminal to read it."
            )
        if version < SCHEMA_VERSION:
            conn.execute("BEGIN IMMEDIATE")
            try:
                # Another process may have migrated while we waited for the write lock.
                version = conn.execute("PRAGMA user_version").fetchone()[0]
                for number in range(version, SCHEMA_VERSION):
                    for statement in _split_sql(MIGRATIONS[number]):
                        conn.execute(statement)
                    conn.execute(f"PRAGMA user_version={number + 1}")
                if version == 0:
                    conn.execute(
                        "INSERT INTO meta(key, value) VALUES ('fingerprint_secret', ?)",
                        (secrets.token_bytes(32),),
                    )
                    conn.execute(
                        "INSERT INTO meta(key, value) VALUES ('created_ms', ?)", (now_ms(),)
                    )
                conn.execute("COMMIT")
            except BaseException:
                conn.execute("ROLLBACK")
                raise
        row = conn.execute("SELECT value FROM meta WHERE key='fingerprint_secret'").fetchone()
        if row is None or not isinstance(row[0], bytes):
            raise JournalCorrupt(f"The journal {path} has lost its fingerprint secret.")
        return bytes(row[0])

    def close(self) -> None:
        with self._lock:
            self._conn.close()

    def __enter__(self) -> Journal:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    @property
    def schema_version(self) -> int:
        with self._lock:
            return int(self._conn.execute("PRAGMA user_version").fetchone()[0])

    def now(self) -> int:
        return self._clock()

    # ---------------------------------------------------------------- plumbing
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
        message: str = "",
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
             sub_return_code, message, reason, who, cashier_id),
        )

    def _get_in(self, conn: sqlite3.Connection, app_trans_id: str) -> PaymentView:
        row = conn.execute(
            f"SELECT {_PAYMENT_COLUMNS} FROM payments WHERE app_trans_id=?",  # noqa: S608
            (app_trans_id,),
        ).fetchone()
        if row is None:
            raise UnknownPayment(app_trans_id)
        return _payment(row)

    # ---------------------------------------------------------------- codes
    def fingerprint(self, code: str) -> str:
        """Keyed fingerprint of a payment code: equal codes match, the code cannot be recovered."""
        return hmac.new(self._secret, code.encode("utf-8"), hashlib.sha256).hexdigest()

    def payments_with_code(self, code: str) -> list[PaymentView]:
        rows = self._read(
            f"SELECT {_PAYMENT_COLUMNS} FROM payments WHERE code_fingerprint=? "  # noqa: S608
            "ORDER BY created_ms DESC",
            (self.fingerprint(code),),
        )
        return [_payment(r) for r in rows]

    # ---------------------------------------------------------------- payments
    def record_intent(
        self,
        *,
        app_trans_id: str,
        amount: int,
        generation: str,
        kind: str = "quick_pay",
        description: str = "",
        items: Sequence[Any] = (),
        payment_code: str | None = None,
        payload_hash: str | None = None,
        message: str = "",
        now: int | None = None,
        lease_ttl_ms: int | None = None,
        code_window_ms: float | None = None,
        cashier_id: str | None = None,
    ) -> PaymentView:
        """Commit the intent (NEW -> SUBMITTING) before anything is sent.

        With `lease_ttl_ms`, this process takes the row's lease (it alone may send it). With
        `code_window_ms`, the payment code is claimed in the same write transaction: a code
        already charged, or belonging to an unresolved payment, raises CodeClaimed and nothing is
        written, so two processes can never both record (and send) the same code.
        `cashier_id` is who took the payment (None: no cashier signed in).
        """
        t = self._clock() if now is None else now
        fp = self.fingerprint(payment_code) if payment_code is not None else None
        last4 = code_last4(payment_code) if payment_code is not None else None
        items_json = json.dumps(list(items), ensure_ascii=False, separators=(",", ":"))
        with self._tx() as conn:
            if fp is not None and code_window_ms is not None:
                self._claim_code_in(conn, fp, t, code_window_ms)
            conn.execute(
                "INSERT INTO payments(app_trans_id, kind, generation, state, amount, description, "
                "items_json, code_fingerprint, code_last4, payload_hash, message, created_ms, "
                "submitted_ms, updated_ms, cashier_id) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)",
                (app_trans_id, kind, generation, PaymentState.SUBMITTING.value, amount,
                 description, items_json, fp, last4, payload_hash, message, t, t, t, cashier_id),
            )
            if lease_ttl_ms is not None:
                self._take_lease_in(conn, "payments", app_trans_id, lease_ttl_ms)
            self._append_event(
                conn, app_trans_id=app_trans_id, time_ms=t, kind="transition",
                from_state=PaymentState.NEW.value, to_state=PaymentState.SUBMITTING.value,
                message=message, cashier_id=cashier_id,
            )
            return self._get_in(conn, app_trans_id)

    @staticmethod
    def _claim_code_in(conn: sqlite3.Connection, fp: str, now: int, window_ms: float) -> None:
        rows = conn.execute(
            "SELECT app_trans_id, state, created_ms FROM payments WHERE code_fingerprint=? "
            "ORDER BY created_ms DESC",
            (fp,),
        ).fetchall()
        for app_trans_id, state, created_ms in rows:
            st = PaymentState(state)
            if st in (PaymentState.SUCCEEDED, PaymentState.REFUNDED):
                raise CodeClaimed("charged", app_trans_id)
            if st in PENDING_STATES:
                reason = "in_flight" if now - created_ms <= window_ms else "unresolved"
                raise CodeClaimed(reason, app_trans_id)

    # ---------------------------------------------------------------- leases
    @staticmethod
    def _subject(table: str, value: str) -> str:
        return f"{'payment' if table == 'payments' else 'refund'}:{value}"

    def _take_lease_in(self, conn: sqlite3.Connection, table: str, value: str,
                       ttl_ms: int) -> None:
        conn.execute(
            "INSERT INTO leases(subject, owner, until_mono_ms) VALUES (?,?,?)",
            (self._subject(table, value), lease.me().owner, lease.mono_ms() + ttl_ms),
        )

    def _lease_row(self, conn: sqlite3.Connection, table: str, _key: str,
                   value: str) -> tuple[Any, ...]:
        row = conn.execute(
            "SELECT owner, until_mono_ms, quiet_boot_id, quiet_mono_ms FROM leases "
            "WHERE subject=?",
            (self._subject(table, value),),
        ).fetchone()
        return (None, None, None, None) if row is None else tuple(row)

    def _claim_send_in(self, conn: sqlite3.Connection, table: str, key: str, value: str,
                       ttl_ms: int) -> bool:
        owner = self._lease_row(conn, table, key, value)[0]
        if owner != lease.me().owner:
            return False
        conn.execute(
            "UPDATE leases SET until_mono_ms=? WHERE subject=?",
            (lease.mono_ms() + ttl_ms, self._subject(table, value)),
        )
        return True

    def _release_in(self, conn: sqlite3.Connection, table: str, _key: str, value: str) -> None:
        """The owner's sending is over: release its lease and stamp when it went quiet."""
        here = lease.me()
        conn.execute(
            "UPDATE leases SET owner=NULL, quiet_boot_id=?, quiet_mono_ms=? "
            "WHERE subject=? AND owner=?",
            (here.boot_id, lease.mono_ms(), self._subject(table, value), here.owner),
        )

    def _quiet_for_in(self, conn: sqlite3.Connection, table: str, key: str,
                      value: str) -> float | None:
        """Seconds since the row's sending provably went quiet, on this boot's monotonic clock;
        None while a lease may be live. A lease that ended without a release this process can
        time (its owner died, the machine rebooted; or a row from before leases) is stamped
        quiet now: the grace starts here."""
        owner, until, quiet_boot, quiet_mono = self._lease_row(conn, table, key, value)
        if owner is not None and lease.lease_live(owner, until):
            return None
        here = lease.me()
        now = lease.mono_ms()
        if owner is not None or quiet_boot != here.boot_id or quiet_mono is None:
            conn.execute(
                "INSERT INTO leases(subject, owner, until_mono_ms, quiet_boot_id, quiet_mono_ms) "
                "VALUES (?, NULL, NULL, ?, ?) ON CONFLICT(subject) DO UPDATE SET owner=NULL, "
                "quiet_boot_id=excluded.quiet_boot_id, quiet_mono_ms=excluded.quiet_mono_ms",
                (self._subject(table, value), here.boot_id, now),
            )
            quiet_mono = now
        return (now - int(quiet_mono)) / 1000

    def claim_send(self, app_trans_id: str, ttl_ms: int) -> bool:
        """Just before sending: True (lease renewed) if this process still owns the payment's
        lease and the row still waits for its send; False: do not send."""
        with self._tx() as conn:
            current = self._get_in(conn, app_trans_id)
            # UNKNOWN too: another process may have marked the row "no answer yet" meanwhile.
            if current.state not in (PaymentState.SUBMITTING, PaymentState.UNKNOWN):
                return False
            return self._claim_send_in(conn, "payments", "app_trans_id", app_trans_id, ttl_ms)

    def release(self, app_trans_id: str) -> None:
        with self._tx() as conn:
            self._release_in(conn, "payments", "app_trans_id", app_trans_id)

    def conclude_never_arrived(
        self, app_trans_id: str, *, grace_s: float, message: str,
        return_code: int | None = None, sub_return_code: int | None = None,
        service_message: str = "", count_poll: bool = False,
    ) -> tuple[PaymentView, str]:
        """"Order not found": FAILED only if no lease can be live and the sending has been quiet
        for `grace_s` (monotonic). Returns the row and "failed", "owner_live" or "grace"."""
        with self._tx() as conn:
            current = self._get_in(conn, app_trans_id)
            if current.state not in PENDING_STATES:
                return current, current.state.value
            quiet = self._quiet_for_in(conn, "payments", "app_trans_id", app_trans_id)
            if quiet is None:
                return current, "owner_live"
            if not quiet >= grace_s:
                return current, "grace"
            view = self._transition_in(
                conn, app_trans_id, PaymentState.FAILED, message=message,
                return_code=return_code, sub_return_code=sub_return_code,
                service_message=service_message, zp_trans_id=_UNSET, order_url=_UNSET,
                qr_code=_UNSET, count_poll=count_poll, allowed_from=PENDING_STATES,
                release=False,
            )
            return view, "failed"

    def record_late_success(
        self, app_trans_id: str, *, message: str, return_code: int | None,
        sub_return_code: int | None, service_message: str, zp_trans_id: str | None,
    ) -> PaymentView:
        """A success for a payment already concluded FAILED: SUCCEEDED with the `late` flag and
        its own event (the only move out of FAILED the journal allows)."""
        t = self._clock()
        with self._tx() as conn:
            current = self._get_in(conn, app_trans_id)
            if current.state is not PaymentState.FAILED or current.late:
                return current
            conn.execute(
                "UPDATE payments SET state='succeeded', late=1, needs_review=0, message=?, "
                "return_code=?, sub_return_code=?, service_message=?, zp_trans_id=?, "
                "updated_ms=? WHERE app_trans_id=?",
                (message, return_code, sub_return_code, service_message, zp_trans_id, t,
                 app_trans_id),
            )
            self._append_event(
                conn, app_trans_id=app_trans_id, time_ms=t, kind="transition",
                from_state="failed", to_state="succeeded", return_code=return_code,
                sub_return_code=sub_return_code, message=message,
                reason="late success: charged after the terminal had concluded failed",
                who="wallet service",
            )
            return self._get_in(conn, app_trans_id)

    def flag_answer(
        self, app_trans_id: str, message: str, *, return_code: int | None = None,
        sub_return_code: int | None = None, service_message: str = "",
        zp_trans_id: str | None = None,
    ) -> PaymentView:
        """An answer that does not fit its order: needs review (a human decides), never paid.
        A pending row becomes (or stays) UNKNOWN; a final row keeps its state."""
        t = self._clock()
        with self._tx() as conn:
            current = self._get_in(conn, app_trans_id)
            to = current.state
            if to is PaymentState.SUBMITTING:
                to = PaymentState.UNKNOWN
            conn.execute(
                "UPDATE payments SET state=?, needs_review=1, message=?, return_code=?, "
                "sub_return_code=?, service_message=?, "
                "zp_trans_id=coalesce(zp_trans_id, ?), updated_ms=? WHERE app_trans_id=?",
                (to.value, message, return_code, sub_return_code, service_message, zp_trans_id,
                 t, app_trans_id),
            )
            self._release_in(conn, "payments", "app_trans_id", app_trans_id)
            self._append_event(
                conn, app_trans_id=app_trans_id, time_ms=t, kind="review",
                from_state=current.state.value, to_state=to.value, return_code=return_code,
                sub_return_code=sub_return_code, message=message,
            )
            return self._get_in(conn, app_trans_id)

    def never_arrived_since(self, since_ms: int) -> list[PaymentView]:
        """Payments concluded FAILED by "order not found" since `since_ms` (wall clock: only
        which rows to check again, never a verdict), oldest first."""
        rows = self._read(
            f"SELECT {_PAYMENT_COLUMNS} FROM payments WHERE state='failed' AND late=0 "  # noqa: S608
            "AND (return_code=-101 OR sub_return_code=-101) AND updated_ms>=? "
            "ORDER BY created_ms",
            (since_ms,),
        )
        return [_payment(r) for r in rows]

    # ---------------------------------------------------------------- transitions
    def transition(
        self,
        app_trans_id: str,
        to_state: PaymentState,
        *,
        message: str,
        return_code: int | None = _UNSET,
        sub_return_code: int | None = _UNSET,
        service_message: str = _UNSET,
        zp_trans_id: str | None = _UNSET,
        order_url: str | None = _UNSET,
        qr_code: str | None = _UNSET,
        count_poll: bool = False,
        allowed_from: Collection[PaymentState] | None = None,
        release: bool = False,
    ) -> PaymentView:
        """Move a payment to `to_state` with its event, or refresh it when already there.

        Staying in the same state updates the row (codes, message, poll count) without an event.
        A move the state machine forbids raises IllegalTransition and changes nothing.
        """
        with self._tx() as conn:
            return self._transition_in(
                conn, app_trans_id, to_state, message=message, return_code=return_code,
                sub_return_code=sub_return_code, service_message=service_message,
                zp_trans_id=zp_trans_id, order_url=order_url, qr_code=qr_code,
                count_poll=count_poll, allowed_from=allowed_from, release=release,
            )

    def _transition_in(
        self, conn: sqlite3.Connection, app_trans_id: str, to_state: PaymentState, *,
        message: str, return_code: Any, sub_return_code: Any, service_message: Any,
        zp_trans_id: Any, order_url: Any, qr_code: Any, count_poll: bool,
        allowed_from: Collection[PaymentState] | None, release: bool,
    ) -> PaymentView:
        t = self._clock()
        current = self._get_in(conn, app_trans_id)
        if allowed_from is not None and current.state not in allowed_from:
            raise IllegalTransition(
                f"Payment {app_trans_id} is {current.state.value}, not "
                f"{'/'.join(s.value for s in allowed_from)}; nothing changed."
            )
        moving = current.state is not to_state
        if moving and not can_move(current.state, to_state):
            raise IllegalTransition(
                f"Payment {app_trans_id} cannot go from {current.state.value} to "
                f"{to_state.value}."
            )
        sets: dict[str, Any] = {"state": to_state.value, "message": message, "updated_ms": t}
        for column, value in (
            ("return_code", return_code), ("sub_return_code", sub_return_code),
            ("service_message", service_message), ("zp_trans_id", zp_trans_id),
            ("order_url", order_url), ("qr_code", qr_code),
        ):
            if value is not _UNSET:
                sets[column] = value
        if to_state in FINAL_STATES:
            sets["needs_review"] = 0
        assignments = ", ".join(f"{c}=?" for c in sets)
        poll = ", polls=polls+1" if count_poll else ""
        conn.execute(
            f"UPDATE payments SET {assignments}{poll} WHERE app_trans_id=?",  # noqa: S608
            (*sets.values(), app_trans_id),
        )
        if release:
            self._release_in(conn, "payments", "app_trans_id", app_trans_id)
        if moving:
            self._append_event(
                conn, app_trans_id=app_trans_id, time_ms=t, kind="transition",
                from_state=current.state.value, to_state=to_state.value,
                return_code=None if return_code is _UNSET else return_code,
                sub_return_code=None if sub_return_code is _UNSET else sub_return_code,
                message=message,
            )
        return self._get_in(conn, app_trans_id)

    def override(
        self, app_trans_id: str, to_state: PaymentState, *, reason: str, who: str, message: str,
        cashier_id: str | None = None,
    ) -> PaymentView:
        """A cashier's explicit decision (after checking the merchant portal), never silent."""
        if to_state not in OVERRIDE_TARGETS:
            raise IllegalTransition(
                f"An override can only mark a payment succeeded or failed, not {to_state.value}."
            )
        if not reason.strip():
            raise IllegalTransition("An override needs a reason (what you checked, and where).")
        if not who.strip():
            raise IllegalTransition("An override needs the name of who decided it.")
        t = self._clock()
        with self._tx() as conn:
            current = self._get_in(conn, app_trans_id)
            if current.state not in PENDING_STATES:
                raise IllegalTransition(
                    f"Payment {app_trans_id} is already {current.state.value}; only an unresolved "
                    "payment (submitting, processing, unknown) can be overridden."
                )
            conn.execute(
                "UPDATE payments SET state=?, message=?, needs_review=0, updated_ms=? "
                "WHERE app_trans_id=?",
                (to_state.value, message, t, app_trans_id),
            )
            self._append_event(
                conn, app_trans_id=app_trans_id, time_ms=t, kind="override",
                from_state=current.state.value, to_state=to_state.value, message=message,
                reason=reason.strip(), who=who.strip(), cashier_id=cashier_id,
            )
            return self._get_in(conn, app_trans_id)

    def flag_for_review(self, app_trans_id: str, message: str) -> PaymentView:
        """Mark a row that can no longer be resolved by a status query; its state stays as is."""
        t = self._clock()
        with self._tx() as conn:
            current = self._get_in(conn, app_trans_id)
            if current.needs_review or current.state not in PENDING_STATES:
                return current
            conn.execute(
                "UPDATE payments SET needs_review=1, message=?, updated_ms=? WHERE app_trans_id=?",
                (message, t, app_trans_id),
            )
            self._append_event(
                conn, app_trans_id=app_trans_id, time_ms=t, kind="review",
                from_state=current.state.value, to_state=current.state.value, message=message,
            )
            return self._get_in(conn, app_trans_id)

    def get(self, app_trans_id: str) -> PaymentView:
        rows = self._read(
            f"SELECT {_PAYMENT_COLUMNS} FROM payments WHERE app_trans_id=?",  # noqa: S608
            (app_trans_id,),
        )
        if not rows:
            raise UnknownPayment(app_trans_id)
        return _payment(rows[0])

    def find(self, app_trans_id: str) -> PaymentView | None:
        try:
            return self.get(app_trans_id)
        except UnknownPayment:
            return None

    def events(self, app_trans_id: str) -> list[EventView]:
        rows = self._read(
            f"SELECT {_EVENT_COLUMNS} FROM events WHERE app_trans_id=? ORDER BY id",  # noqa: S608
            (app_trans_id,),
        )
        return [_event(r) for r in rows]

    def pending(self, limit: int | None = None) -> list[PaymentView]:
        """Unresolved payments, oldest first."""
        marks = ",".join("?" for _ in PENDING_STATES)
        sql = (
            f"SELECT {_PAYMENT_COLUMNS} FROM payments WHERE state IN ({marks}) "  # noqa: S608
            "ORDER BY created_ms, app_trans_id"
        )
        args: list[Any] = [s.value for s in PENDING_STATES]
        if limit is not None:
            sql += " LIMIT ?"
            args.append(limit)
        return [_payment(r) for r in self._read(sql, args)]

    def pending_count(self) -> int:
        marks = ",".join("?" for _ in PENDING_STATES)
        rows = self._read(
            f"SELECT count(*) FROM payments WHERE state IN ({marks})",  # noqa: S608
            [s.value for s in PENDING_STATES],
        )
        return int(rows[0][0])

    def list_payments(
        self,
        *,
        since_ms: int | None = None,
        until_ms: int | None = None,
        states: Collection[PaymentState] | None = None,
        limit: int | None = None,
        newest_first: bool = False,
    ) -> list[PaymentView]:
        where: list[str] = []
        args: list[Any] = []
        if since_ms is not None:
            where.append("created_ms >= ?")
            args.append(since_ms)
        if until_ms is not None:
            where.append("created_ms < ?")
            args.append(until_ms)
        if states:
            where.append(f"state IN ({','.join('?' for _ in states)})")
            args.extend(s.value for s in states)
        sql = f"SELECT {_PAYMENT_COLUMNS} FROM payments"  # noqa: S608
        if where:
            sql += " WHERE " + " AND ".join(where)
        sql += " ORDER BY created_ms DESC, app_trans_id DESC" if newest_first else (
            " ORDER BY created_ms, app_trans_id"
        )
        if limit is not None:
            sql += " LIMIT ?"
            args.append(limit)
        return [_payment(r) for r in self._read(sql, args)]

    # ---------------------------------------------------------------- refunds
    def record_refund_intent(
        self,
        *,
        m_refund_id: str,
        app_trans_id: str,
        amount: int | None,
        description: str,
        request_ms: int,
        message: str = "",
        lease_ttl_ms: int | None = None,
        cashier_id: str | None = None,
    ) -> RefundView:
        """Commit a refund before it is sent; `amount` None means everything that is left.

        The check of what is left counts refunds still in flight, inside the same write
        transaction, so two refunds racing cannot together exceed the payment.
        """
        t = self._clock()
        with self._tx() as conn:
            payment = self._get_in(conn, app_trans_id)
            if payment.state is not PaymentState.SUCCEEDED:
                raise RefundNotAllowed(
                    f"Payment {app_trans_id} is {payment.state.value}; only a succeeded payment "
                    "can be refunded."
                )
            if not payment.zp_trans_id:
                raise RefundNotAllowed(
                    f"Payment {app_trans_id} has no wallet transaction number (it was marked paid "
                    "by hand); refund it from the merchant portal."
                )
            in_flight = conn.execute(
                "SELECT coalesce(sum(amount), 0) FROM refunds WHERE app_trans_id=? AND state=?",
                (app_trans_id, PaymentState.REFUNDING.value),
            ).fetchone()[0]
            left = payment.amount - payment.refunded_amount - int(in_flight)
            wanted = left if amount is None else amount
            if wanted <= 0:
                pending = " (refunds still in progress count too)" if in_flight else ""
                if amount is not None and left > 0:
                    raise RefundNotAllowed(
                        f"A refund amount must be a positive number of VND, not {amount}."
                    )
                raise RefundNotAllowed(
                    f"Nothing is left to refund on {app_trans_id}: {vnd(payment.amount)} paid, "
                    f"{vnd(payment.refunded_amount)} refunded{pending}."
                )
            if wanted > left:
                raise RefundNotAllowed(
                    f"Cannot refund {vnd(wanted)} on {app_trans_id}: only {vnd(left)} is left "
                    f"({vnd(payment.amount)} paid, {vnd(payment.refunded_amount)} refunded, "
                    f"{vnd(int(in_flight))} in progress)."
                )
            conn.execute(
                "INSERT INTO refunds(m_refund_id, app_trans_id, amount, description, state, "
                "request_ms, message, created_ms, updated_ms, cashier_id) "
                "VALUES (?,?,?,?,?,?,?,?,?,?)",
                (m_refund_id, app_trans_id, wanted, description, PaymentState.REFUNDING.value,
                 request_ms, message, t, t, cashier_id),
            )
            if lease_ttl_ms is not None:
                self._take_lease_in(conn, "refunds", m_refund_id, lease_ttl_ms)
            self._append_event(
                conn, app_trans_id=app_trans_id, m_refund_id=m_refund_id, time_ms=t,
                kind="transition", from_state=PaymentState.NEW.value,
                to_state=PaymentState.REFUNDING.value, message=message or f"refund {vnd(wanted)}",
                cashier_id=cashier_id,
            )
            return self._get_refund_in(conn, m_refund_id)

    def _get_refund_in(self, conn: sqlite3.Connection, m_refund_id: str) -> RefundView:
        row = conn.execute(
            f"SELECT {_REFUND_COLUMNS} FROM refunds WHERE m_refund_id=?",  # noqa: S608
            (m_refund_id,),
        ).fetchone()
        if row is None:
            raise UnknownRefund(m_refund_id)
        return _refund(row)

    def refund_transition(
        self,
        m_refund_id: str,
        to_state: PaymentState,
        *,
        message: str,
        return_code: int | None = _UNSET,
        sub_return_code: int | None = _UNSET,
        service_message: str = _UNSET,
        refund_id: str | None = _UNSET,
        full_refund_message: str = "",
        release: bool = False,
    ) -> RefundView:
        """Settle (or refresh) a refund; REFUNDED adds to the payment's refunded_amount and moves
        the payment SUCCEEDED -> REFUNDED when nothing is left, all in one transaction."""
        t = self._clock()
        with self._tx() as conn:
            current = self._get_refund_in(conn, m_refund_id)
            moving = current.state is not to_state
            if moving and not can_move(current.state, to_state, refund=True):
                raise IllegalTransition(
                    f"Refund {m_refund_id} cannot go from {current.state.value} to "
                    f"{to_state.value}."
                )
            sets: dict[str, Any] = {"state": to_state.value, "message": message, "updated_ms": t}
            for column, value in (
                ("return_code", return_code), ("sub_return_code", sub_return_code),
                ("service_message", service_message), ("refund_id", refund_id),
            ):
                if value is not _UNSET:
                    sets[column] = value
            if to_state is not PaymentState.REFUNDING:
                sets["needs_review"] = 0
            conn.execute(
                f"UPDATE refunds SET {', '.join(f'{c}=?' for c in sets)} "  # noqa: S608
                "WHERE m_refund_id=?",
                (*sets.values(), m_refund_id),
            )
            if release:
                self._release_in(conn, "refunds", "m_refund_id", m_refund_id)
            if moving:
                self._append_event(
                    conn, app_trans_id=current.app_trans_id, m_refund_id=m_refund_id, time_ms=t,
                    kind="transition", from_state=current.state.value, to_state=to_state.value,
                    return_code=None if return_code is _UNSET else return_code,
                    sub_return_code=None if sub_return_code is _UNSET else sub_return_code,
                    message=message,
                )
            if moving and to_state is PaymentState.REFUNDED:
                conn.execute(
                    "UPDATE payments SET refunded_amount=refunded_amount+?, updated_ms=? "
                    "WHERE app_trans_id=?",
                    (current.amount, t, current.app_trans_id),
                )
                payment = self._get_in(conn, current.app_trans_id)
                if payment.refunded_amount == payment.amount:
                    text = full_refund_message or f"Refunded in full ({vnd(payment.amount)})."
                    conn.execute(
                        "UPDATE payments SET state=?, message=? WHERE app_trans_id=?",
                        (PaymentState.REFUNDED.value, text, current.app_trans_id),
                    )
                    self._append_event(
                        conn, app_trans_id=current.app_trans_id, m_refund_id=m_refund_id,
                        time_ms=t, kind="transition", from_state=payment.state.value,
                        to_state=PaymentState.REFUNDED.value, message=text,
                    )
            return self._get_refund_in(conn, m_refund_id)

    def refund_claim_send(self, m_refund_id: str, ttl_ms: int) -> bool:
        """Just before sending a refund: True if this process still owns its lease."""
        with self._tx() as conn:
            current = self._get_refund_in(conn, m_refund_id)
            if current.state is not PaymentState.REFUNDING or current.refund_id is not None:
                return False
            return self._claim_send_in(conn, "refunds", "m_refund_id", m_refund_id, ttl_ms)

    def refund_release(self, m_refund_id: str) -> None:
        with self._tx() as conn:
            self._release_in(conn, "refunds", "m_refund_id", m_refund_id)

    def refund_never_arrived_allowed(self, m_refund_id: str, grace_s: float) -> str:
        """"Refund not found": "failed" if no lease can be live and the sending has been quiet
        for `grace_s` (monotonic), else "owner_live" or "grace" (a quiet stamp may be written)."""
        with self._tx() as conn:
            current = self._get_refund_in(conn, m_refund_id)
            if current.is_final:
                return current.state.value
            quiet = self._quiet_for_in(conn, "refunds", "m_refund_id", m_refund_id)
            if quiet is None:
                return "owner_live"
            return "failed" if quiet >= grace_s else "grace"

    def flag_refund_for_review(self, m_refund_id: str, message: str) -> RefundView:
        t = self._clock()
        with self._tx() as conn:
            current = self._get_refund_in(conn, m_refund_id)
            if current.needs_review or current.is_final:
                return current
            conn.execute(
                "UPDATE refunds SET needs_review=1, message=?, updated_ms=? WHERE m_refund_id=?",
                (message, t, m_refund_id),
            )
            self._append_event(
                conn, app_trans_id=current.app_trans_id, m_refund_id=m_refund_id, time_ms=t,
                kind="review", from_state=current.state.value, to_state=current.state.value,
                message=message,
            )
            return self._get_refund_in(conn, m_refund_id)

    def get_refund(self, m_refund_id: str) -> RefundView:
        rows = self._read(
            f"SELECT {_REFUND_COLUMNS} FROM refunds WHERE m_refund_id=?",  # noqa: S608
            (m_refund_id,),
        )
        if not rows:
            raise UnknownRefund(m_refund_id)
        return _refund(rows[0])

    def refunds(self, app_trans_id: str | None = None) -> list[RefundView]:
        if app_trans_id is None:
            rows = self._read(
                f"SELECT {_REFUND_COLUMNS} FROM refunds ORDER BY created_ms"  # noqa: S608
            )
        else:
            rows = self._read(
                f"SELECT {_REFUND_COLUMNS} FROM refunds WHERE app_trans_id=? "  # noqa: S608
                "ORDER BY created_ms",
                (app_trans_id,),
            )
        return [_refund(r) for r in rows]

    def pending_refunds(self) -> list[RefundView]:
        rows = self._read(
            f"SELECT {_REFUND_COLUMNS} FROM refunds WHERE state=? "  # noqa: S608
            "ORDER BY created_ms",
            (PaymentState.REFUNDING.value,),
        )
        return [_refund(r) for r in rows]

    # ---------------------------------------------------------------- reports
    def x_report(self) -> Report:
        """Running totals of the open day (everything not yet in a Z report). Writes nothing."""
        with self._lock:
            try:
                return compute_report(self._conn, close=False, now=self._clock())
            except sqlite3.Error as exc:
                raise unavailable_from(exc, self.path) from exc

    def close_day(self) -> Report:
        """The Z report: numbers and freezes every settled row of the open day, in one commit.

        Unresolved payments and refunds in flight are not closed; they are listed and carried to
        the next day.
        """
        with self._tx() as conn:
            return compute_report(conn, close=True, now=self._clock())

    def z_report(self, number: int) -> Report:
        with self._lock:
            try:
                return stored_z_report(self._conn, number)
            except sqlite3.Error as exc:
                raise unavailable_from(exc, self.path) from exc

    def grouped_report(self, by: str, z_number: int | None = None) -> list[GroupTotals]:
        """Totals per cashier or per shift ("cashier" | "shift") of the open day, or of the
        stored Z report `z_number`. Writes nothing."""
        with self._lock:
            try:
                names = {str(r[0]): str(r[1]) for r in
                         self._conn.execute("SELECT id, name FROM cashiers").fetchall()}
                return grouped_report(self._conn, by=by, z_number=z_number, names=names)
            except sqlite3.Error as exc:
                raise unavailable_from(exc, self.path) from exc

    # ---------------------------------------------------------------- receipts
    def receipt_prints(self, kind: str, subject_id: str) -> int:
        """How many times the receipt of this payment / refund was printed (0: never)."""
        rows = self._read("SELECT count(*) FROM receipts_printed WHERE kind=? AND subject_id=?",
                          (kind, subject_id))
        return int(rows[0][0])

    def record_receipt_print(self, kind: str, subject_id: str, *, target: str,
                             cashier_id: str | None = None) -> bool:
        """Journal one print of a receipt; True when it is a reprint (printed before)."""
        t = self._clock()
        with self._tx() as conn:
            before = int(conn.execute(
                "SELECT count(*) FROM receipts_printed WHERE kind=? AND subject_id=?",
                (kind, subject_id)).fetchone()[0])
            conn.execute(
                "INSERT INTO receipts_printed(kind, subject_id, time_ms, reprint, target, "
                "cashier_id) VALUES (?,?,?,?,?,?)",
                (kind, subject_id, t, int(before > 0), target, cashier_id))
            return before > 0

    def z_numbers(self) -> list[int]:
        return [int(r[0]) for r in self._read("SELECT number FROM z_reports ORDER BY number")]


def _create_private(path: Path) -> None:
    """Create the journal's folder (0700) and an empty journal file (0600) if missing.

    SQLite gives the -wal and -shm files the mode of the database file, so they are 0600 too.
    Files and folders that already exist are left as their owner set them."""
    folder = path.parent
    if not folder.is_dir():
        with suppress(FileExistsError):  # another process may make it meanwhile
            folder.mkdir(parents=True, mode=0o700)
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:
        return
    os.close(fd)


def _split_sql(script: str) -> list[str]:
    """Split a migration into statements (triggers contain ';' inside BEGIN ... END)."""
    statements: list[str] = []
    buffer = ""
    for line in script.splitlines(keepends=True):
        buffer += line
        if sqlite3.complete_statement(buffer):
            if buffer.strip():
                statements.append(buffer.strip())
            buffer = ""
    if buffer.strip():
        statements.append(buffer.strip())
    return statements
