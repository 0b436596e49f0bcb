"""The checkout engine: the payment state machine of DESIGN.md over the durable journal.

    intent committed (fsync) -> the single send -> answer committed -> caller told
    no answer / unreadable -> UNKNOWN -> status queries on the same app_trans_id only

A charge is sent at most once per app_trans_id and never re-sent: every doubt is resolved by the
status query. `pay()` blocks; the UI runs it in a worker thread.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager

from pos_terminal.checkout import gateway, outcomes, recovery, refunds
from pos_terminal.checkout.errors import AnswerNotRecorded, CodeRefused
from pos_terminal.checkout.hooks import pause_point
from pos_terminal.checkout.polling import Deadline, intervals, wait_next
from pos_terminal.checkout.validation import (
    check_amount,
    check_code,
    check_description,
    check_items,
)
from pos_terminal.config import CheckoutSettings, Settings
from pos_terminal.journal import (
    FINAL_STATES,
    PENDING_STATES,
    Journal,
    JournalUnavailable,
    PaymentState,
    PaymentView,
    RefundView,
)
from pos_terminal.wallet.client import WalletClient
from pos_terminal.wallet.codes import mask_code
from pos_terminal.wallet.errors import NoAnswer, NotSent, ServiceRefused, UnreadableAnswer
from pos_terminal.wallet.ids import new_app_trans_id
from pos_terminal.wallet.messages import Item, QuickPayOrder

log = logging.getLogger(__name__)
S = PaymentState
_PREPARING = "(preparing)"  # a claimed code whose payment has no app_trans_id yet


def in_flight_message(masked_code: str, app_trans_id: str | None) -> str:
    where = f"in payment {app_trans_id}" if app_trans_id else "(its payment is being prepared)"
    return (
        f"This payment code ({masked_code}) is already being charged {where}. Wait for its "
        "result; do not charge again."
    )

Progress = Callable[[PaymentView], None]


class Checkout:
    def __init__(
        self,
        settings: Settings,
        client: WalletClient | None = None,
        journal: Journal | None = None,
        *,
        reconciles_in_background: bool = True,
    ) -> None:
        """`reconciles_in_background`: whether the program using this Checkout keeps resolving
        open payments itself (the UI does); a one-shot program (the CLI) passes False so that an
        open payment's message tells the reader to run `pos-terminal reconcile` instead."""
        self.settings = settings
        self.reconciles_in_background = reconciles_in_background
        self._owns_journal = journal is None
        self.journal = journal if journal is not None else Journal.open(settings.terminal.journal)
        self._owns_client = client is None
        try:
            self.client = client if client is not None else WalletClient(
                settings.service, user_ip=settings.terminal.user_ip or None)
        except BaseException:
            if self._owns_journal:
                self.journal.close()
            raise
        self._lock = threading.Lock()
        self._codes_in_flight: dict[str, str] = {}  # fingerprint -> app_trans_id
        self._rows_in_flight: set[str] = set()
        self._requests = 0  # quick pays, status queries, refunds: for reports and benchmarks

    # ---------------------------------------------------------------- helpers
    def count_request(self) -> None:
        with self._lock:
            self._requests += 1

    @property
    def requests_sent(self) -> int:
        """Service calls made by this Checkout (a status query counts once, retries or not)."""
        return self._requests

    @property
    def _cfg(self) -> CheckoutSettings:
        return self.settings.checkout

    @contextmanager
    def _following(self, app_trans_id: str) -> Iterator[None]:
        with self._lock:
            self._rows_in_flight.add(app_trans_id)
        try:
            yield
        finally:
            with self._lock:
                self._rows_in_flight.discard(app_trans_id)

    def validate_amount(self, amount: object) -> int:
        return check_amount(amount, self._cfg)

    @staticmethod
    def validate_code(code: object) -> str:
        return check_code(code)

    def _claim_code(self, code: str) -> str:
        """Refuse a code that is in flight or already charged; else mark it in flight."""
        fp = self.journal.fingerprint(code)
        now = self.journal.now()
        window_ms = self._cfg.code_reuse_window_s * 1000
        with self._lock:
            current = self._codes_in_flight.get(fp)
            if current is not None:
                known = current if current != _PREPARING else None
                raise CodeRefused(in_flight_message(mask_code(code), known), "in_flight", known)
            for p in self.journal.payments_with_code(code):
                if p.state in (S.SUCCEEDED, S.REFUNDED):
                    raise CodeRefused(
                        f"This payment code ({mask_code(code)}) was already charged on this "
                        f"terminal (payment {p.app_trans_id}). Ask the customer to show a fresh "
                        "code in the wallet app.",
                        "charged", p.app_trans_id,
                    )
                if p.state in PENDING_STATES:
                    if now - p.created_ms <= window_ms:
                        raise CodeRefused(
                            in_flight_message(mask_code(code), p.app_trans_id),
                            "in_flight", p.app_trans_id,
                        )
                    raise CodeRefused(
                        f"This payment code ({mask_code(code)}) belongs to payment "
                        f"{p.app_trans_id}, whose result is still unknown. Run pos-terminal "
                        "reconcile, and ask the customer to show a fresh code.",
                        "unresolved", p.app_trans_id,
                    )
            self._codes_in_flight[fp] = _PREPARING
        return fp

    def _release_code(self, fp: str) -> None:
        with self._lock:
            self._codes_in_flight.pop(fp, None)

    # ---------------------------------------------------------------- pay
    def pay(
        self,
        amount: int,
        payment_code: str,
        *,
        description: str = "",
        items: Sequence[Item] = (),
        on_progress: Progress | None = None,
        deadline_s: float | None = None,
        cancel: threading.Event | None = None,
    ) -> PaymentView:
        """Charge once and follow the payment until final, the deadline, or `cancel`.

        Raises InvalidPayment / FieldError / RsaKeyError / CodeRefused before anything is
        recorded or sent, and JournalUnavailable when the intent cannot be recorded (nothing
        sent; its subclass AnswerNotRecorded when the journal fails after the send). Every other
        outcome, including no answer at all, comes back as a PaymentView. A charge that could not
        even connect (NotSent) is FAILED at once: nothing reached the service.
        """
        deadline = Deadline.start(self._cfg.poll_deadline_s if deadline_s is None else deadline_s)
        amount = self.validate_amount(amount)
        code = self.validate_code(payment_code)
        description = check_description(description)
        items = check_items(items, amount)
        fp = self._claim_code(code)
        try:
            now = self.journal.now()
            app_trans_id = new_app_trans_id(self.settings.terminal.terminal_id, now)
            order = QuickPayOrder(
                app_trans_id=app_trans_id,
                app_user=self.settings.terminal.app_user,
                app_time=now,
                amount=amount,
                description=description,
                items=tuple(items),
            )
            prepared = self.client.build_quick_pay(order, code)
            with self._lock:
                self._codes_in_flight[fp] = app_trans_id
            view = self.journal.record_intent(
                app_trans_id=app_trans_id,
                amount=amount,
                generation=self.client.generation,
                description=description,
                items=[it.as_wire() for it in items],
                payment_code=code,
                payload_hash=prepared.payload_hash,
                message=outcomes.MSG_SENDING,
                now=now,
            )
            with self._following(app_trans_id):
                if on_progress is not None:
                    on_progress(view)
                pause_point("after_intent")
                try:
                    self.count_request()
                    result = self.client.send_quick_pay(prepared)
                except NotSent as exc:
                    pause_point("after_answer")
                    never_sent = outcomes.not_sent_message(exc.cause)
                    view = self._record_answer(
                        app_trans_id,
                        lambda: self.journal.transition(app_trans_id, S.FAILED,
                                                        message=never_sent),
                    )
                except (NoAnswer, UnreadableAnswer) as exc:
                    pause_point("after_answer")
                    unknown = outcomes.no_answer_message(exc.message)
                    view = self._record_answer(
                        app_trans_id,
                        lambda: self.journal.transition(app_trans_id, S.UNKNOWN, message=unknown),
                    )
                else:
                    pause_point("after_answer")
                    sent = view
                    view = self._record_answer(
                        app_trans_id,
                        lambda: outcomes.apply_payment_result(
                            self.journal, sent, result, from_query=False,
                            not_found_grace_s=self._cfg.not_found_grace_s,
                        ),
                    )
                if on_progress is not None:
                    on_progress(view)
                return self._follow(view, deadline, on_progress, cancel)
        finally:
            self._release_code(fp)

    @staticmethod
    def _record_answer(app_trans_id: str, commit: Callable[[], PaymentView]) -> PaymentView:
        """Commit the answer; if the journal fails now, the charge has left: say so."""
        try:
            return commit()
        except JournalUnavailable as exc:
            raise AnswerNotRecorded(
                f"Payment {app_trans_id} was sent, but its answer could not be recorded: "
                f"{exc.message} Its intent is in the journal: once the journal is fixed, run "
                "pos-terminal reconcile to learn the result. Do not charge again.",
                exc.reason, app_trans_id,
            ) from exc

    # ---------------------------------------------------------------- follow / status
    def follow(
        self,
        app_trans_id: str,
        deadline_s: float | None = None,
        on_progress: Progress | None = None,
        cancel: threading.Event | None = None,
    ) -> PaymentView:
        """Poll a pending payment until final, the deadline, or `cancel`."""
        deadline = Deadline.start(self._cfg.poll_deadline_s if deadline_s is None else deadline_s)
        view = self.journal.get(app_trans_id)
        with self._following(app_trans_id):
            return self._follow(view, deadline, on_progress, cancel)

    def _follow(
        self,
        view: PaymentView,
        deadline: Deadline,
        on_progress: Progress | None,
        cancel: threading.Event | None,
    ) -> PaymentView:
        schedule = intervals(self._cfg.poll_intervals_s)
        while view.state in PENDING_STATES and not view.needs_review:
            if not wait_next(deadline, schedule, cancel):
                break
            view = self.query_once(view)
            if on_progress is not None:
                on_progress(view)
        if view.state in PENDING_STATES and not view.needs_review:
            view = outcomes.stay(
                self.journal, view,
                outcomes.still_open_message(deadline.elapsed(), view.app_trans_id,
                                            background=self.reconciles_in_background),
                poll=False,
            )
            if on_progress is not None:
                on_progress(view)
        return view

    def query_once(self, view: PaymentView) -> PaymentView:
        """One status query for a pending payment, its answer committed."""
        try:
            self.count_request()
            result = self.client.query_status(view.app_trans_id)
        except (NoAnswer, UnreadableAnswer, ServiceRefused) as exc:
            return outcomes.stay(self.journal, view, outcomes.no_answer_message(exc.message))
        return outcomes.apply_payment_result(
            self.journal, view, result, from_query=True,
            not_found_grace_s=self._cfg.not_found_grace_s,
        )

    def status(self, app_trans_id: str) -> PaymentView:
        """The journal's view; a pending payment is asked about once first."""
        view = self.journal.get(app_trans_id)
        if view.state in PENDING_STATES and not self._too_old(view):
            view = self.query_once(view)
        return view

    def _too_old(self, view: PaymentView) -> bool:
        window_ms = self._cfg.status_query_window_h * 3_600_000
        return self.journal.now() - view.created_ms > window_ms

    # ---------------------------------------------------------------- recovery
    def recover(self, on_progress: Progress | None = None) -> recovery.ReconcileReport:
        """At start: resolve what a previous run left open (one pass, no waiting)."""
        return self.reconcile(on_progress=on_progress)

    def reconcile(
        self,
        on_progress: Progress | None = None,
        *,
        wait_s: float = 0.0,
        cancel: threading.Event | None = None,
    ) -> recovery.ReconcileReport:
        return recovery.reconcile(self, on_progress=on_progress, wait_s=wait_s, cancel=cancel)

    def rows_in_flight(self) -> frozenset[str]:
        with self._lock:
            return frozenset(self._rows_in_flight)

    # ---------------------------------------------------------------- refunds, overrides
    def refund(
        self, app_trans_id: str, amount: int | None = None, description: str = "",
        *, deadline_s: float | None = None, cancel: threading.Event | None = None,
    ) -> RefundView:
        return refunds.refund(self, app_trans_id, amount, description, deadline_s=deadline_s,
                      cancel=cancel)

    def refund_status(self, m_refund_id: str) -> RefundView:
        view = self.journal.get_refund(m_refund_id)
        if view.is_final:
            return view
        return refunds.query_refund_once(self, view)

    def override(
        self, app_trans_id: str, to_state: PaymentState, reason: str, who: str
    ) -> PaymentView:
        verb = "paid" if to_state is S.SUCCEEDED else "failed"
        return self.journal.override(
            app_trans_id, to_state, reason=reason, who=who,
            message=f"Marked {verb} by hand by {who.strip()}: {reason.strip()}",
        )

    # ---------------------------------------------------------------- gateway orders
    def create_gateway_order(
        self, amount: int, description: str = "", bank_code: str = ""
    ) -> gateway.GatewayOrderView:
        """Create a web-gateway order (the UI's Show QR), journaled like a quick pay; follow it
        with `follow()` until paid, cancelled or expired."""
        return gateway.create_gateway_order(self, amount, description, bank_code)

    # ---------------------------------------------------------------- misc
    def pending_count(self) -> int:
        return self.journal.pending_count()

    def close(self) -> None:
        if self._owns_client:
            self.client.close()
        if self._owns_journal:
            self.journal.close()

    def __enter__(self) -> Checkout:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


__all__ = ["FINAL_STATES", "Checkout"]
