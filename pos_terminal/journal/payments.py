"""Payment rows: the intent before the send, every move with its event, overrides, queries."""

from __future__ import annotations

import hashlib
import hmac
import json
import sqlite3
from collections.abc import Collection, Iterator, Sequence
from typing import Any

from pos_terminal.base.codes import code_last4
from pos_terminal.base.reasons import Reason, stored
from pos_terminal.base.wallet_types import FIRST_PROVIDER
from pos_terminal.journal.connection import (
    _EVENT_COLUMNS,
    _PAYMENT_COLUMNS,
    _UNSET,
    _event,
    _payment,
)
from pos_terminal.journal.errors import (
    CodeClaimed,
    IllegalTransition,
    SaleRefTaken,
    UnknownPayment,
)
from pos_terminal.journal.filters import created_filter
from pos_terminal.journal.leasing import LeaseRows
from pos_terminal.journal.states import (
    FINAL_STATES,
    OVERRIDE_TARGETS,
    PENDING_STATES,
    PaymentEvent,
    PaymentState,
    can_move,
    move_for,
)
from pos_terminal.journal.views import EventView, PaymentView

#: The guards of override moves that only a row flagged for review may make (states.GUARDS).
_FLAGGED_GUARDS = frozenset({"left_for_review", "review_by_a_person"})

#: The open payments, by their partial index (schema.py), spelled as it is: statistics saying
#: "a state is a third of the rows" would otherwise lead SQLite to read every payment.
OPEN_PAYMENTS = ("INDEXED BY payments_open "
                 "WHERE state IN ('submitting', 'processing', 'unknown')")
assert {s.value for s in PENDING_STATES} == {"submitting", "processing", "unknown"}

#: The payments of one code fingerprint, through the index of its first 16 digits (schema.py).
#: The unary + keeps SQLite from putting the value into the indexed expression (which would no
#: longer match the index, and scan every payment).
_BY_CODE = "substr(code_fingerprint, 1, 16) = ? AND +code_fingerprint = ?"


def _code_args(fp: str) -> tuple[str, str]:
    return fp[:16], fp


class PaymentRows(LeaseRows):
    """The `payments` table and its events."""

    def fingerprint(self, code: str) -> str:
        """Keyed fingerprint of a payment code: equal codes match, the code cannot be recovered."""
        return hmac.new(self._secret, code.encode("utf-8"), hashlib.sha256).hexdigest()

    def payments_with_code(self, code: str) -> list[PaymentView]:
        rows = self._read(
            f"SELECT {_PAYMENT_COLUMNS} FROM payments WHERE {_BY_CODE} "  # noqa: S608
            "ORDER BY created_ms DESC",
            _code_args(self.fingerprint(code)),
        )
        return [_payment(r) for r in rows]

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
        message: Reason | str = "",
        now: int | None = None,
        lease_ttl_ms: int | None = None,
        code_window_ms: float | None = None,
        cashier_id: str | None = None,
        sale_ref: str | None = None,
        provider: str = FIRST_PROVIDER,
    ) -> PaymentView:
        """Commit the intent (NEW -> SUBMITTING) before anything is sent.

        With `lease_ttl_ms`, this process takes the row's lease (it alone may send it). With
        `code_window_ms`, the payment code is claimed in the same write transaction: a code
        already charged, or belonging to an unresolved payment, raises CodeClaimed and nothing is
        written, so two processes can never both record (and send) the same code.
        `cashier_id` is who took the payment (None: no cashier signed in). `sale_ref`, the sale
        system's reference, is checked in the same transaction (and by a unique index): a sale
        that has a payment already raises SaleRefTaken and nothing is written. `provider`: the
        wallet it is sent to; its status queries and refunds go to that one.
        """
        t = self._clock() if now is None else now
        fp = self.fingerprint(payment_code) if payment_code is not None else None
        last4 = code_last4(payment_code) if payment_code is not None else None
        items_json = json.dumps(list(items), ensure_ascii=False, separators=(",", ":"))
        with self._tx() as conn:
            if sale_ref is not None:
                taken = conn.execute("SELECT app_trans_id FROM payments WHERE sale_ref=?",
                                     (sale_ref,)).fetchone()
                if taken is not None:
                    raise SaleRefTaken(sale_ref, taken[0])
            if fp is not None and code_window_ms is not None:
                self._claim_code_in(conn, fp, t, code_window_ms)
            conn.execute(
                "INSERT INTO payments(app_trans_id, kind, generation, state, amount, description, "
                "items_json, code_fingerprint, code_last4, payload_hash, message, created_ms, "
                "submitted_ms, updated_ms, cashier_id, sale_ref, provider) "
                "VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)",
                (app_trans_id, kind, generation, PaymentState.SUBMITTING.value, amount,
                 description, items_json, fp, last4, payload_hash, stored(message), t, t, t,
                 cashier_id, sale_ref, provider),
            )
            if lease_ttl_ms is not None:
                self._take_lease_in(conn, "payments", app_trans_id, lease_ttl_ms)
            self._append_event(
                conn, app_trans_id=app_trans_id, time_ms=t, kind="transition",
                from_state=PaymentState.NEW.value, to_state=PaymentState.SUBMITTING.value,
                message=message, cashier_id=cashier_id,
            )
            return self._get_in(conn, app_trans_id)

    def find_by_sale_ref(self, sale_ref: str) -> PaymentView | None:
        """The payment recorded under the sale system's reference, if any."""
        rows = self._read(
            f"SELECT {_PAYMENT_COLUMNS} FROM payments WHERE sale_ref=?",  # noqa: S608
            (sale_ref,),
        )
        return _payment(rows[0]) if rows else None

    def code_matches(self, view: PaymentView, code: str) -> bool:
        """Whether `code` is the payment code `view` was charged with (by its fingerprint)."""
        rows = self._read("SELECT code_fingerprint FROM payments WHERE app_trans_id=?",
                          (view.app_trans_id,))
        return bool(rows) and hmac.compare_digest(str(rows[0][0] or ""), self.fingerprint(code))

    @staticmethod
    def _claim_code_in(conn: sqlite3.Connection, fp: str, now: int, window_ms: float) -> None:
        rows = conn.execute(
            f"SELECT app_trans_id, state, created_ms FROM payments WHERE {_BY_CODE} "  # noqa: S608
            "ORDER BY created_ms DESC",
            _code_args(fp),
        ).fetchall()
        for app_trans_id, state, created_ms in rows:
            st = PaymentState(state)
            if st in (PaymentState.SUCCEEDED, PaymentState.REFUNDED):
                raise CodeClaimed("charged", app_trans_id)
            if st in PENDING_STATES:
                reason = "in_flight" if now - created_ms <= window_ms else "unresolved"
                raise CodeClaimed(reason, app_trans_id)

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
        self, app_trans_id: str, *, grace_s: float, message: Reason | str,
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
        self, app_trans_id: str, *, message: Reason | str, return_code: int | None,
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
                "return_code=?, sub_return_code=?, service_message=?, provider_trans_id=?, "
                "updated_ms=? WHERE app_trans_id=?",
                (stored(message), return_code, sub_return_code, service_message, zp_trans_id, t,
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
        self, app_trans_id: str, message: Reason | str, *, return_code: int | None = None,
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
                "provider_trans_id=coalesce(provider_trans_id, ?), updated_ms=? "
                "WHERE app_trans_id=?",
                (to.value, stored(message), return_code, sub_return_code, service_message,
                 zp_trans_id, t, app_trans_id),
            )
            self._release_in(conn, "payments", "app_trans_id", app_trans_id)
            self._append_event(
                conn, app_trans_id=app_trans_id, time_ms=t, kind="review",
                from_state=current.state.value, to_state=to.value, return_code=return_code,
                sub_return_code=sub_return_code, message=message,
            )
            return self._get_in(conn, app_trans_id)

    def failed_since(self, since_ms: int) -> list[PaymentView]:
        """Payments concluded FAILED (not late) since `since_ms` (wall clock: only which rows to
        check again, never a verdict), oldest first. Which of them "never reached the service"
        the wallet's codes tell (wallet.returncodes.never_arrived)."""
        rows = self._read(
            f"SELECT {_PAYMENT_COLUMNS} FROM payments WHERE state='failed' AND late=0 "  # noqa: S608
            "AND updated_ms>=? ORDER BY created_ms",
            (since_ms,),
        )
        return [_payment(r) for r in rows]

    def mark_abandoned(self, app_trans_id: str, message: Reason | str, *,
                       cashier_id: str | None = None) -> PaymentView:
        """The cashier gave up waiting for an open payment: it stays open (status queries go
        on) and a success from now on is a late charge. A row already settled is returned as
        it is (its verdict came first)."""
        t = self._clock()
        with self._tx() as conn:
            current = self._get_in(conn, app_trans_id)
            if current.abandoned or current.state not in PENDING_STATES:
                return current
            conn.execute("UPDATE payments SET abandoned=1, message=?, updated_ms=? "
                         "WHERE app_trans_id=?", (stored(message), t, app_trans_id))
            self._append_event(
                conn, app_trans_id=app_trans_id, time_ms=t, kind="transition",
                from_state=current.state.value, to_state=current.state.value, message=message,
                reason="abandoned: the cashier stopped waiting", cashier_id=cashier_id,
            )
            return self._get_in(conn, app_trans_id)

    def late_charges_to_return(self, since_ms: int) -> list[PaymentView]:
        """Charged late (after FAILED, or after the cashier gave up), settled since `since_ms`,
        and neither returned nor flagged for review, oldest first."""
        rows = self._read(
            f"SELECT {_PAYMENT_COLUMNS} FROM payments p WHERE state='succeeded' "  # noqa: S608
            "AND (late=1 OR abandoned=1) AND needs_review=0 AND updated_ms>=? AND NOT EXISTS "
            "(SELECT 1 FROM refunds r WHERE r.app_trans_id=p.app_trans_id AND r.auto=1) "
            "ORDER BY created_ms", (since_ms,),
        )
        return [_payment(r) for r in rows]

    def transition(
        self,
        app_trans_id: str,
        to_state: PaymentState,
        *,
        message: Reason | str,
        return_code: int | None = _UNSET,
        sub_return_code: int | None = _UNSET,
        service_message: str = _UNSET,
        zp_trans_id: str | None = _UNSET,
        order_url: str | None = _UNSET,
        qr_code: str | None = _UNSET,
        count_poll: bool = False,
        allowed_from: Collection[PaymentState] | None = None,
        release: bool = False,
        record: bool = False,
    ) -> PaymentView:
        """Move a payment to `to_state` with its event, or refresh it when already there.

        Staying in the same state updates the row (codes, message, poll count) without an event,
        unless `record` (a step that must be on the record: a capture about to be sent).
        A move the state machine forbids raises IllegalTransition and changes nothing.
        """
        with self._tx() as conn:
            return self._transition_in(
                conn, app_trans_id, to_state, message=message, return_code=return_code,
                sub_return_code=sub_return_code, service_message=service_message,
                zp_trans_id=zp_trans_id, order_url=order_url, qr_code=qr_code,
                count_poll=count_poll, allowed_from=allowed_from, release=release,
                record=record,
            )

    def _transition_in(
        self, conn: sqlite3.Connection, app_trans_id: str, to_state: PaymentState, *,
        message: Reason | str, return_code: Any, sub_return_code: Any, service_message: Any,
        zp_trans_id: Any, order_url: Any, qr_code: Any, count_poll: bool,
        allowed_from: Collection[PaymentState] | None, release: bool, record: bool = False,
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
        sets: dict[str, Any] = {"state": to_state.value, "message": stored(message),
                                "updated_ms": t}
        for column, value in (
            ("return_code", return_code), ("sub_return_code", sub_return_code),
            ("service_message", service_message), ("provider_trans_id", zp_trans_id),
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
        if moving or record:
            self._append_event(
                conn, app_trans_id=app_trans_id, time_ms=t, kind="transition",
                from_state=current.state.value, to_state=to_state.value,
                return_code=None if return_code is _UNSET else return_code,
                sub_return_code=None if sub_return_code is _UNSET else sub_return_code,
                message=message,
            )
        return self._get_in(conn, app_trans_id)

    def override(
        self, app_trans_id: str, to_state: PaymentState, *, reason: str, who: str,
        message: Reason | str,
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
            # The table's override moves (states.py): from an open row; a late charge left for
            # review may be kept; a failed row flagged for review (money found after a shop's
            # QR closed) is settled either way. Checked again here, in the write transaction.
            move = move_for(current.state, PaymentEvent.OVERRIDE_PAID
                            if to_state is PaymentState.SUCCEEDED
                            else PaymentEvent.OVERRIDE_FAILED)
            if move is None or (move.guard in _FLAGGED_GUARDS and not current.needs_review):
                raise IllegalTransition(Reason.of(
                    "payment.not_overridable", app_trans_id=app_trans_id,
                    state=current.state.value))
            conn.execute(
                "UPDATE payments SET state=?, message=?, needs_review=0, updated_ms=? "
                "WHERE app_trans_id=?",
                (to_state.value, stored(message), t, app_trans_id),
            )
            self._append_event(
                conn, app_trans_id=app_trans_id, time_ms=t, kind="override",
                from_state=current.state.value, to_state=to_state.value, message=message,
                reason=reason.strip(), who=who.strip(), cashier_id=cashier_id,
            )
            return self._get_in(conn, app_trans_id)

    def flag_for_review(self, app_trans_id: str, message: Reason | str) -> PaymentView:
        """Mark a row that can no longer be resolved by a status query; its state stays as is."""
        t = self._clock()
        with self._tx() as conn:
            current = self._get_in(conn, app_trans_id)
            if current.needs_review or current.state not in PENDING_STATES:
                return current
            conn.execute(
                "UPDATE payments SET needs_review=1, message=?, updated_ms=? WHERE app_trans_id=?",
                (stored(message), t, app_trans_id),
            )
            self._append_event(
                conn, app_trans_id=app_trans_id, time_ms=t, kind="review",
                from_state=current.state.value, to_state=current.state.value, message=message,
            )
            return self._get_in(conn, app_trans_id)

    def get(self, app_trans_id: str) -> PaymentView:
        return self._reading(lambda conn: self._get_in(conn, app_trans_id))

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
        sql = (
            f"SELECT {_PAYMENT_COLUMNS} FROM payments {OPEN_PAYMENTS} "  # noqa: S608
            "ORDER BY created_ms, app_trans_id"
        )
        args: list[Any] = []
        if limit is not None:
            sql += " LIMIT ?"
            args.append(limit)
        return [_payment(r) for r in self._read(sql, args)]

    def pending_count(self) -> int:
        rows = self._read(f"SELECT count(*) FROM payments {OPEN_PAYMENTS}")  # noqa: S608
        return int(rows[0][0])

    def list_payments(
        self,
        *,
        since_ms: int | None = None,
        until_ms: int | None = None,
        states: Collection[PaymentState] | None = None,
        limit: int | None = None,
        newest_first: bool = False,
        provider: str | None = None,
    ) -> list[PaymentView]:
        """The payments created in [since_ms, until_ms) (a screenful: give a day or a limit),
        of one wallet `provider` (None: all)."""
        sql, args = _payments_query(since_ms, until_ms, states, limit, newest_first, None,
                                    provider)
        return [_payment(r) for r in self._read(sql, args)]

    def iter_payments(
        self,
        *,
        since_ms: int | None = None,
        until_ms: int | None = None,
        states: Collection[PaymentState] | None = None,
        limit: int | None = None,
        newest_first: bool = False,
        after: str | None = None,
        provider: str | None = None,
    ) -> Iterator[PaymentView]:
        """Like list_payments, streamed (a batch in memory at a time), continuing `after` the
        payment of that app_trans_id in the same order (a page's cursor; UnknownPayment if
        there is none)."""
        cursor = None if after is None else (self.get(after).created_ms, after)
        sql, args = _payments_query(since_ms, until_ms, states, limit, newest_first, cursor,
                                    provider)
        return (_payment(r) for r in self._stream(sql, args))


def _payments_query(
    since_ms: int | None, until_ms: int | None, states: Collection[PaymentState] | None,
    limit: int | None, newest_first: bool, cursor: tuple[int, str] | None,
    provider: str | None = None,
) -> tuple[str, list[Any]]:
    """Payments by their creation time (index payments_created), in (created_ms, app_trans_id)
    order, from the row after `cursor` on."""
    where, args = created_filter(since_ms, until_ms, states, provider)
    if cursor is not None:
        op = "<" if newest_first else ">"
        where.append(f"created_ms {op}= ? AND (created_ms {op} ? OR app_trans_id {op} ?)")
        args.extend((cursor[0], cursor[0], cursor[1]))
    sql = f"SELECT {_PAYMENT_COLUMNS} FROM payments"  # noqa: S608
    if where:
        sql += " WHERE " + " AND ".join(where)
    sql += (" ORDER BY created_ms DESC, app_trans_id DESC" if newest_first
            else " ORDER BY created_ms, app_trans_id")
    if limit is not None:
        sql += " LIMIT ?"
        args.append(limit)
    return sql, args
