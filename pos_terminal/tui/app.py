"""The cashier's terminal: a Textual App over the checkout engine and a scanner source.

Everything it needs comes in through the constructor (settings, a Checkout, a scanner-source
factory, an optional demo controller) so tests build it against the in-process emulator."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, ClassVar

from textual import events, work
from textual.app import App
from textual.binding import Binding, BindingType
from textual.message import Message

from hardware import CodeFilter
from pos_terminal.base.codes import mask_code
from pos_terminal.base.errors import cashier_message
from pos_terminal.base.i18n import N_, _, current_language, set_language
from pos_terminal.checkout import PaymentView
from pos_terminal.config import Settings
from pos_terminal.journal import Journal
from pos_terminal.text_safety import clean
from pos_terminal.tui.cashier import SignedIn, cashier_book, no_supervisor_notice
from pos_terminal.tui.format import format_vnd
from pos_terminal.tui.payment import PaymentRun, charge
from pos_terminal.tui.printing import PrintOutcome, ReceiptPrinted, start_print
from pos_terminal.tui.screens.base import PosScreen
from pos_terminal.tui.screens.pay import PayScreen
from pos_terminal.tui.screens.progress import ProgressScreen
from pos_terminal.tui.screens.result import Outcome, ResultScreen
from pos_terminal.tui.screens.sale import Sale
from pos_terminal.tui.wedge import KeyWedge
from pos_terminal.tui.widgets.header import StatusHeader

if TYPE_CHECKING:
    from hardware import ScanEvent, ScanSource, SourceStatus
    from pos_terminal.checkout import Checkout
    from pos_terminal.ledger import BackgroundSync, SyncStatus
    from pos_terminal.tui.demo import DemoController

SourceFactory = Callable[[], "ScanSource | None"]
REACHABILITY_EVERY_S = 15.0
RECONCILE_EVERY_S = 30.0
PROGRESS_AFTER_S = 0.4  # a payment settled sooner goes from Pay straight to Result
KEY_SETTLE_POLL_S = 0.005
KEY_SETTLE_MAX_S = 1.0
LANGUAGE_KEY = "f8"  # switches between Vietnamese and English, on every screen
SIGN_OUT_KEY = "f12"  # signs the cashier out (header title: "(F12 sign out)")


def quit_question(run: PaymentRun, checkout: Checkout) -> str:
    from pos_terminal.checkout.late_charges import returns_automatically

    order = run.view.app_trans_id if run.view is not None else _("(being recorded)")
    text = _(
        "A payment of {amount} is in progress (order {order}). If you quit now it stays in the "
        "journal and is resolved at the next start or by `pos-terminal reconcile`; do not "
        "charge it again."
    ).format(amount=format_vnd(run.sale.amount), order=order)
    if returns_automatically(checkout):
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
        checkout: Checkout,
        source_factory: SourceFactory | None = None,
        demo: DemoController | None = None,
        *,
        background: bool = True,
    ) -> None:
        super().__init__()
        set_language(settings.terminal.language)
        self.settings = settings
        self.checkout = checkout
        self.demo = demo
        self.source: ScanSource | None = None
        self.source_status: SourceStatus | None = None
        self._source_factory = source_factory
        self._background = background
        self._wedge = KeyWedge(settings.scanner.wedge_max_interkey_ms,
                               settings.scanner.wedge_min_length)
        self._replaying: set[int] = set()
        self._unsettled: events.Key | None = None  # forwarded, its binding not yet run
        self._unsettled_since = 0.0
        self._waiting: list[events.Key] = []       # keys that came in behind it
        self._keys_seen = 0
        self._code_filter = CodeFilter(settings.scanner.code_alphabet,
                                       settings.scanner.code_min_length,
                                       settings.scanner.code_max_length)
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
    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "switch_language":
            screen = self.screen
            return isinstance(screen, PosScreen) and screen.can_switch_language()
        return True

    async def action_switch_language(self) -> None:
        """Vietnamese <-> English; the current screen is redrawn at once, the others when they
        come back. Receipts keep the shop's language ([terminal] language)."""
        set_language("en" if current_language() == "vi" else "vi")
        screen = self.screen
        if isinstance(screen, PosScreen) and screen.can_switch_language():
            await screen.retranslate()

    # ---- cashiers: sign-in, sign-out (tui/cashier.py, screens/signin.py) ----------------
    @property
    def cashier_id(self) -> str | None:
        return self.signed_in.cashier.id if self.signed_in else None

    @property
    def journal(self) -> Journal:
        """The journal file itself: cashiers and receipts need more than the checkout's port."""
        journal = self.checkout.journal
        assert isinstance(journal, Journal)
        return journal

    async def open_counter(self) -> None:
        """Sign-in first once the journal has cashiers; without any, Sale as before."""
        from pos_terminal.tui.screens.signin import SignInScreen

        if cashier_book(self.journal, self.settings).any_active():
            await self.push_screen(SignInScreen())
        else:
            await self._to_sale(switch=False)

    async def _to_sale(self, *, switch: bool) -> None:
        from pos_terminal.tui.screens.sale import SaleScreen

        sale = SaleScreen()
        await (self.switch_screen(sale) if switch else self.push_screen(sale))
        if sale.query("#sale-message") and not self._no_supervisor_said and not cashier_book(
                self.journal, self.settings).any_supervisor():
            self._no_supervisor_said = True  # said once, until the first sale clears it
            sale.say(no_supervisor_notice())

    def signed_in_as(self, signed: SignedIn) -> None:
        self.signed_in = signed
        self.set_header(cashier=signed.cashier.name)
        self.call_later(self._to_sale, switch=True)

    def action_sign_out(self) -> None:
        from pos_terminal.tui.screens.show_qr import ShowQrScreen

        if self.signed_in is None:
            return  # nobody signs in at this counter
        busy = {"payment", "refund", "override"}
        if self.payment_in_flight.is_set() or any(
                isinstance(screen, PayScreen | ProgressScreen | ShowQrScreen)
                for screen in self.screen_stack) or any(
                worker.group in busy and worker.is_running for worker in self.workers):
            self.notify(_("A payment or refund is in progress: wait for its result before "
                          "signing out."), severity="warning", markup=False)
            return
        self.sign_out(self.signed_in)

    @work(thread=True, group="signout", exclusive=True, exit_on_error=False)
    def sign_out(self, signed: SignedIn) -> None:
        problem = None
        try:
            cashier_book(self.journal, self.settings).close_shift(signed.cashier.id)
        except Exception as exc:  # signed out all the same; the shift is closed by hand
            problem = getattr(exc, "message", None) or str(exc)
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

    # ---- receipts (tui/printing.py) -----------------------------------------------------
    def print_receipt(self, subject_id: str) -> None:
        """Print the receipt of a settled payment or refund, in a worker."""
        self.receipts_printing.add(subject_id)
        start_print(self, self.journal, self.settings, subject_id,
                    cashier_id=self.cashier_id)

    def settled(self, subject_id: str) -> None:
        """A payment or refund settled here: `[printer] auto` prints its receipt."""
        if self.settings.printer.auto:
            self.print_receipt(subject_id)

    def on_receipt_printed(self, message: ReceiptPrinted) -> None:
        outcome = message.outcome
        self.receipts_printing.discard(outcome.subject_id)
        self.prints[outcome.subject_id] = outcome
        if self.stopping.is_set():
            return
        show = getattr(self.screen, "receipt_done", None)  # the screen it was printed from
        if not (callable(show) and show(outcome)):
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
        from hardware import missing_device

        problem = missing_device(source.spec)
        if problem is not None:
            self.call_from_thread(
                self.notify, _("Scanner {spec} not available: {problem}. Fix [scanner] source "
                               "in the configuration; until then the keyboard wedge (USB "
                               "scanner) still works.").format(spec=source.spec, problem=problem),
                severity="error", timeout=30)
        self.source = source
        source.start(self._on_source_event, self._on_source_status)
        source.pause()
        self.call_from_thread(self._scanner_started)

    def _scanner_started(self) -> None:
        if self.source is not None and isinstance(self.screen, PayScreen):
            self.source.resume()

    def _on_source_event(self, event: ScanEvent) -> None:
        if not self.stopping.is_set():
            self.call_from_thread(self.handle_scan, event.text, event.source)

    def _on_source_status(self, status: SourceStatus) -> None:
        previous, self.source_status = self.source_status, status
        lost = status.state in ("disconnected", "reconnecting")
        if lost and (previous is None or previous.state != status.state) and (
                not self.stopping.is_set()):
            self.call_from_thread(self.notify, _("Scanner {state}: {detail}. Check its cable; the "
                                                 "keyboard wedge still works.").format(
                                      state=status.state, detail=status.detail),
                                  severity="warning", timeout=8)

    def handle_scan(self, text: str, source: str) -> None:
        """Every scan (wedge burst, camera, evdev, serial) arrives here on the UI thread."""
        handler = getattr(self.screen, "code_read", None)
        if callable(handler):
            handler(text, source)
        else:
            self.notify(_("Payment code {code} read, but no payment is waiting: type the amount "
                          "and press Enter first.").format(code=clean(mask_code(text))),
                        severity="warning", markup=False)

    def on_unmount(self) -> None:
        self.stopping.set()
        if self.payment is not None:
            self.payment.cancel.set()
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

    async def _on_key(self, event: events.Key) -> None:
        # Runs before App._on_key (Textual calls each class's handler); the binding has run
        # by the time the callback does.
        if event is self._unsettled:
            self.call_later(self._settle_key, event)

    async def _settle_key(self, event: events.Key) -> None:
        if event is self._unsettled:
            await self._settle()

    async def _check_settled(self) -> None:
        key = self._unsettled
        if key is None:
            return
        # A key some widget stopped never reaches the App; a key nobody handles is not
        # waited for longer than KEY_SETTLE_MAX_S.
        if key._stop_propagation or time.monotonic() - self._unsettled_since > KEY_SETTLE_MAX_S:
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
            await super().on_event(event)

    def _wedge_scan(self, text: str) -> None:
        # Other sources filter inside hardware; a burst from the keyboard is filtered here.
        if self._code_filter.accepts(text):
            self.handle_scan(text, "wedge")
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
            await super().on_event(event)
        finally:
            self._replaying.discard(id(event))

    # ---- the payment in flight ----------------------------------------------------------
    def start_payment(self, sale: Sale, code: str, source: str) -> None:
        """Charge `code` for `sale` in a worker. Pay stays up for a moment: a quick answer goes
        straight to Result; a slower one brings up Progress."""
        run = PaymentRun(sale, code[-4:], source, cashier_id=self.cashier_id)
        self.payment = run
        self.payment_in_flight.set()
        self.run_worker(lambda: self._charge(run, code), thread=True, group="payment",
                        exit_on_error=False)
        self.set_timer(PROGRESS_AFTER_S, lambda: self._show_progress(run))

    def follow_payment(self, run: PaymentRun) -> None:
        """Keep waiting: poll the same payment again (Checkout.follow), never charge again."""
        if run.view is None:
            return
        run.restart()
        app_trans_id = run.view.app_trans_id

        def follow() -> None:
            try:
                view = self.checkout.follow(app_trans_id, cancel=run.cancel,
                                            on_progress=lambda v: self._report(run, v))
            except Exception as exc:
                self._report_error(run, exc)
            else:
                self._report_done(run, view)

        self.run_worker(follow, thread=True, group="payment", exit_on_error=False)

    def end_payment(self, run: PaymentRun) -> None:
        run.cancel.set()
        if self.payment is run:
            self.payment = None
            self.payment_in_flight.clear()

    def _charge(self, run: PaymentRun, code: str) -> None:
        try:
            view = charge(self.checkout, run, code, lambda v: self._report(run, v))
        except Exception as exc:
            self._report_error(run, exc)
        else:
            self._report_done(run, view)

    def _report(self, run: PaymentRun, view: PaymentView) -> None:
        if not run.cancel.is_set() and not self.stopping.is_set():
            self.call_from_thread(self._progress, run, view)

    def _report_done(self, run: PaymentRun, view: PaymentView) -> None:
        if not run.cancel.is_set() and not self.stopping.is_set():
            self.call_from_thread(self._finished, run, view)

    def _report_error(self, run: PaymentRun, exc: Exception) -> None:
        if not run.cancel.is_set() and not self.stopping.is_set():
            self.call_from_thread(self._failed, run, exc)

    def _progress(self, run: PaymentRun, view: PaymentView) -> None:
        run.view = view
        if isinstance(self.screen, ProgressScreen) and self.screen.run is run:
            self.screen.show_run()

    def _show_progress(self, run: PaymentRun) -> None:
        if self.payment is run and not (run.finished and not run.unresolved) and isinstance(
                self.screen, PayScreen):
            self.switch_screen(ProgressScreen(run))

    def _finished(self, run: PaymentRun, view: PaymentView) -> None:
        run.view = view
        run.finish()
        if run.unresolved:  # the deadline passed: the cashier chooses
            if isinstance(self.screen, ProgressScreen) and self.screen.run is run:
                self.screen.show_run()
            else:
                self._show_progress(run)
            return
        self._conclude(run, Outcome.from_view(view))

    def _failed(self, run: PaymentRun, exc: Exception) -> None:
        run.finish()
        message = cashier_message(exc)
        if run.unresolved:
            message += " " + _("The payment is kept in the journal and checked again in the "
                               "background: see History before charging again.")
        self._conclude(run, Outcome.from_error(run.sale.amount, message))

    def _conclude(self, run: PaymentRun, outcome: Outcome) -> None:
        self.end_payment(run)
        if isinstance(self.screen, PayScreen | ProgressScreen):
            self.switch_screen(ResultScreen(outcome))
        if outcome.receipt_id is not None:
            self.settled(outcome.receipt_id)

    def give_up(self, run: PaymentRun) -> None:
        """The cashier stops waiting for a payment whose outcome is unknown (Progress, B)."""
        if run.view is None:
            return
        view = self.checkout.abandon(run.view.app_trans_id)
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
                    self.checkout.abandon(run.view.app_trans_id)
                self.exit()

        self.push_screen(ConfirmDialog(quit_question(run, self.checkout)), answered)

    # ---- background work ----------------------------------------------------------------
    @work(thread=True, group="reach", exclusive=True, exit_on_error=False)
    def check_service(self) -> None:
        """A signed call (a status query of an order that does not exist): the header says
        "service ok" only once the service has accepted this terminal's app id and key1."""
        from pos_terminal.wallet.ids import new_app_trans_id
        from pos_terminal.wallet.probe import ServiceCheck, check_service

        probe = new_app_trans_id(self.settings.terminal.terminal_id, int(time.time() * 1000))
        try:
            state, detail = check_service(self.checkout.client, probe)
        except Exception as exc:  # never let the check stop the counter
            state, detail = ServiceCheck.REFUSED, f"{type(exc).__name__}: {exc}"
        if self.stopping.is_set():
            return
        previous = self.header_state.get("service")
        if state is ServiceCheck.CREDENTIALS_WRONG and previous != state.value:
            self.call_from_thread(
                self.notify, _("The wallet service refuses this terminal's credentials "
                               "({detail}): payments will be refused. Check [service] app_id "
                               "and key1 (or the environment variable POS_KEY1).").format(
                    detail=detail), severity="error", timeout=30, markup=False)
        # the header last: whoever sees the new state also finds the notice already there
        self.call_from_thread(self.set_header, service=state.value,
                              reachable=state is not ServiceCheck.UNREACHABLE)

    @work(thread=True, group="reconcile", exclusive=True, exit_on_error=False)
    def reconcile_in_background(self) -> None:
        if not self.payment_in_flight.is_set():
            try:
                self.checkout.reconcile()
            except Exception as exc:
                if not self.stopping.is_set():
                    self.call_from_thread(self.notify, _("Background reconciliation failed: "
                                                         "{error}").format(error=exc),
                                          severity="warning")
        self._publish_pending()

    @work(thread=True, group="pending", exit_on_error=False)
    def refresh_pending(self) -> None:
        self._publish_pending()

    def _publish_pending(self) -> None:
        try:
            count: int | None = self.checkout.pending_count()
        except Exception:
            count = None
        if not self.stopping.is_set():
            self.call_from_thread(self.set_header, pending=count)
