"""Refund rows: born REFUNDING before the request leaves, settled with their event; a refund
that completes the payment's amount moves the payment to REFUNDED in the same transaction.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Collection, Iterator
from typing import Any

from pos_terminal.base.reasons import Reason, stored
from pos_terminal.journal.connection import _REFUND_COLUMNS, _UNSET, _refund
from pos_terminal.journal.errors import (
    AlreadyReturned,
    IllegalTransition,
    RefundNotAllowed,
    RefundRefTaken,
)
from pos_terminal.journal.filters import created_filter
from pos_terminal.journal.leasing import LeaseRows
from pos_terminal.journal.states import PaymentState, RefundState, can_move
from pos_terminal.journal.views import RefundView


class RefundRows(LeaseRows):
    """The `refunds` table and its events."""

    def record_refund_intent(
        self,
        *,
        m_refund_id: str,
        app_trans_id: str,
        amount: int | None,
        description: str,
        request_ms: int,
        message: Reason | str = "",
        lease_ttl_ms: int | None = None,
        cashier_id: str | None = None,
        auto: bool = False,
        authorised_by: str | None = None,
        refund_ref: str | None = None,
    ) -> RefundView:
        """Commit a refund before it is sent; `amount` None means everything that is left.
        `cashier_id`: who asked (None: the cashier who took the payment); `authorised_by`: the
        supervisor whose PIN allowed it.
        `auto`: the return of a late charge, at most one per payment (AlreadyReturned).
        `refund_ref`: the sale system's reference, unique (RefundRefTaken, nothing written).

        The check of what is left counts refunds still in flight, inside the same write
        transaction, so two refunds racing cannot together exceed the payment.
        """
        t = self._clock()
        with self._tx() as conn:
            self._refund_intent_in(
                conn, t, m_refund_id=m_refund_id, app_trans_id=app_trans_id, amount=amount,
                description=description, request_ms=request_ms, message=message,
                lease_ttl_ms=lease_ttl_ms, cashier_id=cashier_id, auto=auto,
                authorised_by=authorised_by, refund_ref=refund_ref)
            return self._get_refund_in(conn, m_refund_id)

    def record_returned_by_shop(
        self, *, m_refund_id: str, app_trans_id: str, amount: int | None, description: str,
        message: Reason, reason: str, who: str, cashier_id: str | None = None,
        authorised_by: str | None = None,
    ) -> RefundView:
        """Record money the shop returned itself (a bank transfer from the shop: a wallet with
        no refund call), under a person's authority: the refund row is born and settled
        REFUNDED in one transaction (nothing is ever sent, so nothing is left in flight), its
        move an `override` event with `reason` and `who`; a whole amount moves the payment to
        REFUNDED (the table's `refund_by_shop`)."""
        if not reason.strip():
            raise IllegalTransition(Reason.of("refund.by_shop.no_reason"))
        if not who.strip():
            raise IllegalTransition(Reason.of("refund.by_shop.no_who"))
        t = self._clock()
        with self._tx() as conn:
            self._refund_intent_in(
                conn, t, m_refund_id=m_refund_id, app_trans_id=app_trans_id, amount=amount,
                description=description, request_ms=t, message=message, lease_ttl_ms=None,
                cashier_id=cashier_id, auto=False, authorised_by=authorised_by, refund_ref=None)
            self._refund_transition_in(conn, t, m_refund_id, RefundState.REFUNDED,
                                       message=message, full_refund_message=message,
                                       decided=(reason.strip(), who.strip()))
            return self._get_refund_in(conn, m_refund_id)

    def _refund_intent_in(
        self, conn: sqlite3.Connection, t: int, *, m_refund_id: str, app_trans_id: str,
        amount: int | None, description: str, request_ms: int, message: Reason | str,
        lease_ttl_ms: int | None, cashier_id: str | None, auto: bool,
        authorised_by: str | None, refund_ref: str | None,
    ) -> None:
        """`record_refund_intent`'s write, inside the caller's transaction `conn`."""
        if refund_ref is not None:
            taken = conn.execute("SELECT m_refund_id FROM refunds WHERE refund_ref=?",
                                 (refund_ref,)).fetchone()
            if taken is not None:
                raise RefundRefTaken(refund_ref, taken[0])
        payment = self._get_in(conn, app_trans_id)
        if payment.state is not PaymentState.SUCCEEDED:
            raise RefundNotAllowed(Reason.of("refund.not_allowed.state",
                                             app_trans_id=app_trans_id,
                                             state=payment.state.value))
        if not payment.zp_trans_id:
            raise RefundNotAllowed(Reason.of("refund.not_allowed.no_transaction_number",
                                             app_trans_id=app_trans_id))
        if auto and conn.execute("SELECT 1 FROM refunds WHERE app_trans_id=? AND auto=1",
                                 (app_trans_id,)).fetchone():
            raise AlreadyReturned(Reason.of("refund.already_returned",
                                            app_trans_id=app_trans_id))
        in_flight = int(conn.execute(
            "SELECT coalesce(sum(amount), 0) FROM refunds WHERE app_trans_id=? AND state=?",
            (app_trans_id, RefundState.REFUNDING.value),
        ).fetchone()[0])
        left = payment.amount - payment.refunded_amount - in_flight
        wanted = left if amount is None else amount
        sums = {"app_trans_id": app_trans_id, "paid": payment.amount,
                "refunded": payment.refunded_amount, "in_flight": in_flight}
        if wanted <= 0:
            if amount is not None and left > 0:
                raise RefundNotAllowed(Reason.of("refund.amount.not_positive", value=amount))
            raise RefundNotAllowed(Reason.of("refund.nothing_left", **sums))
        if wanted > left:
            raise RefundNotAllowed(Reason.of("refund.more_than_left", wanted=wanted,
                                             left=left, **sums))
        if cashier_id is None:
            cashier_id = payment.cashier_id
        conn.execute(
            "INSERT INTO refunds(m_refund_id, app_trans_id, amount, description, state, "
            "request_ms, message, created_ms, updated_ms, cashier_id, auto, authorised_by, "
            "refund_ref, provider) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?)",
            (m_refund_id, app_trans_id, wanted, description, RefundState.REFUNDING.value,
             request_ms, stored(message), t, t, cashier_id, int(auto), authorised_by,
             refund_ref, payment.provider),
        )
        if lease_ttl_ms is not None:
            self._take_lease_in(conn, "refunds", m_refund_id, lease_ttl_ms)
        self._append_event(
            conn, app_trans_id=app_trans_id, m_refund_id=m_refund_id, time_ms=t,
            kind="transition", from_state=RefundState.NEW.value,
            to_state=RefundState.REFUNDING.value,
            message=message or Reason.of("refund.intent", amount=wanted),
            cashier_id=cashier_id,
        )

    def refund_transition(
        self,
        m_refund_id: str,
        to_state: RefundState,
        *,
        message: Reason | str,
        return_code: int | None = _UNSET,
        sub_return_code: int | None = _UNSET,
        service_message: str = _UNSET,
        refund_id: str | None = _UNSET,
        full_refund_message: Reason | str = "",
        release: bool = False,
    ) -> RefundView:
        """Settle (or refresh) a refund; REFUNDED adds to the payment's refunded_amount and moves
        the payment SUCCEEDED -> REFUNDED when nothing is left, all in one transaction."""
        t = self._clock()
        with self._tx() as conn:
            self._refund_transition_in(
                conn, t, m_refund_id, to_state, message=message, return_code=return_code,
                sub_return_code=sub_return_code, service_message=service_message,
                refund_id=refund_id, full_refund_message=full_refund_message, release=release)
            return self._get_refund_in(conn, m_refund_id)

    def _refund_transition_in(
        self, conn: sqlite3.Connection, t: int, m_refund_id: str, to_state: RefundState, *,
        message: Reason | str, return_code: int | None = _UNSET,
        sub_return_code: int | None = _UNSET, service_message: str = _UNSET,
        refund_id: str | None = _UNSET, full_refund_message: Reason | str = "",
        release: bool = False, decided: tuple[str, str] | None = None,
    ) -> None:
        """`decided`: (reason, who) of a person's decision (its event is an `override`)."""
        current = self._get_refund_in(conn, m_refund_id)
        moving = current.state is not to_state
        if moving and not can_move(current.state, to_state):
            raise IllegalTransition(Reason.of(
                "refund.illegal_move", m_refund_id=m_refund_id,
                state=current.state.value, to_state=to_state.value))
        sets: dict[str, Any] = {"state": to_state.value, "message": stored(message),
                                "updated_ms": t}
        for column, value in (
            ("return_code", return_code), ("sub_return_code", sub_return_code),
            ("service_message", service_message), ("refund_id", refund_id),
        ):
            if value is not _UNSET:
                sets[column] = value
        if to_state is not RefundState.REFUNDING:
            sets["needs_review"] = 0
        conn.execute(
            f"UPDATE refunds SET {', '.join(f'{c}=?' for c in sets)} "  # noqa: S608
            "WHERE m_refund_id=?",
            (*sets.values(), m_refund_id),
        )
        if release:
            self._release_in(conn, "refunds", "m_refund_id", m_refund_id)
        if moving:
            reason, who = decided or (None, None)
            self._append_event(
                conn, app_trans_id=current.app_trans_id, m_refund_id=m_refund_id, time_ms=t,
                kind="transition" if decided is None else "override",
                from_state=current.state.value, to_state=to_state.value,
                return_code=None if return_code is _UNSET else return_code,
                sub_return_code=None if sub_return_code is _UNSET else sub_return_code,
                message=message, reason=reason, who=who,
                cashier_id=None if decided is None else current.authorised_by,
            )
        if moving and to_state is RefundState.REFUNDED:
            conn.execute(
                "UPDATE payments SET refunded_amount=refunded_amount+?, updated_ms=? "
                "WHERE app_trans_id=?",
                (current.amount, t, current.app_trans_id),
            )
            payment = self._get_in(conn, current.app_trans_id)
            if payment.refunded_amount == payment.amount:
                text = stored(full_refund_message or Reason.of(
                    "late.returned" if current.auto else "refund.full",
                    amount=payment.amount))
                conn.execute(
                    "UPDATE payments SET state=?, message=?, needs_review=0 "
                    "WHERE app_trans_id=?",
                    (PaymentState.REFUNDED.value, text, current.app_trans_id),
                )
                self._append_event(
                    conn, app_trans_id=current.app_trans_id, m_refund_id=m_refund_id,
                    time_ms=t, kind="transition", from_state=payment.state.value,
                    to_state=PaymentState.REFUNDED.value, message=text,
                )

    def refund_claim_send(self, m_refund_id: str, ttl_ms: int) -> bool:
        """Just before sending a refund: True if this process still owns its lease."""
        with self._tx() as conn:
            current = self._get_refund_in(conn, m_refund_id)
            if current.state is not RefundState.REFUNDING or current.refund_id is not None:
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

    def flag_refund_for_review(self, m_refund_id: str, message: Reason | str) -> RefundView:
        t = self._clock()
        with self._tx() as conn:
            current = self._get_refund_in(conn, m_refund_id)
            if current.needs_review or current.is_final:
                return current
            conn.execute(
                "UPDATE refunds SET needs_review=1, message=?, updated_ms=? WHERE m_refund_id=?",
                (stored(message), t, m_refund_id),
            )
            self._append_event(
                conn, app_trans_id=current.app_trans_id, m_refund_id=m_refund_id, time_ms=t,
                kind="review", from_state=current.state.value, to_state=current.state.value,
                message=message,
            )
            return self._get_refund_in(conn, m_refund_id)

    def auto_refund_of(self, app_trans_id: str) -> RefundView | None:
        """The automatic return of a late charge, if it has one."""
        rows = self._read(f"SELECT {_REFUND_COLUMNS} FROM refunds "  # noqa: S608
                          "WHERE app_trans_id=? AND auto=1", (app_trans_id,))
        return _refund(rows[0]) if rows else None

    def find_refund_by_ref(self, refund_ref: str) -> RefundView | None:
        """The refund recorded under the sale system's reference, if any."""
        rows = self._read(f"SELECT {_REFUND_COLUMNS} FROM refunds "  # noqa: S608
                          "WHERE refund_ref=?", (refund_ref,))
        return _refund(rows[0]) if rows else None

    def get_refund(self, m_refund_id: str) -> RefundView:
        return self._reading(lambda conn: self._get_refund_in(conn, m_refund_id))

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

    def iter_refunds(self, *, since_ms: int | None = None, until_ms: int | None = None,
                     states: Collection[RefundState] | None = None,
                     provider: str | None = None) -> Iterator[RefundView]:
        """Refunds created in [since_ms, until_ms), oldest first, streamed (index
        refunds_created; a batch in memory at a time)."""
        where, args = created_filter(since_ms, until_ms, states, provider)
        sql = f"SELECT {_REFUND_COLUMNS} FROM refunds"  # noqa: S608
        if where:
            sql += " WHERE " + " AND ".join(where)
        sql += " ORDER BY created_ms, m_refund_id"
        return (_refund(r) for r in self._stream(sql, args))

    def pending_refunds(self) -> list[RefundView]:
        rows = self._read(
            # the partial index of the open refunds (schema.py), spelled as it is
            f"SELECT {_REFUND_COLUMNS} FROM refunds INDEXED BY refunds_open "  # noqa: S608
            "WHERE state = 'refunding' "
            "ORDER BY created_ms",
        )
        return [_refund(r) for r in rows]
