"""`apply(subject, event, answer)`: the one way the checkout moves a payment or a refund.

The move is looked up in the table (journal/states.py) by the row's current state and the
event: a payment by a `PaymentEvent`, a refund (by its view) by a `RefundEvent` (mypy refuses
the other pairs; at run time the table has no move for them). A (state, event) the table does
not list is refused (IllegalTransition), and so is a
move whose guard does not hold (`Refused`, naming the guard). The row is then written by the
journal's writer for that kind of move, which checks the state again inside its own write
transaction (and the database's triggers, generated from the same table, refuse any other move
whoever writes).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import overload

from pos_terminal.base.reasons import Reason
from pos_terminal.journal.connection import _UNSET
from pos_terminal.journal.errors import IllegalTransition
from pos_terminal.journal.payments import PaymentRows
from pos_terminal.journal.refunds import RefundRows
from pos_terminal.journal.states import (
    PaymentEvent,
    PaymentMove,
    PaymentState,
    RefundEvent,
    RefundMove,
    move_for,
    sources_of,
)
from pos_terminal.journal.views import PaymentView, RefundView

E = PaymentEvent
S = PaymentState
RE = RefundEvent


@dataclass(frozen=True)
class Answer:
    """What the journal keeps of a wallet's answer: its codes, its words, the wallet's id (the
    zp_trans_id of a payment, the refund_id of a refund) and a gateway order's page."""

    return_code: int | None = None
    sub_return_code: int | None = None
    service_message: str = ""
    wallet_id: str | None = None
    order_url: str | None = None
    qr_code: str | None = None


#: Moves of the table made by the write that creates or completes something else: the reason
#: that says how (sentences/moves.py) and the writer's name.
_BY_THEIR_OWN_WRITE: dict[PaymentEvent | RefundEvent, tuple[str, str]] = {
    E.INTENT: ("move.with_the_row", "record_intent"),
    RE.INTENT: ("move.with_the_refund_row", "record_refund_intent"),
    E.REFUNDED_IN_FULL: ("move.by_the_last_refund", "refund_done"),
    RE.BY_SHOP: ("move.with_the_refund_row", "record_returned_by_shop"),
}


#: Events recorded as an event even when the row keeps its state: a two-step payment's hold,
#: and the capture or cancel recorded before it is sent (checkout/two_step.py).
_ON_THE_RECORD = frozenset({E.AUTHORISED, E.CAPTURE_SENT, E.VOID_SENT})


class Refused(IllegalTransition):
    """The table has the move but its guard does not hold: ``guard`` names it, ``detail`` says
    how (for "quiet": "owner_live", its sender still runs, or "grace", not quiet long enough)."""

    def __init__(self, message: Reason, guard: str, detail: str = "") -> None:
        super().__init__(message)
        self.guard = guard
        self.detail = detail


def _about(kind: str, subject: str, what: str, /, **params: object) -> Reason:
    """A refusal about payment or refund `subject` (``payment.<what>`` / ``refund.<what>``)."""
    if kind == "Payment":
        return Reason.of(f"payment.{what}", app_trans_id=subject, **params)
    return Reason.of(f"refund.{what}", m_refund_id=subject, **params)


def _no_move(kind: str, subject: str, state: str, event: str) -> IllegalTransition:
    return IllegalTransition(_about(kind, subject, "no_move", state=state, event=event))


def _own_write(kind: str, subject: str, event: PaymentEvent | RefundEvent) -> IllegalTransition:
    how, writer = _BY_THEIR_OWN_WRITE[event]
    return IllegalTransition(_about(kind, subject, "by_own_write", event=event.value,
                                    how=Reason.of(how), writer=writer))


class StateMachine(PaymentRows, RefundRows):
    """`apply`, over the journal's writers."""

    @overload
    def apply(self, subject: RefundView, event: RefundEvent, answer: Answer | None = ...,
              *, message: Reason | str, count_poll: bool = ..., release: bool = ...,
              grace_s: float = ..., reason: str = ..., who: str = ...,
              cashier_id: str | None = ...) -> RefundView: ...

    @overload
    def apply(self, subject: PaymentView | str, event: PaymentEvent,
              answer: Answer | None = ..., *, message: Reason | str, count_poll: bool = ...,
              release: bool = ..., grace_s: float = ..., reason: str = ..., who: str = ...,
              cashier_id: str | None = ...) -> PaymentView: ...

    def apply(self, subject: PaymentView | RefundView | str, event: PaymentEvent | RefundEvent,
              answer: Answer | None = None, *, message: Reason | str, count_poll: bool = False,
              release: bool = False, grace_s: float = 0.0, reason: str = "", who: str = "",
              cashier_id: str | None = None) -> PaymentView | RefundView:
        """Move `subject` (a payment, by view or app_trans_id, or a refund's view) by `event`.

        `answer`: the wallet's answer that caused it; `count_poll`: it answered a status query;
        `release`: end this process's lease on the row in the same write; `grace_s`: the quiet
        period of "never arrived"; `reason`, `who`, `cashier_id`: a person's decision.
        """
        if isinstance(subject, RefundView):
            if not isinstance(event, RefundEvent):
                raise _no_move("Refund", subject.m_refund_id, subject.state.value, str(event))
            return self._apply_refund(subject, event, answer, message=message, release=release,
                                      grace_s=grace_s)
        app_trans_id = subject if isinstance(subject, str) else subject.app_trans_id
        current = self.get(app_trans_id)
        if not isinstance(event, PaymentEvent):
            raise _no_move("Payment", app_trans_id, current.state.value, str(event))
        if event in _BY_THEIR_OWN_WRITE:
            raise _own_write("Payment", app_trans_id, event)
        overriding = event in (E.OVERRIDE_PAID, E.OVERRIDE_FAILED)
        move = move_for(current.state, event)
        if overriding and (move is None or _guard_fails(move, current)):
            # a person reads it: say which payments can be overridden (Refused names the guard)
            said = Reason.of("payment.not_overridable", app_trans_id=app_trans_id,
                             state=current.state.value)
            raise IllegalTransition(said) if move is None else Refused(said, move.guard)
        if move is None:
            raise _no_move("Payment", app_trans_id, current.state.value, event.value)
        _check_guard(move, current, app_trans_id)
        if overriding:  # "by_a_person": journal.override names what is missing
            return self.override(app_trans_id, move.target, reason=reason, who=who,
                                 message=message, cashier_id=cashier_id)
        got = answer or Answer()
        if event is E.NEVER_ARRIVED:
            view, verdict = self.conclude_never_arrived(
                app_trans_id, grace_s=grace_s, message=message, return_code=got.return_code,
                sub_return_code=got.sub_return_code, service_message=got.service_message,
                count_poll=count_poll)
            if verdict in ("owner_live", "grace"):
                raise Refused(_about("Payment", app_trans_id, "not_quiet", verdict=verdict),
                              "quiet", verdict)
            return view
        if event is E.MISFIT or event is E.LATE_REVIEW:
            return self.flag_answer(
                app_trans_id, message, return_code=got.return_code,
                sub_return_code=got.sub_return_code, service_message=got.service_message,
                zp_trans_id=got.wallet_id)
        if event is E.TOO_OLD:
            return self.flag_for_review(app_trans_id, message)
        if event is E.ABANDONED:
            return self.mark_abandoned(app_trans_id, message, cashier_id=cashier_id)
        if event is E.LATE_SUCCESS:
            return self.record_late_success(
                app_trans_id, message=message, return_code=got.return_code,
                sub_return_code=got.sub_return_code, service_message=got.service_message,
                zp_trans_id=got.wallet_id)
        record = event in _ON_THE_RECORD
        if answer is None:
            return self.transition(app_trans_id, move.target, message=message,
                                   count_poll=count_poll, release=release,
                                   allowed_from=sources_of(event), record=record)
        return self.transition(
            app_trans_id, move.target, message=message, return_code=answer.return_code,
            sub_return_code=answer.sub_return_code, service_message=answer.service_message,
            zp_trans_id=_UNSET if answer.wallet_id is None else answer.wallet_id,
            order_url=_UNSET if answer.order_url is None else answer.order_url,
            qr_code=_UNSET if answer.qr_code is None else answer.qr_code,
            count_poll=count_poll, release=release,
            allowed_from=sources_of(event), record=record)

    def _apply_refund(self, subject: RefundView, event: RefundEvent, answer: Answer | None, *,
                      message: Reason | str, release: bool, grace_s: float) -> RefundView:
        current = self.get_refund(subject.m_refund_id)
        if event in _BY_THEIR_OWN_WRITE:
            raise _own_write("Refund", current.m_refund_id, event)
        move = move_for(current.state, event)
        if move is None:
            raise _no_move("Refund", current.m_refund_id, current.state.value, event.value)
        _check_guard(move, current, current.m_refund_id)
        if event is RE.TOO_OLD:
            return self.flag_refund_for_review(current.m_refund_id, message)
        if event is RE.NEVER_ARRIVED:
            verdict = self.refund_never_arrived_allowed(current.m_refund_id, grace_s)
            if verdict in ("owner_live", "grace"):
                raise Refused(_about("Refund", current.m_refund_id, "not_quiet", verdict=verdict),
                              "quiet", verdict)
        if answer is None:
            return self.refund_transition(current.m_refund_id, move.target, message=message,
                                          release=release)
        return self.refund_transition(
            current.m_refund_id, move.target, message=message, return_code=answer.return_code,
            sub_return_code=answer.sub_return_code, service_message=answer.service_message,
            refund_id=_UNSET if answer.wallet_id is None else answer.wallet_id, release=release)


def _guard_fails(move: PaymentMove | RefundMove, current: PaymentView | RefundView) -> bool:
    """Whether a guard the row's own fields decide does not hold (the "quiet" guard is the
    lease's: see apply; "by_a_person" and "whole_amount" are checked by their writers, and so
    is the reason and name of "review_by_a_person": `Journal.override`)."""
    failed = {"not_flagged": current.needs_review}
    if isinstance(current, PaymentView):
        failed.update({
            "not_late": current.late,
            "not_abandoned": current.abandoned,
            "left_for_review": not current.needs_review,
            "review_by_a_person": not current.needs_review,
            "charged_late": not current.charged_late,
        })
    return failed.get(move.guard, False)


def _check_guard(move: PaymentMove | RefundMove, current: PaymentView | RefundView,
                 subject: str) -> None:
    if _guard_fails(move, current):
        kind = "Payment" if isinstance(current, PaymentView) else "Refund"
        raise Refused(_about(kind, subject, "guard", state=current.state.value,
                             event=move.event.value, guard=move.guard), move.guard)
