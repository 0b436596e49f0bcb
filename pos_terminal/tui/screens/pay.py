"""Pay: a large "scan the customer's payment code" prompt, the active scanner and its state, an
optional camera preview; Escape cancels until a code is read.

Pay owns the payment from the moment its code is read (the payment controller tells it the
news); when the answer takes a moment it hands the payment to Progress, pushed on top of it.
The outcome (its own, or Progress's answer) is shown by a Result pushed on top of Pay; Pay's
answer to Sale is the Result's (NextSale), or None when the cashier cancelled."""

from __future__ import annotations

from collections.abc import Iterable
from typing import ClassVar

from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.widget import Widget
from textual.widgets import Static

from pos_terminal.base.i18n import N_, _
from pos_terminal.base.money import format_vnd
from pos_terminal.counter import ScannedCode
from pos_terminal.counter.types import WalletChoiceNeeded
from pos_terminal.sentences.labels import wallet_name
from pos_terminal.tui.format import source_name
from pos_terminal.tui.messages import (
    CodeScanned,
    PaymentConcluded,
    PaymentTakesLong,
    ScannerReady,
)
from pos_terminal.tui.result_summary import ResultSummary
from pos_terminal.tui.sales import NextSale, Sale
from pos_terminal.tui.screens.base import PosScreen
from pos_terminal.tui.screens.dialogs import WalletDialog
from pos_terminal.tui.screens.progress import ProgressScreen
from pos_terminal.tui.screens.result import show_result
from pos_terminal.tui.widgets.line import Line
from pos_terminal.tui.widgets.phrases import PhraseLine
from pos_terminal.tui.widgets.preview import CameraPreview


class PayScreen(PosScreen[NextSale | None]):
    takes_codes = True  # a scanner's burst here is a read, never typing (tui/app.py)
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "cancel", N_("Cancel")),
        Binding("p", "toggle_preview", N_("Camera preview")),
        # the demo's customer picker: 1-9 the first nine, 0 the next one (any number fits)
        *(Binding(str(key), f"demo_wallet({key - 1})", "", show=False) for key in range(1, 10)),
        Binding("0", "demo_next", "", show=False),
    ]

    def __init__(self, sale: Sale) -> None:
        super().__init__()
        self.sale = sale
        self.code: str | None = None  # the code read (masked): the payment is on its way
        self.code_source = ""
        self.concluded = False  # the outcome is known (its Result is on top)

    @property
    def holds_a_payment(self) -> bool:
        """No sign-out while its payment is on its way (PosApp.action_sign_out)."""
        return self.code is not None and not self.concluded

    def body(self) -> Iterable[Widget]:
        with Vertical(id="pay"):
            yield Line(format_vnd(self.sale.amount), id="pay-amount")
            yield Line(_("Scan the customer's payment code"), id="pay-prompt")
            yield PhraseLine("", id="scanner-state")
            yield PhraseLine("", id="demo-hint")
            yield CameraPreview(self._frame, id="preview")

    def on_mount(self) -> None:
        self.pos.counter.awaiting_code(self.sale.amount)  # a customer display asks for the code
        preview = self.query_one(CameraPreview)
        preview.display = self.pos.settings.ui.camera_preview and self._has_camera()
        self._update_scanner()
        self.set_interval(0.5, self._update_scanner)
        demo = self.pos.demo
        hint = self.query_one("#demo-hint", Static)
        if demo is not None and demo.synthetic:
            hint.update(_("Demo: {customer} holds up the phone in a moment (keys 1-9, 0 "
                          "choose another customer)").format(customer=demo.describe()))
            self.set_timer(demo.show_after_s, self._demo_present)
        elif demo is not None:
            hint.update(_("Demo: show a code from {url} to the camera").format(
                url=demo.wallet_page_url))
        else:
            hint.display = False

    def keep_state(self) -> tuple[str, str] | None:
        return (self.code, self.code_source) if self.code is not None else None

    def restore_state(self, state: tuple[str, str] | None) -> None:
        if state is not None:  # a code read: being charged, said in the new language
            self._show_code(*state)

    def on_screen_resume(self) -> None:
        if self.pos.source is not None and self.code is None:
            self.pos.source.resume()

    def on_scanner_ready(self, message: ScannerReady) -> None:
        message.stop()
        if self.pos.source is not None and self.code is None:
            self.pos.source.resume()

    def on_screen_suspend(self) -> None:
        if self.pos.source is not None:
            self.pos.source.pause()

    def _has_camera(self) -> bool:
        return self.pos.source is not None and self._frame() is not None

    def _frame(self) -> object:
        source = self.pos.source
        return source.latest_frame() if source is not None else None

    def _update_scanner(self) -> None:
        if self.code is not None:
            return
        for line in self.query("#scanner-state").results(Static):  # none while F8 redraws
            line.update(self.pos.scanner_label)

    # ---- reading the code ---------------------------------------------------------------
    def on_code_scanned(self, message: CodeScanned) -> None:
        message.stop()
        if self.code is not None:
            return  # a double read of the same phone screen
        code = message.code
        self.code = code.masked
        if self.pos.source is not None:
            self.pos.source.pause()
        if self.pos.demo is not None:
            self.pos.demo.withdraw()
        self.code_source = code.source
        try:
            self.pos.counter.payments.wallet_of(code.text)
        except WalletChoiceNeeded as exc:  # sent nowhere until the cashier names the wallet
            self.app.push_screen(
                WalletDialog(exc.message, [(w, wallet_name(w)) for w in exc.candidates]),
                lambda wallet: self._wallet_chosen(code, wallet))
            return
        self._show_code(self.code, code.source)
        self.pos.payments.start(self.sale, code, owner=self)

    def _wallet_chosen(self, code: ScannedCode, wallet: str | None) -> None:
        if wallet is None:  # cancelled: nothing was sent; the next scan starts again
            self.code = None
            if self.pos.source is not None:
                self.pos.source.resume()
            return
        self._show_code(code.masked, code.source)
        self.pos.payments.start(self.sale, code, owner=self, provider=wallet)

    def _show_code(self, masked: str, source: str) -> None:
        self.query_one("#pay-prompt", Static).update(_("Submitting the payment…"))
        self.query_one("#scanner-state", Static).update(
            _("Code {code} read by {source}").format(code=masked, source=source_name(source)))

    def on_payment_takes_long(self, message: PaymentTakesLong) -> None:
        message.stop()
        if self.code is not None and self.is_current:
            progress = ProgressScreen(message.run)
            self.pos.payments.hand_over(message.run, progress)
            self.app.push_screen(progress, self._progress_over)

    def on_payment_concluded(self, message: PaymentConcluded) -> None:
        message.stop()
        self.concluded = self.passing = True
        show_result(self, message.outcome)

    def _progress_over(self, outcome: ResultSummary | None) -> None:
        if outcome is not None:
            self.concluded = self.passing = True
            show_result(self, outcome)

    def action_cancel(self) -> None:
        if self.code is None:
            if self.pos.demo is not None:
                self.pos.demo.withdraw()
            self.pos.counter.sale_cancelled(self.sale.amount)  # the display stops asking
            self.dismiss(None)

    def action_toggle_preview(self) -> None:
        preview = self.query_one(CameraPreview)
        if not self._has_camera():
            self.notify(_("No camera frames to preview: the active scanner is not a camera."),
                        severity="warning")
            preview.display = False
            return
        preview.display = not preview.display

    # ---- demo ---------------------------------------------------------------------------
    def action_demo_wallet(self, index: int) -> None:
        demo = self.pos.demo
        if demo is None or self.code is not None:
            return
        demo.select_index(index)
        self.query_one("#demo-hint", Static).update(
            _("Demo: {customer} holds up the phone").format(customer=demo.describe()))
        if demo.synthetic:
            self._demo_present()

    def action_demo_next(self) -> None:
        demo = self.pos.demo
        if demo is not None:
            self.action_demo_wallet((demo.index + 1) % len(demo.customers))

    def _demo_present(self) -> None:
        if self.code is None and self.pos.demo is not None:
            self.run_worker(self.pos.demo.present_code, thread=True, group="demo",
                            exclusive=True, exit_on_error=False)
