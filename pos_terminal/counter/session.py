"""The counter session every front end drives: start a sale, accept a code from any scan
source, pay, follow, refund, report, settle unknowns, gateway orders, history.

It wraps the Checkout (the payment state machine) and publishes what happens on its EventBus;
front ends (the Textual UI, the CLI, headless mode) translate input into these calls and render
the events and answers. Listeners (a receipt printer, a customer display, a fleet sync) subscribe
to the same bus (pos_terminal.counter.listeners)."""

from __future__ import annotations

import contextlib
import itertools
import logging
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, TextIO

from pos_terminal.base.codes import mask_code
from pos_terminal.base.errors import cashier_message
from pos_terminal.checkout import Checkout, GatewayOrderView, ReconcileReport
from pos_terminal.checkout.errors import intent_of
from pos_terminal.checkout.late_charges import returns_automatically
from pos_terminal.config import Settings
from pos_terminal.counter.bus import EventBus
from pos_terminal.counter.cashiers import (
    SignedIn,
    asking_cashier,
    cashier_book,
    supervisor_authority,
)
from pos_terminal.counter.events import (
    AwaitingCode,
    CodeIgnored,
    CodeRead,
    GatewayShown,
    PaymentError,
    PaymentProgress,
    PaymentSettled,
    PaymentStarted,
    PaymentUnresolved,
    PendingCount,
    ReceiptPrinted,
    ReceiptPrinting,
    ReconcileFailed,
    RefundSettled,
    ServiceStatus,
    Via,
)
from pos_terminal.counter.receipts import PrintOutcome, print_for_counter, print_slip
from pos_terminal.journal import (
    FINAL_STATES,
    EventView,
    Journal,
    PaymentState,
    PaymentView,
    RefundView,
    Report,
)
from pos_terminal.journal.cashiers import Cashier, Cashiers, Shift
from pos_terminal.journal.reports import GroupTotals
from pos_terminal.wallet.ids import new_app_trans_id
from pos_terminal.wallet.messages import Item
from pos_terminal.wallet.probe import ServiceCheck, check_service
from pos_terminal.wallet.results import BankList

if TYPE_CHECKING:
    from pos_terminal.receipts import Receipt

log = logging.getLogger(__name__)

UNRESOLVED = frozenset({PaymentState.SUBMITTING, PaymentState.PROCESSING, PaymentState.UNKNOWN})
Progress = Callable[[PaymentView], None]


@dataclass(frozen=True)
class SaleLine:
    name: str
    price: int
    quantity: int = 1


@dataclass(frozen=True)
class ScannedCode:
    """A code accepted from a scan source. The raw text stays here (it is sent once, to the
    wallet); everything shown or published uses `masked`."""

    text: str = ""
    source: str = ""

    @property
    def masked(self) -> str:
        return mask_code(self.text)

    def __repr__(self) -> str:  # a code in a traceback or a log is masked too
        return f"ScannedCode({self.masked!r}, {self.source!r})"


class Counter:
    """One terminal's counter. Thread-safe as the Checkout is: the UI calls it from workers."""

    def __init__(self, settings: Settings, checkout: Checkout | None = None, *,
                 bus: EventBus | None = None) -> None:
        self.settings = settings
        self._owns_checkout = checkout is None
        self.checkout = checkout if checkout is not None else Checkout(settings)
        self.bus = bus if bus is not None else EventBus()
        self._sales = itertools.count(1)
        #: who is signed in at this counter (a front end with sign-in sets it): receipts
        #: printed here record them
        self.cashier_id: str | None = None
        from hardware import CodeFilter

        sc = settings.scanner
        self._code_filter = CodeFilter(sc.code_alphabet, sc.code_min_length, sc.code_max_length)

    @property
    def journal_path(self) -> str:
        return str(self.journal.path)

    @property
    def journal(self) -> Journal:
        """The journal file itself: cashiers and receipts need more than the checkout's port."""
        journal = self.checkout.journal
        assert isinstance(journal, Journal)
        return journal

    # ---------------------------------------------------------------- cashiers
    def cashiers(self) -> Cashiers:
        """The cashier book of this counter's journal (PIN attempts and lock-out as set up)."""
        return cashier_book(self.journal, self.settings)

    def authorise(self, supervisor_id: str | None, pin: str | None) -> str | None:
        """Blocking (scrypt): the supervisor who authorises a refund, or None when no
        supervisor is set up (counter/cashiers.supervisor_authority; raises CashierError)."""
        return supervisor_authority(self.cashiers(), supervisor_id, pin)

    def asking_cashier(self, cashier_id: str) -> str:
        """A cashier named by a front end without sign-in as the one asking (must be active)."""
        return asking_cashier(self.cashiers(), cashier_id)

    def supervisors(self) -> list[Cashier]:
        return [c for c in self.cashiers().all(include_removed=False) if c.is_supervisor]

    def sign_in(self, cashier_id: str, pin: str) -> SignedIn:
        """Blocking (scrypt): check the PIN, then open (or resume) the cashier's shift; the
        cashier is then the one at this counter. Raises CashierError (and the journal's)."""
        book = self.cashiers()
        cashier = book.verify_pin(cashier_id, pin)
        signed = SignedIn(cashier, book.open_shift(cashier.id))
        self.cashier_id = cashier.id
        return signed

    def sign_out(self, cashier_id: str) -> None:
        """Nobody is at the counter any more; then the shift is closed (which may raise)."""
        if self.cashier_id == cashier_id:
            self.cashier_id = None
        self.cashiers().close_shift(cashier_id)

    # ---------------------------------------------------------------- receipts
    def print_receipt(self, subject_id: str, *, cashier_id: str | None = None,
                      app_trans_id: str | None = None) -> PrintOutcome:
        """Blocking, never raises: print the receipt of a settled payment or refund on
        `[printer] target` and journal the print (by `cashier_id`, else the cashier signed in
        here). Published as ReceiptPrinting, then ReceiptPrinted."""
        payment = app_trans_id or self._payment_of(subject_id)
        self.bus.publish(ReceiptPrinting(subject_id, payment))
        outcome = print_for_counter(self.journal, self.settings, subject_id,
                                    cashier_id=cashier_id or self.cashier_id)
        self.bus.publish(ReceiptPrinted(outcome, payment))
        return outcome

    def print_slip(self, slip_id: str, lines: Sequence[str]) -> PrintOutcome:
        """Blocking, never raises: a slip of totals (shift settlement, X or Z report)."""
        return print_slip(self.settings, slip_id, lines)

    def shift_totals(
            self, cashier_id: str) -> tuple[Shift, GroupTotals, dict[str, tuple[int, int]]] | None:
        """The open shift of `cashier_id`, its totals, and what was paid per method (kind ->
        (count, amount)); None without an open shift."""
        shift = self.cashiers().open_shift_of(cashier_id)
        if shift is None:
            return None
        totals = next((t for t in self.journal.grouped_report("shift")
                       if t.key == str(shift.id)), None)
        if totals is None:
            return None
        methods: dict[str, tuple[int, int]] = {}
        for view in self.journal.list_payments(since_ms=shift.opened_ms):
            if view.cashier_id == cashier_id and view.state in (PaymentState.SUCCEEDED,
                                                                PaymentState.REFUNDED):
                count, amount = methods.get(view.kind, (0, 0))
                methods[view.kind] = (count + 1, amount + view.amount)
        return shift, totals, methods

    def receipt(self, subject_id: str, language: str | None = None) -> Receipt:
        """The receipt of a settled payment or refund as lines (for the POS's own printer),
        in `language` (default the shop's). Raises UnknownReceipt (a LookupError) or NoReceipt
        (it moved no money)."""
        from pos_terminal.receipts import LABELS
        from pos_terminal.receipts.service import build_receipt

        return build_receipt(self.journal, self.settings, subject_id,
                             labels=LABELS[language or self.settings.terminal.language])

    def _payment_of(self, subject_id: str) -> str:
        """The payment a receipt belongs to (a refund's payment); the id itself when the
        journal cannot tell (the print then says why)."""
        with contextlib.suppress(Exception):
            if self.journal.find(subject_id) is None:
                return self.journal.get_refund(subject_id).app_trans_id
        return subject_id

    # ---------------------------------------------------------------- a sale and its code
    def start_sale(self) -> int:
        """A new sale number; the events of its payment carry it."""
        return next(self._sales)

    def awaiting_code(self, amount: int, *, sale: int | None = None,
                      sale_ref: str | None = None) -> None:
        """A sale waits for the customer's code (the pay screen is up, the API waits for a
        scan): published as AwaitingCode, so a customer display asks for it."""
        self.bus.publish(AwaitingCode(sale, amount, sale_ref))

    def validate_amount(self, amount: object) -> int:
        return self.checkout.validate_amount(amount)

    def accept_code(self, text: str, source: str) -> ScannedCode | None:
        """A read from any scan source. A plausible payment code is published as CodeRead and
        returned; anything else (a product barcode typed by a wedge scanner) as CodeIgnored."""
        code = ScannedCode(text, source)
        if not self._code_filter.accepts(text):
            self.bus.publish(CodeIgnored(code.masked, len(text), source))
            return None
        self.bus.publish(CodeRead(code.masked, source))
        return code

    # ---------------------------------------------------------------- pay and follow
    def pay(self, amount: int, code: ScannedCode | str, *, description: str = "",
            items: Sequence[Item | SaleLine] = (), deadline_s: float | None = None,
            cancel: threading.Event | None = None, stop: threading.Event | None = None,
            cashier_id: str | None = None, sale: int | None = None,
            on_progress: Progress | None = None, sale_ref: str | None = None) -> PaymentView:
        """Charge once and follow until final, the deadline or `cancel` (Checkout.pay); every
        step is published. Raises what Checkout.pay raises (after publishing PaymentError);
        with `sale_ref`, SaleRefTaken when that sale has a payment already (nothing sent)."""
        scanned = code if isinstance(code, ScannedCode) else ScannedCode(code, "code")
        sale = self.start_sale() if sale is None else sale
        self.bus.publish(PaymentStarted(sale, amount, scanned.masked, scanned.source, sale_ref))
        try:
            view = self.checkout.pay(
                amount, scanned.text, description=description, items=_items(items),
                on_progress=self._progress(sale, on_progress), deadline_s=deadline_s,
                cancel=cancel, stop=stop, cashier_id=cashier_id, sale_ref=sale_ref)
        except Exception as exc:
            self._publish_error(sale, amount, exc)
            raise
        self._publish_end(sale, view, "pay")
        return view

    def follow(self, app_trans_id: str, *, deadline_s: float | None = None,
               cancel: threading.Event | None = None, sale: int | None = None,
               on_progress: Progress | None = None, via: Via = "follow") -> PaymentView:
        """Keep polling the same payment (never charge again)."""
        try:
            view = self.checkout.follow(app_trans_id, deadline_s=deadline_s,
                                        on_progress=self._progress(sale, on_progress),
                                        cancel=cancel)
        except Exception as exc:
            self._publish_error(sale, None, exc, app_trans_id)
            raise
        self._publish_end(sale, view, via)
        return view

    def status(self, app_trans_id: str) -> PaymentView:
        """The journal's view; a pending payment is asked about once first."""
        before = self.checkout.journal.find(app_trans_id)
        view = self.checkout.status(app_trans_id)
        if before is not None and (before.state, before.late) != (view.state, view.late):
            self._publish_end(None, view, "status", unresolved_too=False)
        return view

    def _progress(self, sale: int | None, extra: Progress | None) -> Progress:
        def publish(view: PaymentView) -> None:
            if view.state not in FINAL_STATES:
                self.bus.publish(PaymentProgress(sale, view))
            if extra is not None:
                extra(view)

        return publish

    def _publish_end(self, sale: int | None, view: PaymentView, via: Via, *,
                     unresolved_too: bool = True) -> None:
        if view.state in FINAL_STATES and not view.needs_review:
            self.bus.publish(PaymentSettled(sale, view, via))
        elif unresolved_too:
            self.bus.publish(PaymentUnresolved(sale, view))

    def _publish_error(self, sale: int | None, amount: int | None, exc: Exception,
                       app_trans_id: str | None = None) -> None:
        subject = app_trans_id or intent_of(exc)
        view = None
        if subject is not None:
            try:
                view = self.checkout.journal.get(subject)
            except Exception:
                view = None
        message = cashier_message(exc)
        self.bus.publish(PaymentError(sale, amount if amount is not None else
                                      (view.amount if view else 0), message, subject, view))

    def abandon(self, app_trans_id: str, *, cashier_id: str | None = None) -> PaymentView:
        """The cashier gives up waiting for a payment whose outcome is unknown (Progress B, `pay`
        exit 3, headless PAY, quitting during a payment): from now on a success is a late
        charge, returned automatically (`[checkout] late_success`). Returns the row: still
        open, or already settled (its verdict came first: show it)."""
        view = self.checkout.abandon(app_trans_id,
                                     cashier_id=cashier_id or self.cashier_id)
        self._publish_end(None, view, "abandon", unresolved_too=False)
        return view

    @property
    def returns_late_charges(self) -> bool:
        """Whether a late charge is refunded automatically (else flagged for review)."""
        return returns_automatically(self.checkout)

    # ---------------------------------------------------------------- refunds, overrides
    def refund(self, app_trans_id: str, amount: int | None = None, description: str = "", *,
               deadline_s: float | None = None, cancel: threading.Event | None = None,
               cashier_id: str | None = None, authorised_by: str | None = None,
               refund_ref: str | None = None) -> RefundView:
        """`cashier_id` asked for it (default: the cashier signed in here, else the payment's
        cashier); `authorised_by` is the supervisor whose PIN was checked (Counter.authorise).
        With `refund_ref`: RefundRefTaken when that reference has a refund already."""
        view = self.checkout.refund(app_trans_id, amount, description, deadline_s=deadline_s,
                                    cancel=cancel, cashier_id=cashier_id or self.cashier_id,
                                    authorised_by=authorised_by, refund_ref=refund_ref)
        if view.is_final:
            self.bus.publish(RefundSettled(view, "refund"))
        return view

    def override(self, app_trans_id: str, to_state: PaymentState, reason: str, who: str, *,
                 cashier_id: str | None = None) -> PaymentView:
        view = self.checkout.override(app_trans_id, to_state, reason, who,
                                      cashier_id=cashier_id)
        self._publish_end(None, view, "override", unresolved_too=False)
        return view

    # ---------------------------------------------------------------- settle unknowns
    def reconcile(self, *, wait_s: float = 0.0,
                  cancel: threading.Event | None = None) -> ReconcileReport:
        """Resolve every open payment and refund by status queries (never by paying again)."""
        report = self.checkout.reconcile(wait_s=wait_s, cancel=cancel)
        for view in report.payments:
            self._publish_end(None, view, "reconcile", unresolved_too=False)
        for refund in report.refunds:
            if refund.is_final:
                self.bus.publish(RefundSettled(refund, "reconcile"))
        return report

    def reconcile_in_background(self) -> ReconcileReport | None:
        """A pass of the background reconciler: a failure is published (ReconcileFailed),
        never raised."""
        try:
            return self.reconcile()
        except Exception as exc:
            self.bus.publish(ReconcileFailed(str(exc)))
            return None

    def check_service(self) -> tuple[ServiceCheck, str]:
        """One signed call (wallet/probe.py: a status query of an order that does not exist):
        "ok" only once the service accepted this terminal's app id and key1; otherwise
        credentials wrong, unreachable, busy or refused, with a detail. Blocking, never raises;
        published as ServiceStatus."""
        probe = new_app_trans_id(self.settings.terminal.terminal_id, int(time.time() * 1000))
        try:
            state, detail = check_service(self.checkout.client, probe)
        except Exception as exc:  # never let the check stop the counter
            state, detail = ServiceCheck.REFUSED, f"{type(exc).__name__}: {exc}"
        self.bus.publish(ServiceStatus(state is not ServiceCheck.UNREACHABLE, state.value,
                                       detail))
        return state, detail

    def pending_count(self) -> int:
        return self.checkout.pending_count()

    def publish_pending(self) -> int | None:
        """Count the payments still open and publish it (PendingCount)."""
        try:
            count: int | None = self.checkout.pending_count()
        except Exception:
            count = None
        self.bus.publish(PendingCount(count))
        return count

    # ---------------------------------------------------------------- gateway orders
    def create_gateway_order(self, amount: int, description: str = "",
                             bank_code: str = "", *, sale: int | None = None) -> GatewayOrderView:
        """Published as GatewayShown (a customer display shows its QR)."""
        order = self.checkout.create_gateway_order(amount, description, bank_code)
        self.bus.publish(GatewayShown(sale, order.payment))
        return order

    def list_banks(self) -> BankList:
        return self.checkout.client.list_banks()

    # ---------------------------------------------------------------- history and reports
    def list_payments(self, **filters: Any) -> list[PaymentView]:
        return self.checkout.journal.list_payments(**filters)

    def find(self, app_trans_id: str) -> PaymentView | None:
        return self.checkout.journal.find(app_trans_id)

    def find_by_sale_ref(self, sale_ref: str) -> PaymentView | None:
        return self.checkout.journal.find_by_sale_ref(sale_ref)

    def find_refund_by_ref(self, refund_ref: str) -> RefundView | None:
        return self.checkout.journal.find_refund_by_ref(refund_ref)

    def code_matches(self, view: PaymentView, code: str) -> bool:
        """Whether `code` is the one `view` was charged with (by its keyed fingerprint)."""
        return self.checkout.journal.code_matches(view, code)

    def get(self, app_trans_id: str) -> PaymentView:
        return self.checkout.journal.get(app_trans_id)

    def events(self, app_trans_id: str) -> list[EventView]:
        return self.checkout.journal.events(app_trans_id)

    def refunds(self, app_trans_id: str | None = None) -> list[RefundView]:
        return self.checkout.journal.refunds(app_trans_id)

    def get_refund(self, m_refund_id: str) -> RefundView:
        return self.checkout.journal.get_refund(m_refund_id)

    def export_csv(self, rows: Sequence[PaymentView], out: TextIO,
                   headers: Callable[[str], str] = str) -> None:
        """CSV of `rows`; `headers` names each column (e.g. in the cashier's language)."""
        from pos_terminal.journal.export import CSV_COLUMNS, write_csv

        write_csv(rows, out, [headers(c) for c in CSV_COLUMNS])

    def export_refunds_csv(self, rows: Sequence[RefundView], out: TextIO,
                           headers: Callable[[str], str] = str) -> None:
        from pos_terminal.journal.export import REFUND_CSV_COLUMNS, write_refunds_csv

        write_refunds_csv(rows, out, [headers(c) for c in REFUND_CSV_COLUMNS])

    def x_report(self) -> Report:
        return self.checkout.journal.x_report()

    def close_day(self) -> Report:
        """The Z report: closes the day."""
        from pos_terminal.counter.admin import has_ledger

        return self.checkout.journal.close_day(ledger=has_ledger(self.settings))

    # ---------------------------------------------------------------- end
    def close(self) -> None:
        self.bus.drain()
        self.bus.close()
        if self._owns_checkout:
            self.checkout.close()

    def __enter__(self) -> Counter:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def _items(items: Sequence[Item | SaleLine]) -> tuple[Item, ...]:
    return tuple(
        i if isinstance(i, Item) else Item(itemid=str(n + 1), itemname=i.name, itemprice=i.price,
                                           itemquantity=i.quantity)
        for n, i in enumerate(items))
