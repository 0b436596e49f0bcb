"""The cashier's terminal: a Textual App over the counter (pos_terminal.counter) and a scanner
source.

Everything it needs comes in through the constructor (settings, a Counter, a scanner-source
factory, an optional demo controller) so tests build it against the in-process emulator.
Payment work runs in thread workers; the counter's events come back from its bus as Textual
messages (CounterNews). A payment's news goes to the screen that owns it (tui/payments.py), a
receipt's to the screen that shows it; only input (keys, scanned codes) goes to the screen on
top. Keys pass through the wedge-key router (tui/keys.py)."""

from __future__ import annotations

import threading
from typing import TYPE_CHECKING, Any, ClassVar

from textual import events, work
from textual.app import App
from textual.binding import Binding, BindingType
from textual.message import Message
from textual.screen import ModalScreen
from textual.widgets import Input

from pos_terminal.base.i18n import N_, _, current_language, set_language
from pos_terminal.base.money import format_vnd
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
    ReceiptPrinted,
    ReceiptPrinting,
    ReconcileFailed,
    Scanner,
    ScannerStatus,
    ServiceStatus,
    SignedIn,
    SourceFactory,
    Subscription,
)
from pos_terminal.counter.types import ServiceCheck, mask_code
from pos_terminal.text_safety import clean
from pos_terminal.tui.keys import KeyDelivered, KeyRouter, WedgeFlush
from pos_terminal.tui.messages import CodeScanned, ScannerReady
from pos_terminal.tui.payment import PaymentRun
from pos_terminal.tui.payments import PaymentController
from pos_terminal.tui.printing import ReceiptDesk
from pos_terminal.tui.scanning import ScannerDesk, SourceCode
from pos_terminal.tui.screens.base import PosScreen
from pos_terminal.tui.screens.modal import Dialog
from pos_terminal.tui.shifts import Shifts
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
LANGUAGE_KEY = "f8"  # switches between Vietnamese and English, on every screen
SIGN_OUT_KEY = "f12"  # signs the cashier out (header title: "(F12 sign out)")
DISPLAY_KEY = "f10"  # the customer display's address (the demo, [api] with_ui)


def quit_question(run: PaymentRun, counter: Counter) -> str:
    order = run.view.app_trans_id if run.view is not None else _("(being recorded)")
    text = _(
        "A payment of {amount} is still waiting for the wallet (order {order}). If you close "
        "the terminal now, the payment is kept and checked again when the terminal starts: do "
        "not charge the customer again."
    ).format(amount=format_vnd(run.sale.amount), order=order)
    if counter.payments.returns_late_charges:
        text += " " + _("If the wallet charges it after you close, the money is returned to the "
                        "customer automatically.")
    else:
        text += " " + _("If the wallet charges it after you close, it is marked NEEDS REVIEW "
                        "for a supervisor.")
    return text + " " + _("Close the terminal anyway?")


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
        # The customer display's address when the API is served beside the UI (the demo,
        # `[api] with_ui`): README names the key; no room in the footer.
        Binding(DISPLAY_KEY, "display_address", N_("Customer display"), show=False),
    ]

    def __init__(
        self,
        settings: Settings,
        counter: Counter,
        source_factory: SourceFactory | None = None,
        demo: DemoController | None = None,
        *,
        background: bool = True,
        signed_in: SignedIn | None = None,
        display_url: str | None = None,
    ) -> None:
        super().__init__()
        self.display_url = display_url  # the customer display served beside the UI, if any
        set_language(settings.terminal.language)
        self.settings = settings
        self.counter = counter
        self.demo = demo
        self._news: Subscription | None = None
        self._background = background
        self.keys = KeyRouter(self, KeyWedge(settings.scanner.wedge_max_interkey_ms,
                                             settings.scanner.wedge_min_length),
                              self._deliver_key, self._wedge_scan,
                              lambda: getattr(self.screen, "redrawing", False),
                              self._burst_is_scan)
        self.payments = PaymentController(self, lambda: self.counter, lambda: self.cashier_id)
        self.payments.on_end.append(self._payment_ended)
        self._quit_question: tuple[PaymentRun, ModalScreen[bool]] | None = None
        self.stopping = threading.Event()
        # the configured scanner source (tui/scanning.py)
        self.scanner = ScannerDesk(self, source_factory, lambda: self.counter, self.stopping)
        self.header_state: dict[str, Any] = {"reachable": None, "service": None,
                                             "pending": None}
        self.ledger_sync: BackgroundSync | None = None
        # sign-in, the shift's totals, sign-out (tui/shifts.py)
        self.shifts = Shifts(self, lambda: self.counter, self.set_header,
                             self.payments.in_flight)
        self.shifts.signed_in = signed_in  # signed in before the App started (the demo)
        # R / P / N and `[printer] auto`: which receipts print, how each went (tui/printing.py)
        self.receipts = ReceiptDesk(self, lambda: self.counter, lambda: self.cashier_id)

    async def on_mount(self) -> None:
        self._news = self.counter.bus.subscribe(SHOWN_EVENTS, self._relay, name="terminal UI")
        await self.shifts.open_counter()
        self.scanner.start()
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
    def _language_screen(self) -> PosScreen[Any] | Dialog[Any] | None:
        """The current screen when F8 may redraw it now (not while a payment is charged); a
        dialog always (the screen under it is drawn again when it comes back)."""
        screen = self.screen
        if isinstance(screen, PosScreen) and screen.can_switch_language():
            return screen
        if isinstance(screen, Dialog):
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

    @property
    def signed_in(self) -> SignedIn | None:
        return self.shifts.signed_in

    def signed_in_as(self, signed: SignedIn) -> None:
        self.shifts.signed_in_as(signed)

    def action_sign_out(self) -> None:
        if not self._leaving_waits():
            self.shifts.sign_out()

    def _leaving_waits(self) -> bool:
        """F12 and Ctrl+Q wait while a screen's work would be lost by leaving it (the Z report
        being made): that screen says why, and nothing else happens."""
        for screen in self.screen_stack:
            if isinstance(screen, PosScreen) and screen.must_not_be_left():
                screen.say_leaving_waits()
                return True
        return False

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
            self.payments.news(event)
        elif isinstance(event, ReceiptPrinting | ReceiptPrinted):
            self.receipts.news(event)
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
    def source(self) -> Scanner | None:
        return self.scanner.source

    @property
    def scanner_label(self) -> str:
        return self.scanner.label

    def on_source_code(self, message: SourceCode) -> None:
        self.screen.post_message(CodeScanned(message.code))  # input: to the screen on top

    def on_scanner_ready(self, message: ScannerReady) -> None:
        pass  # no screen was waiting for a code

    def on_code_scanned(self, message: CodeScanned) -> None:
        """No screen took the code: nobody is waiting for one."""
        self.notify(_("Payment code {code} read, but no payment is waiting: type the amount "
                      "and press Enter first.").format(code=clean(message.code.masked)),
                    severity="warning", markup=False)

    def on_unmount(self) -> None:
        self.stopping.set()
        self.payments.stop()
        if self._news is not None:
            self.counter.bus.unsubscribe(self._news, timeout_s=0.0)
        self.scanner.stop()
        if self.ledger_sync is not None:
            self.ledger_sync.stop(timeout_s=1.0)

    # ---- keys (tui/keys.py: the wedge, then one key at a time) -----------------------------
    async def on_event(self, event: events.Event) -> None:
        if isinstance(event, events.Key) and not event.is_forwarded and not self.keys.owns(event):
            await self.keys.take(event)
            return
        await super().on_event(event)

    async def _deliver_key(self, event: events.Key) -> None:
        await super().on_event(event)

    async def on_key(self, event: events.Key) -> None:
        self.keys.reached_app(event)

    async def on_key_delivered(self, message: KeyDelivered) -> None:
        await self.keys.delivered(message)

    async def on_wedge_flush(self, message: WedgeFlush) -> None:
        await self.keys.flush(message)

    def _burst_is_scan(self, text: str) -> bool:
        """A fast burst ending in Enter is a scanner's read when it is a payment code (which
        never lands in a field, nor from there in the journal), or where a code is expected
        (Sale, Pay...) and the cashier is not in a text field: anywhere else it was typed (a
        fast typist's reason for an override), and its keys go to the field."""
        if self.counter.is_payment_code(text):
            return True
        in_text = isinstance(self.focused, Input)
        return bool(getattr(self.screen, "takes_codes", False)) and not in_text

    def _wedge_scan(self, text: str) -> None:
        # Other sources filter inside hardware; a burst from the keyboard is filtered by the
        # counter (CodeIgnored for anything that is not a payment code).
        code = self.counter.accept_code(text, "wedge")
        if code is not None:
            self.screen.post_message(CodeScanned(code))  # input: to the screen on top
        else:
            scanner = self.settings.scanner
            # what was read is not ours to style: shown without markup, escapes removed
            alphabet = self.settings.scan_alphabet
            if alphabet == "0123456789":
                wanted = _("a payment code has {low}–{high} digits").format(
                    low=scanner.code_min_length, high=scanner.code_max_length)
            else:
                wanted = _("a payment code has {low}–{high} characters of {alphabet}").format(
                    low=scanner.code_min_length, high=scanner.code_max_length,
                    alphabet=repr(alphabet))
            self.notify(_("Scanner read {code} ({length} characters) was ignored: {wanted}. "
                          "Ask for the wallet's payment code.").format(
                            code=clean(mask_code(text)), length=len(text), wanted=wanted),
                        severity="warning", markup=False)

    # ---- the payment in flight (tui/payments.py) ------------------------------------------
    @property
    def payment(self) -> PaymentRun | None:
        return self.payments.run

    @property
    def payment_in_flight(self) -> threading.Event:
        return self.payments.in_flight

    def _payment_ended(self, run: PaymentRun) -> None:
        """A quit question about this payment no longer applies: it goes, and the payment's
        screen (under it) shows the outcome."""
        asked, self._quit_question = self._quit_question, None
        if asked is not None and asked[0] is run and asked[1].is_current:
            asked[1].dismiss(False)

    def action_display_address(self) -> None:
        if self.display_url is None:
            self.notify(_("No customer display here: it is served beside the demo, or with "
                          "the Terminal API beside the screen (a setting for the supervisor)."),
                        markup=False)
            return
        pages = self.demo.customer_pages() if self.demo is not None else []
        self.notify("\n".join([_("Customer display: open {url} in a browser on this machine (a "
                                "second screen turned to the customer).").format(
                                    url=self.display_url), *pages]),
                    title=_("Customer display"), markup=False, timeout=15)

    # ---- quitting -----------------------------------------------------------------------
    def action_help_quit(self) -> None:
        """Ctrl+C (Textual's reflex-quit hint), in the cashier's language."""
        self.notify(_("To close the terminal, press Ctrl+Q."), title=_("Close the terminal?"),
                    markup=False)

    async def action_quit(self) -> None:
        if self._leaving_waits():
            return
        run = self.payment
        if run is None or not self.payment_in_flight.is_set():
            if getattr(self.screen, "asks_about_the_shift", False):
                return  # the shift's question is already up: Y closes the terminal
            signed = self.signed_in
            if signed is None or not self.shifts.ask_with_shift(
                    lambda: _("Close the terminal? {name}'s shift stays open (F12 closes "
                              "it).").format(name=signed.cashier.name),
                    lambda yes: self.exit() if yes else None):
                self.exit()
            return
        from pos_terminal.tui.screens.dialogs import ConfirmDialog

        def answered(yes: bool | None) -> None:
            self._quit_question = None
            if yes:
                if run.view is not None and run.unresolved:
                    self.counter.payments.abandon(run.view.app_trans_id)
                self.exit()

        dialog = ConfirmDialog(lambda: quit_question(run, self.counter))
        self._quit_question = (run, dialog)
        self.push_screen(dialog, answered)

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
                          "payments will be refused. Tell your supervisor: the terminal's "
                          "wallet settings need fixing.").format(detail=event.detail),
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
