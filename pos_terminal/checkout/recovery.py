"""Recovery and reconciliation: every unresolved row is resolved by status queries, never by
sending anything again. Rows too old for a status query are flagged for review, not guessed."""

from __future__ import annotations

import threading
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from contextlib import suppress
from dataclasses import dataclass

from pos_terminal.base.reasons import Reason
from pos_terminal.checkout import outcomes
from pos_terminal.checkout.polling import Deadline, intervals, wait_next
from pos_terminal.checkout.ports import CheckoutContext, RecoveryJournal
from pos_terminal.journal import (
    PENDING_STATES,
    IllegalTransition,
    PaymentEvent,
    PaymentView,
    RefundEvent,
    RefundView,
)

#: How long after "never reached the service" a payment is still asked about, in case its charge
#: lands late: the service refuses an order whose app_time is more than 15 minutes away from its
#: clock, so 20 minutes covers it with a margin.
LATE_CHECK_WINDOW_MS = 20 * 60 * 1000
E = PaymentEvent
RE = RefundEvent


def too_old(window_h: float) -> Reason:
    return Reason.of("review.too_old", hours=f"{window_h:g}")


@dataclass(frozen=True)
class ReconcileReport:
    checked: int
    resolved: int
    still_open: int
    flagged: int
    late: int
    refunds_checked: int
    refunds_resolved: int
    requests: int
    payments: tuple[PaymentView, ...]
    refunds: tuple[RefundView, ...]

    def to_json(self) -> dict[str, object]:
        return {
            "checked": self.checked,
            "resolved": self.resolved,
            "still_open": self.still_open,
            "needs_review": self.flagged,
            "late": self.late,
            "refunds_checked": self.refunds_checked,
            "refunds_resolved": self.refunds_resolved,
            "requests": self.requests,
            "payments": [p.to_json() for p in self.payments],
            "refunds": [r.to_json() for r in self.refunds],
        }


def reconcile(
    co: CheckoutContext[RecoveryJournal],
    *,
    on_progress: Callable[[PaymentView], None] | None = None,
    wait_s: float = 0.0,
    cancel: threading.Event | None = None,
    workers: int = 4,
) -> ReconcileReport:
    """One pass over every unresolved payment and refund; with `wait_s` > 0, keep passing over
    those still open (on the poll schedule) until they settle or `wait_s` runs out."""
    from pos_terminal.checkout.refunds import query_refund_once

    journal = co.journal
    cfg = co.settings.checkout
    deadline = Deadline.start(wait_s)
    requests_before = co.requests_sent
    skip = co.rows_in_flight()
    payments = [p for p in journal.pending() if p.app_trans_id not in skip]
    refunds = journal.pending_refunds()
    payment_ids = [p.app_trans_id for p in payments]
    refund_ids = [r.m_refund_id for r in refunds]
    window_ms = cfg.status_query_window_h * 3_600_000
    flagged = 0
    schedule = intervals(cfg.poll_intervals_s)

    def one(p: PaymentView) -> PaymentView:
        view = co.query_once(p)
        if on_progress is not None:
            on_progress(view)
        return view

    with ThreadPoolExecutor(max_workers=max(1, workers)) as pool:
        while payments or refunds:
            now = journal.now()
            due: list[PaymentView] = []
            for p in payments:
                if p.needs_review:
                    continue
                if now - p.created_ms > window_ms:
                    with suppress(IllegalTransition):  # settled or flagged meanwhile
                        journal.apply(p, E.TOO_OLD, message=too_old(cfg.status_query_window_h))
                    flagged += 1
                else:
                    due.append(p)
            payments = [v for v in pool.map(one, due) if v.state in PENDING_STATES]
            still: list[RefundView] = []
            for r in refunds:
                if r.needs_review:
                    continue
                if now - r.created_ms > window_ms:
                    with suppress(IllegalTransition):
                        journal.apply(r, RE.TOO_OLD,
                                      message=too_old(cfg.status_query_window_h))
                    continue
                view = query_refund_once(co, r)
                if not view.is_final:
                    still.append(view)
            refunds = still
            if not (payments or refunds) or (cancel is not None and cancel.is_set()):
                break
            if not wait_next(deadline, schedule, cancel):
                break

    # Payments concluded "never reached the service" (or a closed shop QR) lately are asked
    # about once more: a charge that landed late after all is a late success, never dropped.
    for p in journal.failed_since(journal.now() - LATE_CHECK_WINDOW_MS):
        if not outcomes.may_land_late(p):
            continue
        if p.app_trans_id in skip or p.app_trans_id in payment_ids:
            continue
        rechecked = co.query_once(p)
        # listed (and published by the counter) when the answer changed it: a row flagged
        # already, asked again with nothing new, is not news at every pass
        if rechecked.updated_ms != p.updated_ms and (rechecked.late or rechecked.needs_review):
            payment_ids.append(rechecked.app_trans_id)
            if on_progress is not None:
                on_progress(rechecked)

    from pos_terminal.checkout import late_charges

    for refund_id in refund_ids:
        late_charges.after_return(co, journal.get_refund(refund_id))
    for returned in late_charges.sweep(co):
        if returned.app_trans_id not in payment_ids:
            payment_ids.append(returned.app_trans_id)
    final_payments = tuple(journal.get(i) for i in payment_ids)
    final_refunds = tuple(journal.get_refund(i) for i in refund_ids)
    return ReconcileReport(
        checked=len(final_payments),
        resolved=sum(1 for p in final_payments if p.is_final),
        still_open=sum(1 for p in final_payments if not p.is_final),
        flagged=sum(1 for p in final_payments if p.needs_review) or flagged,
        late=sum(1 for p in final_payments if p.late),
        refunds_checked=len(final_refunds),
        refunds_resolved=sum(1 for r in final_refunds if r.is_final),
        requests=co.requests_sent - requests_before,
        payments=final_payments,
        refunds=final_refunds,
    )
