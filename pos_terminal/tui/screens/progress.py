"""Progress: submitting, then processing with the elapsed time and poll count. After the
deadline the cashier keeps waiting or hands the payment to background reconciliation.

Shown only when the answer takes a moment: a payment that is settled at once goes from Pay
straight to Result. The payment itself is the payment controller's (tui/payments.py), which
tells this screen its news once Pay has handed it over; its answer (to Pay, under it) is the
payment's ResultSummary, given as soon as it is on top (not while the quit question is)."""

from __future__ import annotations

from collections.abc import Iterable
from typing import ClassVar

from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.widget import Widget
from textual.widgets import Static

from pos_terminal.base.codes import mask_last4
from pos_terminal.base.i18n import N_, _, ngettext
from pos_terminal.base.money import format_vnd
from pos_terminal.counter.types import PaymentState, PaymentView
from pos_terminal.tui.format import source_name
from pos_terminal.tui.messages import (
    CodeScanned,
    PaymentConcluded,
    PaymentTakesLong,
    PaymentUpdated,
)
from pos_terminal.tui.payment import PaymentRun
from pos_terminal.tui.result_summary import ResultSummary
from pos_terminal.tui.screens.base import PosScreen
from pos_terminal.tui.widgets.line import Line
from pos_terminal.tui.widgets.phrases import PhraseLine


class ProgressScreen(PosScreen[ResultSummary]):
    takes_codes = True  # a scanner's burst here is a read, never typing (tui/app.py)
    holds_a_payment = True  # no sign-out while it is up (PosApp.action_sign_out)
    BINDINGS: ClassVar[list[BindingType]] = [
        # in the footer (and working) only while the cashier has the choice
        Binding("w", "keep_waiting", N_("Keep waiting")),
        Binding("b", "background", N_("Give up waiting")),
    ]
    AUTO_FOCUS = None

    def __init__(self, run: PaymentRun) -> None:
        super().__init__()
        self.run = run
        self._ticking = False

    @property
    def view(self) -> PaymentView | None:
        return self.run.view

    @property
    def awaiting_choice(self) -> bool:
        return self.run.finished and self.run.unresolved

    def body(self) -> Iterable[Widget]:
        with Vertical(id="progress"):
            yield Line(format_vnd(self.run.sale.amount), id="progress-amount")
            yield PhraseLine(_("Submitting the payment…"), id="progress-state")
            yield PhraseLine(_("Code {code} read by {source}").format(
                code=mask_last4(self.run.code_last4), source=source_name(self.run.source)),
                id="progress-code")
            yield Line("", id="progress-elapsed")
            yield PhraseLine("", id="progress-choice")

    def on_mount(self) -> None:
        if not self._ticking:  # on_mount runs again after F8 redraws the screen
            self._ticking = True
            self.set_interval(0.5, self.show_run)
        self.show_run()

    def can_switch_language(self) -> bool:
        return True  # everything shown comes from the run: F8 redraws it whole

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action in ("keep_waiting", "background"):
            return self.awaiting_choice
        return True

    def on_code_scanned(self, message: CodeScanned) -> None:
        message.stop()  # one payment at a time: further reads are the same phone held up longer

    def on_payment_updated(self, message: PaymentUpdated) -> None:
        message.stop()
        if message.run is self.run:
            self.show_run()
            self.refresh_bindings()

    def on_payment_takes_long(self, message: PaymentTakesLong) -> None:
        message.stop()  # this is Progress already

    def on_payment_concluded(self, message: PaymentConcluded) -> None:
        message.stop()
        if message.run is self.run:
            self.answer(message.outcome)

    def show_run(self) -> None:
        if not self.query("#progress-elapsed"):
            return  # being redrawn (F8): the new lines are filled by on_mount
        run, view = self.run, self.run.view
        state = self.query_one("#progress-state", Static)
        choice = self.query_one("#progress-choice", Static)
        if self.awaiting_choice:
            state.update(_("Still not confirmed after the waiting time."))
            choice.update(_("W  keep waiting      B  give up (checked in the background)"))
        elif view is not None and view.state is PaymentState.PROCESSING:
            state.update(_("Processing: the customer may be confirming on the phone…"))
            choice.update("")
        elif view is not None and view.state is PaymentState.UNKNOWN:
            state.update(_("No clear answer yet: asking the service for the status…"))
            choice.update("")
        # The customer waits on while the cashier chooses: the time keeps counting.
        elapsed = run.clock() - run.started if self.awaiting_choice else run.elapsed_s
        polls = view.polls if view is not None else 0
        self.query_one("#progress-elapsed", Static).update(
            ngettext("Waited {seconds} s · checked {polls} time",
                     "Waited {seconds} s · checked {polls} times", polls).format(
                seconds=f"{elapsed:.0f}", polls=polls))

    def action_keep_waiting(self) -> None:
        if self.awaiting_choice:
            self.pos.payments.follow(self.run)
            self.show_run()
            self.refresh_bindings()

    def action_background(self) -> None:
        if not self.awaiting_choice or self.run.view is None:
            return
        self.pos.payments.give_up(self.run)
