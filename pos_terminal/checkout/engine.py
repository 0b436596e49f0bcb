"""The checkout engine: the payment state machine (journal/states.py) over the durable journal.

    intent committed (fsync) -> the single send -> answer committed -> caller told
    no answer / unreadable -> UNKNOWN -> status queries on the same app_trans_id only

A charge is sent at most once per app_trans_id and never re-sent: every doubt is resolved by the
status query. `pay()` blocks; the UI runs it in a worker thread.
"""

from __future__ import annotations

import logging
import math
import threading
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager, suppress

from pos_terminal.base.codes import mask_code
from pos_terminal.base.reasons import Reason
from pos_terminal.base.wallet_errors import (
    MismatchedAnswer,
    NoAnswer,
    NotSent,
    ServiceRefused,
    UnreadableAnswer,
)
from pos_terminal.base.wallet_types import (
    ChargeAnswer,
    Item,
    Order,
    PreparedCharge,
    WalletOutcome,
)
from pos_terminal.checkout import (
    gateway,
    late_charges,
    outcomes,
    part_overrides,
    recovery,
    refunds,
    two_step,
)
from pos_terminal.checkout.answer_checks import other_order
from pos_terminal.checkout.errors import AnswerNotRecorded, CodeRefused, Stopped, mark_intent
from pos_terminal.checkout.hooks import pause_point
from pos_terminal.checkout.polling import Deadline, intervals, wait_next
from pos_terminal.checkout.ports import CheckoutJournal, WalletPort
from pos_terminal.checkout.providers import Providers
from pos_terminal.checkout.recovery import LATE_CHECK_WINDOW_MS
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
    CodeClaimed,
    IllegalTransition,
    Journal,
    JournalError,
    JournalUnavailable,
    PaymentEvent,
    PaymentState,
    PaymentView,
    RefundView,
    SaleRefTaken,
)

log = logging.getLogger(__name__)
S = PaymentState
E = PaymentEvent
_PREPARING = "(preparing)"  # a claimed code whose payment has no app_trans_id yet


def in_flight(masked_code: str, app_trans_id: str | None) -> Reason:
    return Reason.of("refused.code_in_flight", code=masked_code, app_trans_id=app_trans_id)

Progress = Callable[[PaymentView], None]

#: A sender's lease covers its request (connect + read timeout) plus this margin; it only matters
#: to a process that cannot see the sender (another pid namespace): a visible, running sender
#: keeps its lease however long it takes (journal/lease.py).
LEASE_MARGIN_S = 5.0

def unexpected(exc: BaseException) -> Reason:
    return Reason.of("unknown.unexpected", error=type(exc).__name__)


def refusal(masked: str, reason: str, app_trans_id: str | None) -> Reason:
    """Why a payment code is refused: "charged", "in_flight" or "unresolved"."""
    return Reason.of(f"refused.code_{reason}", code=masked, app_trans_id=app_trans_id)


class Checkout:
    def __init__(
        self,
        settings: Settings,
        client: WalletPort | Providers,
        journal: CheckoutJournal | None = None,
        *,
        owns_client: bool = False,
    ) -> None:
        """`client`: the wallet providers (counter.open_checkout makes the configured ones), or
        one provider alone; `owns_client`: closed with this Checkout. `journal`: None opens the
        configured one."""
        self.settings = settings
        self._owns_journal = journal is None
        self.journal: CheckoutJournal = (
            journal if journal is not None
            else Journal.open(settings.terminal.journal, private=settings.private_files,
                              busy_timeout_s=settings.terminal.journal_wait_s))
        self._owns_client = owns_client
        self.providers = client if isinstance(client, Providers) else Providers.single(client)
        #: The default provider (the first configured): hosted orders, bank lists.
        self.client: WalletPort = self.providers.default.wallet
        self.default_provider = self.providers.default.name
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

    def client_for(self, provider: str) -> WalletPort:
        """The client of a row's own provider: its queries and refunds go nowhere else."""
        return self.providers.wallet(provider)

    def lease_ttl_ms(self, provider: str | None = None) -> int:
        """How long a sender holds a row of `provider` (None: of any wallet this counter
        takes): that wallet's longest request and a margin, so no other process takes over
        a payment whose answer may still come."""
        request_s = (self.settings.longest_request_s if provider is None
                     else self.settings.request_s(provider))
        seconds = request_s + LEASE_MARGIN_S
        if not math.isfinite(seconds) or seconds <= 0:
            seconds = 600.0
        return int(seconds * 1000)

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
                raise CodeRefused(in_flight(mask_code(code), known), "in_flight", known)
            for p in self.journal.payments_with_code(code):
                reason = None
                if p.state in (S.SUCCEEDED, S.REFUNDED):
                    reason = "charged"
                elif p.state in PENDING_STATES:
                    reason = "in_flight" if now - p.created_ms <= window_ms else "unresolved"
                if reason is not None:
                    raise CodeRefused(refusal(mask_code(code), reason, p.app_trans_id),
                                      reason, p.app_trans_id)
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
        stop: threading.Event | None = None,
        cashier_id: str | None = None,
        sale_ref: str | None = None,
        provider: str | None = None,
    ) -> PaymentView:
        """Charge once and follow the payment until final, the deadline, or `cancel`.

        `provider` names the wallet (None: the one whose code pattern the code matches, or the
        only one); a code no wallet or several wallets match raises WalletChoiceNeeded and an
        unknown name UnknownProvider, before anything is recorded or sent.

        `stop` (a signal to the CLI): set before the intent, raises Stopped (nothing recorded or
        sent); set after the intent but before the send, the payment is not sent (FAILED).
        `cancel` only ends the waiting: the payment is still sent and followed elsewhere.
        `cashier_id` is journaled with the payment (who took it; None: nobody signed in).
        `sale_ref` (the sale system's reference) is recorded with the intent, in its
        transaction: a sale that has a payment already raises SaleRefTaken before the code is
        claimed or anything is written or sent (the caller answers with that payment).

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
        chosen = self.providers.route(code, provider)
        client = chosen.wallet
        if sale_ref is not None:
            taken = self.journal.find_by_sale_ref(sale_ref)
            if taken is not None:
                raise SaleRefTaken(sale_ref, taken.app_trans_id)
        fp = self._claim_code(code)
        try:
            now = self.journal.now()
            app_trans_id = client.new_order_id(now)
            order = Order(order_id=app_trans_id, amount=amount, created_ms=now,
                          customer=self.settings.terminal.app_user, description=description,
                          items=tuple(items))
            prepared = client.prepare_charge(order, code)
            with self._lock:
                self._codes_in_flight[fp] = app_trans_id
            if stop is not None and stop.is_set():
                raise Stopped(Reason.of("stopped.before_intent"))
            try:
                view = self.journal.record_intent(
                    app_trans_id=app_trans_id,
                    amount=amount,
                    generation=client.generation,
                    description=description,
                    items=[it.as_wire() for it in items],
                    payment_code=code,
                    payload_hash=prepared.payload_hash,
                    message=outcomes.SENDING,
                    now=now,
                    lease_ttl_ms=self.lease_ttl_ms(chosen.name),
                    cashier_id=cashier_id,
                    code_window_ms=self._cfg.code_reuse_window_s * 1000,
                    sale_ref=sale_ref,
                    provider=chosen.name,
                )
            except CodeClaimed as exc:  # another process claimed this code first
                raise CodeRefused(refusal(mask_code(code), exc.reason, exc.app_trans_id),
                                  exc.reason, exc.app_trans_id) from None
            try:
                with self._following(app_trans_id):
                    if on_progress is not None:
                        on_progress(view)
                    pause_point("after_intent")
                    if stop is not None and stop.is_set():
                        view = self._not_sent(app_trans_id, Reason.of("not_sent.stopped"))
                    elif not self.journal.claim_send(app_trans_id,
                                                     self.lease_ttl_ms(chosen.name)):
                        view = self._not_sent(app_trans_id, Reason.of("not_sent.lease_lost"))
                    else:
                        pause_point("before_send")
                        view = self._send(view, prepared)
                    if on_progress is not None:
                        on_progress(view)
                    view = self._follow(view, deadline, on_progress, cancel)
                    # abandoned meanwhile (the cashier gave up while the send was still waiting)
                    return late_charges.settle(self, view)
            except BaseException as exc:  # what escapes names its own payment (parallel pays)
                mark_intent(exc, app_trans_id)
                raise
        finally:
            self._release_code(fp)

    def _not_sent(self, app_trans_id: str, message: Reason) -> PaymentView:
        """The intent is recorded but this process did not send it (and never will)."""
        try:
            return self.journal.apply(app_trans_id, E.NOT_SENT, message=message, release=True)
        except IllegalTransition:  # another process settled it meanwhile: keep its verdict
            self.journal.release(app_trans_id)
            return self.journal.get(app_trans_id)

    def _settle_own(self, app_trans_id: str, event: PaymentEvent, message: Reason
                    ) -> PaymentView:
        """Record how this process's own send ended, releasing its lease in the same
        transaction; if another process has settled the payment meanwhile (a status query found
        it paid while this send waited), its verdict stands."""
        try:
            return self.journal.apply(app_trans_id, event, message=message, release=True)
        except IllegalTransition:
            self.journal.release(app_trans_id)
            return self.journal.get(app_trans_id)

    def _send(self, view: PaymentView, prepared: PreparedCharge) -> PaymentView:
        """The single send, its answer committed with the release of this process's lease."""
        app_trans_id = view.app_trans_id
        j = self.journal
        try:
            self.count_request()
            result = self.client_for(view.provider).send_charge(prepared)
        except NotSent as exc:
            pause_point("after_answer")
            never_sent = outcomes.not_sent(exc.cause)
            return self._record_answer(app_trans_id, lambda: self._settle_own(
                app_trans_id, E.DECLINED, never_sent))
        except MismatchedAnswer as exc:
            pause_point("after_answer")
            text = other_order(app_trans_id, exc.why)
            return self._record_answer(app_trans_id, lambda: outcomes.needs_review(j, view, text))
        except (NoAnswer, UnreadableAnswer) as exc:
            pause_point("after_answer")
            unknown = outcomes.no_answer(exc.why)
            return self._record_answer(app_trans_id, lambda: self._settle_own(
                app_trans_id, E.NO_ANSWER, unknown))
        except Exception as exc:
            log.exception("unexpected error sending payment %s", app_trans_id)
            text = unexpected(exc)
            return self._record_answer(app_trans_id, lambda: self._settle_own(
                app_trans_id, E.NO_ANSWER, text))
        except BaseException:
            # KeyboardInterrupt and the like: record what is known before going.
            try:
                j.apply(app_trans_id, E.NO_ANSWER, message=outcomes.no_answer(
                    "the terminal was interrupted while sending"), release=True)
            except Exception:
                log.exception("could not record the interruption of %s", app_trans_id)
            raise
        pause_point("after_answer")
        try:
            view = self._record_answer(app_trans_id, lambda: outcomes.apply_payment_result(
                j, view, result, from_query=False,
                not_found_grace_s=self._cfg.not_found_grace_s, release=True,
            ))
        finally:
            with suppress(JournalError):  # a no-op once the answer's commit released it
                j.release(app_trans_id)
        if result.outcome is WalletOutcome.AUTHORISED:
            return two_step.conclude(self, view)
        return view

    @staticmethod
    def _record_answer(app_trans_id: str, commit: Callable[[], PaymentView]) -> PaymentView:
        """Commit the answer; if the journal fails now, the charge has left: say so."""
        try:
            return commit()
        except JournalUnavailable as exc:
            raise AnswerNotRecorded(
                Reason.of("unknown.answer_not_recorded", app_trans_id=app_trans_id,
                          error=exc.why),
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
                outcomes.still_open(deadline.elapsed(), view.app_trans_id),
                poll=False,
            )
            if on_progress is not None:
                on_progress(view)
        return view

    def query_once(self, view: PaymentView) -> PaymentView:
        """One status query for a payment, its answer committed (for a row concluded FAILED:
        only a success changes it, as a late success)."""
        try:
            self.count_request()
            result = self.client_for(view.provider).query_charge(view.app_trans_id, view.amount)
        except MismatchedAnswer as exc:
            if view.is_final:
                return self.journal.get(view.app_trans_id)
            return outcomes.needs_review(self.journal, view,
                                         other_order(view.app_trans_id, exc.why))
        except (NoAnswer, NotSent, UnreadableAnswer, ServiceRefused) as exc:
            if view.is_final:
                return self.journal.get(view.app_trans_id)
            return outcomes.stay(self.journal, view, outcomes.no_answer(exc.why))
        except Exception as exc:
            log.exception("unexpected error querying %s", view.app_trans_id)
            if view.is_final:
                return self.journal.get(view.app_trans_id)
            return outcomes.stay(self.journal, view, unexpected(exc))
        return self._take_answer(view, result)

    def _take_answer(self, view: PaymentView, result: ChargeAnswer) -> PaymentView:
        """Commit a status answer about `view` (query_once's, or an override's)."""
        if view.is_final:
            after = outcomes.recheck_final(self.journal, view, result)
            if result.outcome is WalletOutcome.AUTHORISED:
                two_step.release_if_held(self, after)
        else:
            after = outcomes.apply_payment_result(
                self.journal, view, result, from_query=True,
                not_found_grace_s=self._cfg.not_found_grace_s,
            )
            if result.outcome is WalletOutcome.AUTHORISED:
                after = two_step.conclude(self, after)
        if view.state is S.SUCCEEDED:  # not a success of this query: a person may have decided
            return after
        return late_charges.settle(self, after)

    def status(self, app_trans_id: str) -> PaymentView:
        """The journal's view; a pending payment, or one concluded "never reached the service"
        not long ago, is asked about once first."""
        view = self.journal.get(app_trans_id)
        open_row = view.state in PENDING_STATES and not view.needs_review
        if (open_row and not self._too_old(view)) or self._may_land_late(view):
            view = self.query_once(view)
        return view

    def recheck(self, app_trans_id: str) -> PaymentView:
        """Its wallet says something happened to this payment (a notice, checked by the wallet,
        never believed by itself): one status query of an open row or of a FAILED one, however
        old, so money that reached a QR given up, cancelled or expired is found at once as a
        late payment (only a success or money that arrived changes a FAILED row, and a row a
        person settled only if more arrived since: outcomes.recheck_final). A row paid or
        refunded already has nothing a notice can add, and an open row flagged for review is a
        person's to decide: both are left as they are, nothing asked (a notice sent again and
        again makes no request for them)."""
        view = self.journal.get(app_trans_id)
        if (view.is_final and view.state is not S.FAILED) or (
                view.needs_review and not view.is_final):
            return view
        return self.query_once(view)

    def _may_land_late(self, view: PaymentView) -> bool:
        """Concluded "never reached the service" recently enough that the charge could still
        land (the service refuses an order whose app_time is more than 15 min old)."""
        if view.late or not outcomes.never_arrived(view):
            return False
        return self.journal.now() - view.updated_ms <= LATE_CHECK_WINDOW_MS

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

    def abandon(self, app_trans_id: str, *, cashier_id: str | None = None) -> PaymentView:
        """The cashier gives up waiting (late_charges.abandon)."""
        return late_charges.abandon(self, app_trans_id, cashier_id=cashier_id)

    def rows_in_flight(self) -> frozenset[str]:
        with self._lock:
            return frozenset(self._rows_in_flight)

    # ---------------------------------------------------------------- refunds, overrides
    def refund(
        self, app_trans_id: str, amount: int | None = None, description: str = "",
        *, deadline_s: float | None = None, cancel: threading.Event | None = None,
        cashier_id: str | None = None, authorised_by: str | None = None,
        refund_ref: str | None = None,
    ) -> RefundView:
        """`cashier_id` asked for it (None: the payment's cashier), `authorised_by` is the
        supervisor whose PIN was checked (None: no supervisor is set up)."""
        return refunds.refund(self, app_trans_id, amount, description, deadline_s=deadline_s,
                              cancel=cancel, cashier_id=cashier_id, authorised_by=authorised_by,
                              refund_ref=refund_ref)

    def returned_by_shop(
        self, app_trans_id: str, amount: int | None, *, wallet: str, reason: str, who: str,
        cashier_id: str | None = None, authorised_by: str | None = None,
    ) -> RefundView:
        """Record money the shop returned by its own transfer (refunds.returned_by_shop)."""
        return refunds.returned_by_shop(self, app_trans_id, amount, wallet=wallet, reason=reason,
                                        who=who, cashier_id=cashier_id,
                                        authorised_by=authorised_by)

    def refund_status(self, m_refund_id: str) -> RefundView:
        view = self.journal.get_refund(m_refund_id)
        if view.is_final:
            return view
        return refunds.query_refund_once(self, view)

    def override(
        self, app_trans_id: str, to_state: PaymentState, reason: str, who: str,
        *, cashier_id: str | None = None,
    ) -> PaymentView:
        """A person's decision. A shop QR paid in part is settled from a fresh status answer
        (part_overrides: what arrived now, never the row's older reason)."""
        paid = to_state is S.SUCCEEDED
        if to_state not in (S.SUCCEEDED, S.FAILED):
            raise IllegalTransition(
                f"An override can only mark a payment succeeded or failed, not {to_state.value}.")
        said = Reason.of("override.paid" if paid else "override.failed",
                         who=who.strip(), reason=reason.strip())
        view = self.journal.get(app_trans_id)
        if view.why.code in part_overrides.SETTLED_FRESH and reason.strip() and who.strip():
            result = part_overrides.ask(self, view)
            self._take_answer(view, result)  # what it says is recorded, even if refused below
            said = part_overrides.settled(view, result, paid=paid, who=who, reason=reason)
        return self.journal.apply(
            app_trans_id, E.OVERRIDE_PAID if paid else E.OVERRIDE_FAILED, message=said,
            reason=reason, who=who, cashier_id=cashier_id)

    # ---------------------------------------------------------------- gateway orders
    def create_gateway_order(
        self, amount: int, description: str = "", bank_code: str = "", *,
        cashier_id: str | None = None, provider: str | None = None,
        sale_ref: str | None = None,
    ) -> gateway.GatewayOrderView:
        """Create a web-gateway order (the UI's Show QR) with `provider` (a shop-QR wallet; None:
        the default), journaled like a quick pay with the cashier who made it; follow it with
        `follow()` until paid, cancelled or expired."""
        return gateway.create_gateway_order(self, amount, description, bank_code,
                                            cashier_id=cashier_id, provider=provider,
                                            sale_ref=sale_ref)

    def cancel_gateway_order(self, app_trans_id: str) -> PaymentView:
        """The cashier gives up a shown QR (gateway.cancel_gateway_order)."""
        return gateway.cancel_gateway_order(self, app_trans_id)

    # ---------------------------------------------------------------- misc
    def pending_count(self) -> int:
        return self.journal.pending_count()

    def close(self) -> None:
        if self._owns_client:
            self.providers.close()
        if self._owns_journal:
            self.journal.close()

    def __enter__(self) -> Checkout:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


__all__ = ["FINAL_STATES", "Checkout"]
