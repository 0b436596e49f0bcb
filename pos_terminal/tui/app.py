"""The cashier's terminal: a Textual App over the counter (pos_terminal.counter) and a scanner
source.

Everything it needs comes in through the constructor (settings, a Counter, a scanner-source
factory, an optional demo controller) so tests build it against the in-process emulator.
Payment work runs in thread workers; the counter's events come back from its bus as Textual
messages (CounterNews), and the App posts messages to the screen on top (tui/messages.py)."""

from __future__ import annotations

import contextlib
import threading
import time
from typing import TYPE_CHECKING, Any, ClassVar

from textual import events, work
from textual.app import App
from textual.binding import Binding, BindingType
from textual.message import Message
from textual.widget import Widget

from pos_terminal.base.errors import cashier_message
from pos_terminal.base.i18n import N_, _, current_language, set_language
from pos_terminal.config import Settings
from pos_terminal.counter import (
    Counter,
    CounterEvent,
    ListenerFailed,
    PaymentError,
    PaymentProgress,
    PaymentSettled,
    PaymentUnresolved,
    PendingCount,
    PrintOutcome,
    ReceiptPrinted,
    ReceiptPrinting,
    ReconcileFailed,
    SaleLine,
    ScannedCode,
    Scanner,
    ScannerStatus,
    ServiceStatus,
    SignedIn,
    SourceFactory,
    Subscription,
    missing_device,
)
from pos_terminal.counter.types import PaymentView, ServiceCheck, mask_code
from pos_terminal.text_safety import clean
from pos_terminal.tui.cashier import no_supervisor_notice
from pos_terminal.tui.format import format_vnd
from pos_terminal.tui.messages import (
    CodeScanned,
    PaymentConcluded,
    PaymentTakesLong,
    PaymentUpdated,
    ReceiptUpdate,
    ScannerReady,
)
from pos_terminal.tui.outcome import Outcome
from pos_terminal.tui.payment import PaymentRun
from pos_terminal.tui.printing import start_print
from pos_terminal.tui.sales import Sale
from pos_terminal.tui.screens.base import PosScreen
from pos_terminal.tui.wedge import KeyWedge
from pos_terminal.tui.widgets.header import StatusHeader

if TYPE_CHECKING:
    from pos_terminal.ledger import BackgroundSync, SyncStatus
    from pos_terminal.tui.demo import DemoController
    from pos_terminal.tui.host import CounterHost

#: The counter events the terminal shows (the rest are for other listeners).
SHOWN_EVENTS: tuple[type[CounterEvent], ...] = (
    PaymentProgress, PaymentSettled, PaymentUnresolved, PaymentError, ScannerStatus,
    ServiceStatus, PendingCount, ReconcileFailed, ListenerFailed, ReceiptPrinting,
    ReceiptPrinted)
REACHABILITY_EVERY_S = 15.0
RECONCILE_EVERY_S = 30.0
PROGRESS_AFTER_S = 0.4  # a payment settled sooner goes from Pay straight to Result
KEY_SETTLE_POLL_S = 0.005
KEY_SETTLE_MAX_S = 1.0
LANGUAGE_KEY = "f8"  # switches between Vietnamese and English, on every screen
SIGN_OUT_KEY = "f12"  # signs the cashier out (header title: "(F12 sign out)")


def quit_question(run: PaymentRun, counter: Counter) -> str:
    order = run.view.app_trans_id if run.view is not None else _("(being recorded)")
    text = _(
        "A payment of {amount} is in progress (order {order}). If you quit now it stays in the "
        "journal and is resolved at the next start or by `pos-terminal reconcile`; do not "
        "charge it again."
    ).format(amount=format_vnd(run.sale.amount), order=order)
    if counter.returns_late_charges:
        text += " " + _("If the wallet charges it after you quit, the charge is returned to the "
                        "customer automatically.")
    else:
        text += " " + _("If the wallet charges it after you quit, it is marked NEEDS REVIEW.")
    return text + " " + _("Quit anyway?")


class PosApp(App[None]):
    """Keyboard and scanner only. Sale is the home screen; every other screen returns to it."""

    CSS_PATH = "app.tcss"
    TITLE = "pos-terminal"
    ENABLE_COMMAND_PALETTE = False
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("ctrl+q", "quit", N_("Quit"), priority=True),
        # The key hint names the language F8 switches TO: "VI" in English, "EN" in Vietnamese
        # (two letters: the Sale footer must fit 80 columns).
        Binding(LANGUAGE_KEY, "switch_language", N_("VI")),
        # Sign-out is named in the header title, not the footer (no room there).
        Binding(SIGN_OUT_KEY, "sign_out", N_("Sign out"), show=False),
    ]

    def __init__(
        self,
        settings: Settings,
        counter: Counter,
        source_factory: SourceFactory | None = None,
        demo: DemoController | None = None,
        *,
        background: bool = True,
    ) -> None:
        super().__init__()
        set_language(settings.terminal.language)
        self.settings = settings
        self.counter = counter
        self.demo = demo
        self.source: Scanner | None = None
        self._news: Subscription | None = None
        self._source_factory = source_factory
        self._background = background
        self._wedge = KeyWedge(settings.scanner.wedge_max_interkey_ms,
                               settings.scanner.wedge_min_length)
        self._replaying: set[int] = set()
        self._unsettled: events.Key | None = None  # forwarded, its binding not yet run
        self._unsettled_since = 0.0
        self._waiting: list[events.Key] = []       # keys that came in behind it
        self._keys_seen = 0
        self.payment_in_flight = threading.Event()
        self.stopping = threading.Event()
        self.sale_finished = False  # set by Result: Sale starts afresh when it comes back
        self.next_sale_digits = ""  # a digit typed on Result: the next sale's amount starts so
        self.payment: PaymentRun | None = None
        self.header_state: dict[str, Any] = {"reachable": None, "service": None,
                                             "pending": None}
        self.ledger_sync: BackgroundSync | None = None
        self.signed_in: SignedIn | None = None
        self.receipts_printing: set[str] = set()
        self.prints: dict[str, PrintOutcome] = {}  # the last print of each receipt
        self._no_supervisor_said = False

    async def on_mount(self) -> None:
        self._news = self.counter.bus.subscribe(SHOWN_EVENTS, self._relay, name="terminal UI")
        await self.open_counter()
        self.start_source()
        self.check_service()
        if self._background:  # tests and screenshots run without the timers
            self.reconcile_in_background()
            self.set_interval(REACHABILITY_EVERY_S, self.check_service)
            self.set_interval(RECONCILE_EVERY_S, self.reconcile_in_background)
            if self.demo is None:  # a demo's throwaway journal never goes to a ledger
                self.start_ledger_sync()
        else:
            self.refresh_pending()

    # ---- the language ---------------------------------------------------------------------
    def _language_screen(self) -> PosScreen | None:
        """The current screen when F8 may redraw it now (not while a payment is charged)."""
        screen = self.screen
        if isinstance(screen, PosScreen) and screen.can_switch_language():
            return screen
        return None

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "switch_language":
            return self._language_screen() is not None
        return True

    async def action_switch_language(self) -> None:
        """Vietnamese <-> English; the current screen is redrawn at once, the others when they
        come back. Receipts keep the shop's language ([terminal] language)."""
        set_language("en" if current_language() == "vi" else "vi")
        screen = self._language_screen()
        if screen is not None:
            await screen.retranslate()

    # ---- cashiers: sign-in, sign-out (Counter.sign_in, screens/signin.py) --------------
    @property
    def cashier_id(self) -> str | None:
        return self.signed_in.cashier.id if self.signed_in else None

    async def open_counter(self) -> None:
        """Sign-in first once the journal has cashiers; without any, Sale as before."""
        from pos_terminal.tui.screens.signin import SignInScreen

        if self.counter.cashiers().any_active():
            await self.push_screen(SignInScreen())
        else:
            await self._to_sale(switch=False)

    async def _to_sale(self, *, switch: bool) -> None:
        from pos_terminal.tui.screens.sale import SaleScreen

        sale = SaleScreen()
        await (self.switch_screen(sale) if switch else self.push_screen(sale))
        if sale.query("#sale-message") and not self._no_supervisor_said and not (
                self.counter.cashiers().any_supervisor()):
            self._no_supervisor_said = True  # said once, until the first sale clears it
            sale.say(no_supervisor_notice())

    def signed_in_as(self, signed: SignedIn) -> None:
        self.signed_in = signed
        self.set_header(cashier=signed.cashier.name)
        self.call_later(self._to_sale, switch=True)

    def action_sign_out(self) -> None:
        if self.signed_in is None:
            return  # nobody signs in at this counter
        busy = {"payment", "refund", "override"}
        if self.payment_in_flight.is_set() or any(
                getattr(screen, "holds_a_payment", False) for screen in self.screen_stack) or any(
                worker.group in busy and worker.is_running for worker in self.workers):
            self.notify(_("A payment or refund is in progress: wait for its result before "
                          "signing out."), severity="warning", markup=False)
            return
        self.sign_out(self.signed_in)

    @work(thread=True, group="signout", exclusive=True, exit_on_error=False)
    def sign_out(self, signed: SignedIn) -> None:
        problem = None
        try:
            self.counter.sign_out(signed.cashier.id)
        except Exception as exc:  # signed out all the same; the shift is closed by hand
            problem = cashier_message(exc)
        self.call_from_thread(self._signed_out, signed, problem)

    def _signed_out(self, signed: SignedIn, problem: str | None) -> None:
        self.signed_in = None
        self.set_header(cashier=None)
        self.call_later(self._back_to_sign_in, signed, problem)

    async def _back_to_sign_in(self, signed: SignedIn, problem: str | None) -> None:
        from pos_terminal.tui.screens.signin import SignInScreen

        while len(self.screen_stack) > 2:
            await self.pop_screen()
        await self.switch_screen(SignInScreen())
        if problem:
            self.notify(_("{name} is signed out, but the shift was not closed: {error}").format(
                name=signed.cashier.name, error=problem), severity="warning", markup=False)

    # ---- receipts (tui/printing.py; `[printer] auto` is the counter's listener) ---------
    def print_receipt(self, subject_id: str) -> None:
        """Print the receipt of a settled payment or refund, in a worker."""
        self.receipts_printing.add(subject_id)
        start_print(self, self.counter, subject_id, cashier_id=self.cashier_id)

    def _receipt_news(self, event: ReceiptPrinting | ReceiptPrinted) -> None:
        if isinstance(event, ReceiptPrinting):
            self.receipts_printing.add(event.subject_id)
            self.screen.post_message(ReceiptUpdate(event.subject_id, event.app_trans_id, None))
            return
        outcome = event.outcome
        self.receipts_printing.discard(outcome.subject_id)
        self.prints[outcome.subject_id] = outcome
        self.screen.post_message(ReceiptUpdate(outcome.subject_id, event.app_trans_id, outcome))

    def on_receipt_update(self, message: ReceiptUpdate) -> None:
        """No screen showed it (it was printed from elsewhere): a notification."""
        outcome = message.outcome
        if outcome is not None:
            self.notify(outcome.message, severity="information" if outcome.printed else "error",
                        markup=False, timeout=10)

    # ---- the fleet ledger (a thread of its own: a payment never waits for it) ------------
    class LedgerStatus(Message):
        def __init__(self, line: str) -> None:
            super().__init__()
            self.line = line

    def start_ledger_sync(self) -> None:
        from pos_terminal.ledger import LedgerError, start_background_sync

        def publish(status: SyncStatus) -> None:  # from the sync's thread
            self.post_message(self.LedgerStatus(status.line))

        try:
            self.ledger_sync = start_background_sync(self.settings, on_status=publish)
        except LedgerError as exc:  # e.g. no terminal_id: payments go on, the sync does not
            self.set_header(ledger=_("ledger: not syncing"))
            self.notify(exc.message, severity="error", timeout=15)
            return
        if self.ledger_sync is not None:
            self.set_header(ledger=self.ledger_sync.status.line)

    def on_pos_app_ledger_status(self, message: LedgerStatus) -> None:
        self.set_header(ledger=message.line)

    # ---- counter events (published on the counter's bus, from its delivery thread) ------
    class CounterNews(Message):
        def __init__(self, event: CounterEvent) -> None:
            super().__init__()
            self.event = event

    def _relay(self, event: CounterEvent) -> None:
        if not self.stopping.is_set():
            self.post_message(self.CounterNews(event))

    def on_pos_app_counter_news(self, message: CounterNews) -> None:
        event = message.event
        if isinstance(event, PaymentProgress | PaymentSettled | PaymentUnresolved | PaymentError):
            self._payment_news(event)
        elif isinstance(event, ReceiptPrinting | ReceiptPrinted):
            self._receipt_news(event)
        elif isinstance(event, ServiceStatus):
            self._service_news(event)
        elif isinstance(event, PendingCount):
            self.set_header(pending=event.count)
        elif isinstance(event, ScannerStatus):
            if event.lost:
                self.notify(_("Scanner {state}: {detail}. Check its cable; the keyboard wedge "
                              "still works.").format(state=event.state, detail=event.detail),
                            severity="warning", timeout=8)
        elif isinstance(event, ReconcileFailed):
            self.notify(_("Background reconciliation failed: {error}").format(error=event.error),
                        severity="warning")
        elif isinstance(event, ListenerFailed):
            self.notify(_("{listener} failed: {error}. The payment is not affected.").format(
                listener=event.listener, error=event.error), severity="warning", markup=False)

    # ---- header state (every screen has its own StatusHeader showing these) -------------
    def set_header(self, **values: Any) -> None:
        self.header_state.update(values)
        for screen in self.screen_stack:
            for header in screen.query(StatusHeader):
                header.show(self.header_state)

    # ---- scanner sources ----------------------------------------------------------------
    @property
    def scanner_label(self) -> str:
        """What the Pay screen says about the active scanner."""
        if self.source is None:
            return _("USB scanner ready (keyboard wedge)")
        status = self.source.status()
        parts = [f"{self.source.spec}: {status.state}"]
        if status.hint:  # what to tell the customer comes first
            parts.insert(0, status.hint)
        if status.fps is not None:
            parts.append(f"{status.fps:.0f} fps")
        if status.decode_ms is not None:
            parts.append(f"decode {status.decode_ms:.1f} ms")
        if status.detail:
            parts.append(status.detail)
        return " · ".join(parts)

    @work(thread=True, group="source", exit_on_error=False)
    def start_source(self) -> None:
        if self._source_factory is None:
            return
        try:
            source = self._source_factory()
        except Exception as exc:  # a missing camera or device must not stop the counter
            self.call_from_thread(self.notify, _("Scanner not available: {error}. The keyboard "
                                                 "wedge (USB scanner) still works.").format(
                                      error=exc), severity="error", timeout=10)
            return
        if source is None:
            return
        problem = missing_device(source.spec)
        if problem is not None:
            self.call_from_thread(
                self.notify, _("Scanner {spec} not available: {problem}. Fix [scanner] source "
                               "in the configuration; until then the keyboard wedge (USB "
                               "scanner) still works.").format(spec=source.spec, problem=problem),
                severity="error", timeout=30)
        scanner = Scanner(source, self.counter)
        self.source = scanner
        scanner.start(self._on_source_code, paused=True)
        self.call_from_thread(self._scanner_started)

    def _scanner_started(self) -> None:
        self.screen.post_message(ScannerReady())  # a screen waiting for a code resumes it

    def _on_source_code(self, code: ScannedCode) -> None:  # the source's thread
        if not self.stopping.is_set():
            self.post_message(self.SourceCode(code))

    class SourceCode(Message):
        def __init__(self, code: ScannedCode) -> None:
            super().__init__()
            self.code = code

    def on_pos_app_source_code(self, message: SourceCode) -> None:
        self.screen.post_message(CodeScanned(message.code))

    def on_code_scanned(self, message: CodeScanned) -> None:
        """No screen took the code: nobody is waiting for one."""
        self.notify(_("Payment code {code} read, but no payment is waiting: type the amount "
                      "and press Enter first.").format(code=clean(message.code.masked)),
                    severity="warning", markup=False)

    def on_unmount(self) -> None:
        self.stopping.set()
        if self.payment is not None:
            self.payment.cancel.set()
        if self._news is not None:
            self.counter.bus.unsubscribe(self._news, timeout_s=0.0)
        if self.source is not None:
            self.source.stop()
        if self.ledger_sync is not None:
            self.ledger_sync.stop(timeout_s=1.0)

    # ---- keyboard wedge -----------------------------------------------------------------
    class WedgeFlush(Message):
        """Queued behind any keys already waiting, so a burst is never cut by a busy loop."""

        def __init__(self, keys_seen: int) -> None:
            super().__init__()
            self.keys_seen = keys_seen

    async def on_event(self, event: events.Event) -> None:
        if (isinstance(event, events.Key) and not event.is_forwarded
                and id(event) not in self._replaying):
            if self._unsettled is not None:
                # An editing key (Backspace, Enter, ...) is still on its way to its binding:
                # keys behind it wait, so a fast burst acts in the order it was typed.
                self._waiting.append(event)
                return
            await self._take_key(event)
            return
        await super().on_event(event)

    def _forwarding(self, event: events.Key) -> None:
        """Textual inserts printable keys in the focused field at once, but runs the bindings
        of Backspace, Delete, Enter, arrows... only when the key has bubbled up to the App.
        Until such a key has arrived there, later keys are held back (see `on_event`)."""
        if event.key != "enter" and event.is_printable:
            return
        self._unsettled = event
        self._unsettled_since = time.monotonic()
        self.set_timer(KEY_SETTLE_POLL_S, self._check_settled)

    class KeyDelivered(Message):
        """Posted to the widget a key went to, right behind the key: it reaches the App after
        the key was handled there and bubbled up (or was stopped on its way)."""

        def __init__(self, key: events.Key) -> None:
            super().__init__()
            self.key = key

    def _follow_key(self, event: events.Key, target: Widget) -> None:
        if event is self._unsettled:
            target.post_message(self.KeyDelivered(event))

    async def on_pos_app_key_delivered(self, message: KeyDelivered) -> None:
        if message.key is self._unsettled:
            await self._settle()

    async def on_key(self, event: events.Key) -> None:
        # Runs before the App's own key handling (Textual calls each class's handler, the
        # subclass first); the binding has run by the time the callback does.
        if event is self._unsettled:
            self.call_later(self._settle_key, event)

    async def _settle_key(self, event: events.Key) -> None:
        if event is self._unsettled:
            await self._settle()

    async def _check_settled(self) -> None:
        key = self._unsettled
        if key is None:
            return
        # A key some widget stopped never reaches the App (KeyDelivered settles it); a key
        # lost with its screen is not waited for longer than KEY_SETTLE_MAX_S.
        if time.monotonic() - self._unsettled_since > KEY_SETTLE_MAX_S:
            await self._settle()
        else:
            self.set_timer(KEY_SETTLE_POLL_S, self._check_settled)

    async def _settle(self) -> None:
        self._unsettled = None
        while self._waiting and self._unsettled is None:
            await self._take_key(self._waiting.pop(0))

    async def _take_key(self, event: events.Key) -> None:
        """A key from the terminal, in the order typed: through the wedge, then to the UI."""
        self._keys_seen += 1
        # event.time is when the driver read the key: the scanner's own rhythm, not ours.
        outcome = self._wedge.feed(event, event.time)
        for held in outcome.release:
            await self._replay(held)
        if outcome.scan is not None:
            self._wedge_scan(outcome.scan)
        if self._wedge.holding:
            seen = self._keys_seen
            self.set_timer(self._wedge.threshold_s * 1.5,
                           lambda: self.post_message(self.WedgeFlush(seen)))
        if outcome.passthrough:
            self._forwarding(event)
            await self._deliver(event)

    async def _deliver(self, event: events.Key) -> None:
        target = self.focused or self.screen  # where Textual forwards a key
        await super().on_event(event)
        self._follow_key(event, target)

    def _wedge_scan(self, text: str) -> None:
        # Other sources filter inside hardware; a burst from the keyboard is filtered by the
        # counter (CodeIgnored for anything that is not a payment code).
        code = self.counter.accept_code(text, "wedge")
        if code is not None:
            self.screen.post_message(CodeScanned(code))
        else:
            scanner = self.settings.scanner
            # what was read is not ours to style: shown without markup, escapes removed
            self.notify(_("Scanner read {code} ({length} characters) was ignored: it is not a "
                          "payment code ({low}-{high} characters of {alphabet}). Ask for the "
                          "wallet's payment code.").format(
                            code=clean(mask_code(text)), length=len(text),
                            low=scanner.code_min_length, high=scanner.code_max_length,
                            alphabet=repr(scanner.code_alphabet)),
                        severity="warning", markup=False)

    async def on_pos_app_wedge_flush(self, message: WedgeFlush) -> None:
        if message.keys_seen != self._keys_seen:
            return  # another key came in since: its own timer decides
        for held in self._wedge.flush_due(time.monotonic()):
            await self._replay(held)

    async def _replay(self, event: events.Key) -> None:
        self._replaying.add(id(event))
        self._forwarding(event)
        try:
            await self._deliver(event)
        finally:
            self._replaying.discard(id(event))

    # ---- the payment in flight ----------------------------------------------------------
    def start_payment(self, sale: Sale, code: ScannedCode) -> None:
        """Charge `code` for `sale` in a worker. Pay stays up for a moment: a quick answer goes
        straight to Result; a slower one brings up Progress."""
        run = PaymentRun(sale, code.text[-4:], code.source, cashier_id=self.cashier_id,
                         sale_id=self.counter.start_sale())
        self.payment = run
        self.payment_in_flight.set()
        self.run_worker(lambda: self._charge(run, code), thread=True, group="payment",
                        exit_on_error=False)
        self.set_timer(PROGRESS_AFTER_S, lambda: self._show_progress(run))

    def follow_payment(self, run: PaymentRun) -> None:
        """Keep waiting: poll the same payment again (Counter.follow), never charge again."""
        if run.view is None:
            return
        run.restart()
        app_trans_id = run.view.app_trans_id

        def follow() -> None:
            with contextlib.suppress(Exception):  # published as PaymentError
                self.counter.follow(app_trans_id, cancel=run.cancel, sale=run.sale_id)

        self.run_worker(follow, thread=True, group="payment", exit_on_error=False)

    def end_payment(self, run: PaymentRun) -> None:
        run.cancel.set()
        if self.payment is run:
            self.payment = None
            self.payment_in_flight.clear()

    def _charge(self, run: PaymentRun, code: ScannedCode) -> None:
        """Blocking, in a worker: the single charge and its polling. What happens comes back
        as the counter's events (PaymentProgress, PaymentSettled, ...)."""
        items = tuple(SaleLine(i.name, i.price, i.quantity) for i in run.sale.items)
        with contextlib.suppress(Exception):  # published as PaymentError
            self.counter.pay(run.sale.amount, code, description=run.sale.description,
                             items=items, cancel=run.cancel, sale=run.sale_id,
                             cashier_id=run.cashier_id)

    def _payment_news(self, event: PaymentProgress | PaymentSettled | PaymentUnresolved
                      | PaymentError) -> None:
        run = self.payment
        if run is None or event.sale != run.sale_id or run.cancel.is_set():
            return  # another payment's (settled in the background), or one given up
        if isinstance(event, PaymentProgress):
            self._progress(run, event.view)
        elif isinstance(event, PaymentError):
            self._failed(run, event.message)
        else:
            self._finished(run, event.view)

    def _progress(self, run: PaymentRun, view: PaymentView) -> None:
        run.view = view
        self.screen.post_message(PaymentUpdated(run))

    def _show_progress(self, run: PaymentRun) -> None:
        if self.payment is run and not (run.finished and not run.unresolved):
            self.screen.post_message(PaymentTakesLong(run))

    def _finished(self, run: PaymentRun, view: PaymentView) -> None:
        run.view = view
        run.finish()
        if run.unresolved:  # the deadline passed: the cashier chooses
            self.screen.post_message(PaymentUpdated(run))
            self._show_progress(run)
            return
        self._conclude(run, Outcome.from_view(view))

    def _failed(self, run: PaymentRun, message: str) -> None:
        run.finish()
        if run.unresolved:
            message += " " + _("The payment is kept in the journal and checked again in the "
                               "background: see History before charging again.")
        self._conclude(run, Outcome.from_error(run.sale.amount, message))

    def _conclude(self, run: PaymentRun, outcome: Outcome) -> None:
        self.end_payment(run)
        self.screen.post_message(PaymentConcluded(run, outcome))

    def give_up(self, run: PaymentRun) -> None:
        """The cashier stops waiting for a payment whose outcome is unknown (Progress, B)."""
        if run.view is None:
            return
        view = self.counter.abandon(run.view.app_trans_id)
        run.view = view
        self._conclude(run, Outcome.from_view(view))

    # ---- quitting -----------------------------------------------------------------------
    async def action_quit(self) -> None:
        run = self.payment
        if run is None or not self.payment_in_flight.is_set():
            self.exit()
            return
        from pos_terminal.tui.screens.dialogs import ConfirmDialog

        def answered(yes: bool | None) -> None:
            if yes:
                if run.view is not None and run.unresolved:
                    self.counter.abandon(run.view.app_trans_id)
                self.exit()

        self.push_screen(ConfirmDialog(quit_question(run, self.counter)), answered)

    # ---- background work ----------------------------------------------------------------
    @work(thread=True, group="reach", exclusive=True, exit_on_error=False)
    def check_service(self) -> None:
        """A signed call (Counter.check_service): the header says "service ok" only once the
        service has accepted this terminal's app id and key1; published as ServiceStatus."""
        self.counter.check_service()

    def _service_news(self, event: ServiceStatus) -> None:
        previous = self.header_state.get("service")
        if event.state == ServiceCheck.CREDENTIALS_WRONG and previous != event.state:
            self.notify(_("The wallet service refuses this terminal's credentials ({detail}): "
                          "payments will be refused. Check [service] app_id and key1 (or the "
                          "environment variable POS_KEY1).").format(detail=event.detail),
                        severity="error", timeout=30, markup=False)
        # the header last: whoever sees the new state also finds the notice already there
        self.set_header(service=event.state or None, reachable=event.reachable)

    @work(thread=True, group="reconcile", exclusive=True, exit_on_error=False)
    def reconcile_in_background(self) -> None:
        if not self.payment_in_flight.is_set():
            self.counter.reconcile_in_background()  # ReconcileFailed when it fails
        self.counter.publish_pending()

    @work(thread=True, group="pending", exit_on_error=False)
    def refresh_pending(self) -> None:
        self.counter.publish_pending()


if TYPE_CHECKING:
    def _hosts_the_screens(app: PosApp) -> CounterHost:
        return app  # mypy checks that PosApp has all the screens use of it (tui/host.py)
