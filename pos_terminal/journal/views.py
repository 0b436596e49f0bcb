"""Read-only snapshots of journal rows, handed to the engine, the CLI and the UI."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from pos_terminal.base.clock import format_stamp
from pos_terminal.base.reasons import Reason, render
from pos_terminal.base.wallet_types import FIRST_PROVIDER
from pos_terminal.journal.states import FINAL_STATES, REFUND_FINAL_STATES, PaymentState, RefundState

#: the reasons of a payment a person kept as the sale's payment by an override to paid
KEPT_BY_HAND = frozenset({"override.paid", "override.rest_collected"})


class _Said:
    """A row's reason, and its sentence in the current language when it is read."""

    why: Reason

    @property
    def message(self) -> str:
        return render(self.why)


@dataclass(frozen=True)
class PaymentView(_Said):
    app_trans_id: str
    state: PaymentState
    amount: int
    description: str
    return_code: int | None
    why: Reason  # what the terminal says about it (`message`: in the current language)
    service_message: str
    zp_trans_id: str | None
    code_last4: str | None
    created_ms: int
    updated_ms: int
    polls: int
    refunded_amount: int
    needs_review: bool
    kind: str = "quick_pay"
    generation: str = "v2"
    sub_return_code: int | None = None
    submitted_ms: int | None = None
    order_url: str | None = None
    qr_code: str | None = None
    items_json: str = "[]"
    z_number: int | None = None
    late: bool = False  # succeeded after the terminal had concluded failed
    cashier_id: str | None = None
    abandoned: bool = False  # the cashier stopped waiting while its outcome was unknown
    sale_ref: str | None = None  # the sale system's own reference (Terminal API, PAY REF=)
    provider: str = FIRST_PROVIDER  # the wallet that charged it (its service queries, refunds)

    @property
    def charged_late(self) -> bool:
        """Charged after the terminal said failed or after the cashier gave up waiting."""
        paid = self.state in (PaymentState.SUCCEEDED, PaymentState.REFUNDED)
        return paid and (self.late or self.abandoned)

    @property
    def late_not_kept(self) -> bool:
        """Charged late, and not kept by a person as the sale's payment (an override to paid
        after review, reason ``override.paid``, or ``override.rest_collected``: a shop QR paid
        in part, its rest collected another way): not the sale's money (the outcome rule's
        `late`, checkout/verdict.py)."""
        return self.charged_late and self.why.code not in KEPT_BY_HAND

    @property
    def is_final(self) -> bool:
        return self.state in FINAL_STATES

    @property
    def refundable_amount(self) -> int:
        """What is left to refund, not counting refunds still in flight."""
        if self.state is not PaymentState.SUCCEEDED:
            return 0
        return self.amount - self.refunded_amount

    def to_json(self) -> dict[str, Any]:
        return {
            "state": self.state.value,
            "app_trans_id": self.app_trans_id,
            "amount": self.amount,
            "return_code": self.return_code,
            "message": self.message,
            "reason_code": self.why.code,
            "reason_params": dict(self.why.params),
            "provider_trans_id": self.zp_trans_id,
            "zp_trans_id": self.zp_trans_id,  # its old name, kept for integrators
            "sub_return_code": self.sub_return_code,
            "service_message": self.service_message,
            "description": self.description,
            "items": json.loads(self.items_json),
            "kind": self.kind,
            "generation": self.generation,
            "code_last4": self.code_last4,
            "refunded_amount": self.refunded_amount,
            "needs_review": self.needs_review,
            "late": self.charged_late,  # charged after the sale was given up (even if returned)
            "abandoned": self.abandoned,
            "polls": self.polls,
            "created_ms": self.created_ms,
            "submitted_ms": self.submitted_ms,
            "updated_ms": self.updated_ms,
            "created_vn": format_stamp(self.created_ms),
            "submitted_vn": format_stamp(self.submitted_ms) or None,
            "updated_vn": format_stamp(self.updated_ms),
            "order_url": self.order_url,
            "qr_code": self.qr_code,
            "z_number": self.z_number,
            "cashier_id": self.cashier_id,
            "sale_ref": self.sale_ref,
            "provider": self.provider,
        }


@dataclass(frozen=True)
class RefundView(_Said):
    m_refund_id: str
    app_trans_id: str
    amount: int
    description: str
    state: RefundState
    return_code: int | None
    sub_return_code: int | None
    why: Reason
    service_message: str
    refund_id: str | None
    request_ms: int
    created_ms: int
    updated_ms: int
    needs_review: bool
    z_number: int | None = None
    cashier_id: str | None = None  # the cashier who asked for it (reports count it for them)
    auto: bool = False  # the automatic return of a late charge
    authorised_by: str | None = None  # the supervisor whose PIN allowed it (None: no supervisor)
    refund_ref: str | None = None  # the sale system's own reference (Terminal API)
    provider: str = FIRST_PROVIDER  # its payment's wallet, which refunds it

    @property
    def is_final(self) -> bool:
        return self.state in REFUND_FINAL_STATES

    def to_json(self) -> dict[str, Any]:
        return {
            "state": self.state.value,
            "m_refund_id": self.m_refund_id,
            "app_trans_id": self.app_trans_id,
            "amount": self.amount,
            "return_code": self.return_code,
            "sub_return_code": self.sub_return_code,
            "message": self.message,
            "reason_code": self.why.code,
            "reason_params": dict(self.why.params),
            "service_message": self.service_message,
            "refund_id": self.refund_id,
            "description": self.description,
            "needs_review": self.needs_review,
            "auto": self.auto,
            "created_ms": self.created_ms,
            "updated_ms": self.updated_ms,
            "created_vn": format_stamp(self.created_ms),
            "updated_vn": format_stamp(self.updated_ms),
            "z_number": self.z_number,
            "cashier_id": self.cashier_id,
            "authorised_by": self.authorised_by,
            "refund_ref": self.refund_ref,
            "provider": self.provider,
        }


@dataclass(frozen=True)
class EventView(_Said):
    id: int
    app_trans_id: str
    m_refund_id: str | None
    time_ms: int
    kind: str
    from_state: str | None
    to_state: str
    return_code: int | None
    sub_return_code: int | None
    why: Reason
    reason: str | None
    who: str | None
    cashier_id: str | None = None

    def to_json(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "app_trans_id": self.app_trans_id,
            "m_refund_id": self.m_refund_id,
            "time_ms": self.time_ms,
            "time_vn": format_stamp(self.time_ms),
            "kind": self.kind,
            "from": self.from_state,
            "to": self.to_state,
            "return_code": self.return_code,
            "sub_return_code": self.sub_return_code,
            "message": self.message,
            "reason_code": self.why.code,
            "reason_params": dict(self.why.params),
            "reason": self.reason,
            "who": self.who,
            "cashier_id": self.cashier_id,
        }
