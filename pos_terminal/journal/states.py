"""Payment and refund states and the only moves allowed between them.

The table is the state machine of DESIGN.md. It lives here, beside the storage, so that the journal
itself refuses a backward move whoever asks for it (engine, reconcile, another process).
"""

from __future__ import annotations

from enum import StrEnum


class PaymentState(StrEnum):
    NEW = "new"
    SUBMITTING = "submitting"
    PROCESSING = "processing"
    SUCCEEDED = "succeeded"
    FAILED = "failed"
    UNKNOWN = "unknown"
    REFUNDING = "refunding"
    REFUNDED = "refunded"


S = PaymentState

#: Moves a payment row may make. A payment row is born SUBMITTING (the intent, NEW -> SUBMITTING).
#: SUCCEEDED -> REFUNDED happens when refunds add up to the whole amount; a partial refund keeps the
#: payment SUCCEEDED and raises its refunded_amount (refund rows carry REFUNDING themselves).
PAYMENT_TRANSITIONS: dict[PaymentState, frozenset[PaymentState]] = {
    S.NEW: frozenset({S.SUBMITTING}),
    S.SUBMITTING: frozenset({S.PROCESSING, S.SUCCEEDED, S.FAILED, S.UNKNOWN}),
    S.UNKNOWN: frozenset({S.PROCESSING, S.SUCCEEDED, S.FAILED}),
    S.PROCESSING: frozenset({S.SUCCEEDED, S.FAILED, S.UNKNOWN}),
    S.SUCCEEDED: frozenset({S.REFUNDED}),
    S.FAILED: frozenset(),
    S.REFUNDING: frozenset(),
    S.REFUNDED: frozenset(),
}

#: Moves of a refund row: born REFUNDING, ends REFUNDED or FAILED.
REFUND_TRANSITIONS: dict[PaymentState, frozenset[PaymentState]] = {
    S.REFUNDING: frozenset({S.REFUNDED, S.FAILED}),
    S.REFUNDED: frozenset(),
    S.FAILED: frozenset(),
}

#: States in which nothing more will ever happen to the charge itself (a SUCCEEDED payment can
#: still be refunded, but its charge is settled).
FINAL_STATES: frozenset[PaymentState] = frozenset({S.SUCCEEDED, S.FAILED, S.REFUNDED})

#: States a payment row waits in until a status query (or an override) settles it.
PENDING_STATES: frozenset[PaymentState] = frozenset({S.SUBMITTING, S.PROCESSING, S.UNKNOWN})

#: What a manual override may set (after checking the merchant portal).
OVERRIDE_TARGETS: frozenset[PaymentState] = frozenset({S.SUCCEEDED, S.FAILED})


def can_move(current: PaymentState, target: PaymentState, *, refund: bool = False) -> bool:
    table = REFUND_TRANSITIONS if refund else PAYMENT_TRANSITIONS
    return target in table.get(current, frozenset())
