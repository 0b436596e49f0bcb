"""Show QR (the gateway order model): create an order, draw its order URL as a QR code for the
customer's phone, follow its status until paid, expired or cancelled."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterable
from typing import ClassVar

from textual import on, work
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.widget import Widget
from textual.widgets import Input, Label, Static

from pos_terminal.base.errors import cashier_message
from pos_terminal.base.i18n import N_, _
from pos_terminal.base.money import format_vnd
from pos_terminal.counter.types import PaymentState, PaymentView
from pos_terminal.tui.result_summary import ResultSummary
from pos_terminal.tui.sales import NextSale
from pos_terminal.tui.screens.base import PosScreen
from pos_terminal.tui.screens.result import show_result
from pos_terminal.tui.widgets.amount import AmountField
from pos_terminal.tui.widgets.line import Line
from pos_terminal.tui.widgets.qr import QrCode

FOLLOW_FOR_S = 16 * 60  # an unpaid order expires after 15 minutes by default


class ShowQrScreen(PosScreen[NextSale | None]):
    """Paid or declined: the order's Result on top; its answer (NextSale) goes on to Sale.
    Esc: None."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "back", N_("Back")),
        Binding("enter", "create", N_("Create order")),
    ]

    def __init__(self, amount: int = 0, description: str = "") -> None:
        super().__init__()
        self.initial_amount = amount
        self.initial_description = description
        self.concluded = False  # paid or declined: its Result is on top
        self.view: PaymentView | None = None
        self.cancel = threading.Event()
        self.started = 0.0

    @property
    def holds_a_payment(self) -> bool:
        """No sign-out while the order may still be paid (PosApp.action_sign_out)."""
        return not self.concluded

    def body(self) -> Iterable[Widget]:
        with Vertical(id="show-qr"):
            with Vertical(id="qr-form"):
                yield Label(_("Amount for the customer to pay by phone, then Enter"),
                            classes="hint")
                yield AmountField(self.pos.settings.checkout, id="qr-amount")
                yield Input(placeholder=_("Description (optional)"), id="qr-description",
                            max_length=100)
            with Horizontal(id="qr-body"):
                yield QrCode(id="qr-code")
                with Vertical(id="qr-side"):
                    yield Line("", id="qr-state")
                    yield Line("", id="qr-amount-label")
                    yield Line("", id="qr-url")

    def on_mount(self) -> None:
        field = self.query_one("#qr-amount", AmountField)
        field.amount = self.initial_amount
        self.query_one("#qr-description", Input).value = self.initial_description
        field.focus()
        self.set_interval(1.0, self._tick)

    def keep_state(self) -> tuple[int, str]:
        return (self.query_one("#qr-amount", AmountField).amount,
                self.query_one("#qr-description", Input).value)

    def restore_state(self, state: tuple[int, str]) -> None:
        self.query_one("#qr-amount", AmountField).amount = state[0]
        self.query_one("#qr-description", Input).value = state[1]

    def can_switch_language(self) -> bool:
        return self.view is None  # an order on screen stays as it is

    def on_unmount(self) -> None:
        self.cancel.set()

    def say(self, text: str, error: bool = False) -> None:
        state = self.query_one("#qr-state", Static)
        state.update(text)
        state.set_class(error, "error")

    @on(Input.Submitted, "#qr-description")
    def _description_done(self) -> None:
        self.action_create()

    def action_create(self) -> None:
        if self.view is not None:
            return
        field = self.query_one("#qr-amount", AmountField)
        problem = field.problem()
        if problem is not None:
            self.say(str(problem), True)
            return
        amount = field.amount
        description = self.query_one("#qr-description", Input).value.strip()
        self.say(_("Creating the order…"))
        self.create(amount, description)

    @work(thread=True, group="gateway", exclusive=True, exit_on_error=False)
    def create(self, amount: int, description: str) -> None:
        try:
            view = self.pos.counter.payments.create_gateway_order(amount, description).payment
        except Exception as exc:
            text = cashier_message(exc)
            self.app.call_from_thread(self.say, _("Order not created: {reason}").format(
                reason=text), True)
            return
        self.app.call_from_thread(self._created, view)
        try:
            final = self.pos.counter.payments.follow(view.app_trans_id, deadline_s=FOLLOW_FOR_S,
                                                     on_progress=self._progress, cancel=self.cancel,
                                                     via="gateway")
        except Exception as exc:
            text = cashier_message(exc)
            self.app.call_from_thread(self.say, _("Status not available: {reason}").format(
                reason=text), True)
            return
        if not self.cancel.is_set():
            self.app.call_from_thread(self._finished, final)

    def _progress(self, view: PaymentView) -> None:
        if not self.cancel.is_set():
            self.app.call_from_thread(setattr, self, "view", view)

    def _created(self, view: PaymentView) -> None:
        self.view = view
        if not view.order_url:
            self.say(_("The service gave no order URL: {message}").format(
                message=view.message), True)
            return
        self.started = time.monotonic()
        self.query_one("#qr-form").display = False
        # ZaloPay asks merchants to show the answer's qr_code (VietQR: any banking app pays it
        # too) rather than order_url, which stays written beside it for a phone's browser.
        self.query_one(QrCode).set_data(view.qr_code or view.order_url)
        self.query_one("#qr-amount-label", Static).update(
            f"{format_vnd(view.amount)}\n{view.description or ''}".rstrip())
        self.query_one("#qr-url", Static).update(
            (_("ZaloPay or any banking app can scan it.") + "\n" if view.qr_code else "")
            + view.order_url)
        self._tick()

    def _tick(self) -> None:
        if self.view is None or not self.started or self.view.is_final:
            return
        if not self.query("#qr-state"):
            return  # being redrawn
        waited = int(time.monotonic() - self.started)
        self.say(_("Customer: scan with the wallet app and pay. Waiting {waited} · Esc stops "
                   "watching (the order stays valid)").format(
                       waited=f"{waited // 60}:{waited % 60:02d}"))

    def _finished(self, view: PaymentView) -> None:
        self.view = view
        if view.state in (PaymentState.SUCCEEDED, PaymentState.FAILED):
            self.concluded = self.passing = True
            show_result(self, ResultSummary.from_view(view))
        else:
            self.say(_("Not paid yet after 16 minutes: the order has expired or will be checked "
                       "in the background. Esc goes back."), True)

    def action_back(self) -> None:
        self.cancel.set()
        if self.view is not None and not self.concluded:  # the display stops showing the QR
            self.pos.counter.sale_cancelled(self.view.amount,
                                            app_trans_id=self.view.app_trans_id)
        self.dismiss(None)
