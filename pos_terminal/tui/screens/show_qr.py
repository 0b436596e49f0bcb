"""Show QR (the gateway order model): create an order, draw its QR code for the customer's
phone, follow its status until paid, expired or cancelled.

Only a whole code is drawn (widgets/qr.py): the VietQR any banking app reads when it fits the
window, else the order page's URL (the wallet's app reads it), else none, and the screen says
where to scan it instead (the customer display, a larger window). Leaving with Esc asks the
wallet once what became of the order and says so."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterable
from typing import ClassVar

from textual import events, on, work
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.geometry import Size
from textual.widget import Widget
from textual.widgets import Input, Label, Static

from pos_terminal.base.errors import cashier_message
from pos_terminal.base.i18n import N_, _
from pos_terminal.base.money import format_vnd
from pos_terminal.counter import answers
from pos_terminal.counter.qr_sales import cancels_its_qr, shop_qr_wallets, unseen
from pos_terminal.counter.types import PaymentState, PaymentView
from pos_terminal.sentences.labels import wallet_name
from pos_terminal.tui.order_words import still_open, where_to_scan
from pos_terminal.tui.result_summary import ResultSummary
from pos_terminal.tui.sales import NextSale
from pos_terminal.tui.screens.base import PosScreen
from pos_terminal.tui.screens.result import show_result
from pos_terminal.tui.widgets.amount import AmountField
from pos_terminal.tui.widgets.line import Line
from pos_terminal.tui.widgets.phrases import PhraseLine
from pos_terminal.tui.widgets.qr import QrCode, drawn_size

FOLLOW_FOR_S = 16 * 60  # an unpaid order expires after 15 minutes by default
SIDE_MIN = 24  # columns kept beside the code for what the screen says


class ShowQrScreen(PosScreen[NextSale | None]):
    """Paid or declined: the order's Result on top; its answer (NextSale) goes on to Sale.
    Esc: None."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "back", N_("Back")),
        Binding("enter", "create", N_("Create order")),
        Binding("f6", "next_kind", N_("QR kind")),
    ]

    def __init__(self, amount: int = 0, description: str = "") -> None:
        super().__init__()
        self.initial_amount = amount
        self.initial_description = description
        self.concluded = False  # paid or declined: its Result is on top
        self.view: PaymentView | None = None
        self.cancel = threading.Event()
        self.started = 0.0
        self.creating = False  # the create request is on its way: Enter again does nothing
        self.leaving = False   # Esc: the order's state is being asked before leaving
        self.gone = False      # dismissed: a late answer changes nothing
        self.shown = ""        # what the drawn code holds ("" when none fits)
        self.kinds: tuple[str, ...] = ()  # the shop-QR wallets this counter takes (F6 cycles)
        self.kind = 0

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
                yield PhraseLine("", id="qr-kind")
            with Horizontal(id="qr-body"):
                yield QrCode(id="qr-code")
                with Vertical(id="qr-side"):
                    yield PhraseLine("", id="qr-state")
                    yield PhraseLine("", id="qr-amount-label")
                    yield Line("", id="qr-url")

    def on_mount(self) -> None:
        field = self.query_one("#qr-amount", AmountField)
        field.amount = self.initial_amount
        self.query_one("#qr-description", Input).value = self.initial_description
        field.focus()
        self.kinds = shop_qr_wallets(self.pos.counter.payments.wallets)
        self._show_kind()
        self.set_interval(1.0, self._tick)

    def _show_kind(self) -> None:
        """Which kind of QR Enter makes, shown only when there is a choice (F6)."""
        line = self.query_one("#qr-kind", Static)
        line.display = len(self.kinds) > 1
        if self.kinds:
            line.update(_("QR of {wallet}").format(wallet=wallet_name(self.kinds[self.kind])))

    def action_next_kind(self) -> None:
        if self.view is None and not self.creating and self.kinds:
            self.kind = (self.kind + 1) % len(self.kinds)
            self._show_kind()

    def keep_state(self) -> tuple[int, str]:
        return (self.query_one("#qr-amount", AmountField).amount,
                self.query_one("#qr-description", Input).value)

    def restore_state(self, state: tuple[int, str]) -> None:
        self.query_one("#qr-amount", AmountField).amount = state[0]
        self.query_one("#qr-description", Input).value = state[1]

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "create":  # the key hint only while no order is made or being made
            return self.view is None and not self.creating
        if action == "next_kind":  # more than one kind of shop QR, and none made yet
            return len(self.kinds) > 1 and self.view is None and not self.creating
        return True

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
        if self.view is not None or self.creating:
            return
        field = self.query_one("#qr-amount", AmountField)
        problem = field.problem()
        if problem is not None:
            self.say(str(problem), True)
            return
        amount = field.amount
        description = self.query_one("#qr-description", Input).value.strip()
        self.say(_("Creating the order…"))
        self.creating = True
        self.refresh_bindings()
        self.create(amount, description)

    @work(thread=True, group="gateway", exclusive=True, exit_on_error=False)
    def create(self, amount: int, description: str) -> None:
        try:
            view = self.pos.counter.payments.create_gateway_order(
                amount, description, cashier_id=self.pos.cashier_id,
                provider=self.kinds[self.kind] if self.kinds else None).payment
        except Exception as exc:
            text = cashier_message(exc)
            self.app.call_from_thread(self._not_created, _("Order not created: {reason}").format(
                reason=text))
            return
        self.app.call_from_thread(self._created, view)
        try:
            if unseen(view):  # its create answer was lost: nobody sees it, nobody pays it
                view = self.pos.counter.payments.cancel_gateway_order(view.app_trans_id)
                if view.is_final and not self.cancel.is_set():
                    self.app.call_from_thread(self._finished, view)
                    return
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

    def _not_created(self, text: str) -> None:
        self.creating = False
        if self.leaving:  # Esc while it was being made: nothing was made
            self.gone = True
            self.dismiss(None)
            return
        self.refresh_bindings()
        self.say(text, True)

    def _created(self, view: PaymentView) -> None:
        self.view = view
        self.creating = False
        if self.leaving:  # Esc while it was being made: what became of it, then leave
            if view.is_final:
                self.gone = True
                self.dismiss(None)
            else:
                self._leave(view.app_trans_id)
            return
        self.refresh_bindings()
        if not view.order_url:
            self.say(_("The service gave no order URL: {message}").format(
                message=view.message), True)
            return
        self.started = time.monotonic()
        self.query_one("#qr-form").display = False
        self.query_one("#qr-amount-label", Static).update(
            f"{format_vnd(view.amount)}\n{view.description or ''}".rstrip())
        self.call_after_refresh(self._fit_code)  # once the form is gone: the room is known
        self._tick()
        page = self.pos.demo.customer_page(view.provider) if self.pos.demo is not None else None
        if page is not None:
            self.app.notify(_("Demo: the customer pays this QR at {url} (in full, in part, or "
                              "not at all).").format(url=page), markup=False, timeout=30)

    def on_resize(self, event: events.Resize) -> None:
        super().on_resize(event)
        self.call_after_refresh(self._fit_code)

    def _fit_code(self) -> None:
        """The first code that fits the window whole: the answer's qr_code, as wallets ask
        merchants to show (VietQR: any banking app pays it too); the order page's URL (the
        wallet's app reads it) when that is too big; none when neither fits. Beside it, where
        to scan (order_words.py)."""
        view = self.view
        if view is None or not view.order_url or self.concluded or not self.query("#qr-body"):
            return
        area = self.query_one("#qr-body").content_size
        room = Size(area.width - SIDE_MIN - 2, area.height)  # #qr-code's margin: 1 a side
        code = self.query_one(QrCode)
        choices = [data for data in (view.qr_code, view.order_url) if data]
        self.shown = next((data for data in choices if code.fit(data, room)), "")
        if not self.shown:
            code.fit("", room)
        best = drawn_size(choices[0])
        window = Size(self.app.size.width + max(0, best.width - room.width),
                      self.app.size.height + max(0, best.height - room.height))
        said = where_to_scan(view, self.shown, window, self._display_url())
        self.query_one("#qr-url", Static).update(
            "\n".join(text for text in (said, view.order_url) if text))
        self._tick()

    def _display_url(self) -> str | None:
        """The customer display's page when this UI serves it (`[api] with_ui`)."""
        api = self.pos.settings.api
        if not api.with_ui:
            return None
        scheme = "https" if api.cert_file else "http"
        return f"{scheme}://{api.host}:{api.port}/display"

    def _tick(self) -> None:
        if self.view is None or not self.started or self.view.is_final:
            return
        if not self.query("#qr-state"):
            return  # being redrawn
        if self.leaving:
            return
        waited = int(time.monotonic() - self.started)
        clock = f"{waited // 60}:{waited % 60:02d}"
        if answers.part_paid(self.view):  # what arrived and what is missing, never "paid"
            self.say(_("{said} Waiting {waited} · Esc cancels the QR (its status then "
                       "decides)").format(said=self.view.message, waited=clock), True)
        elif cancels_its_qr(self.view.provider):
            self.say(_("Waiting for the customer to pay: {waited} · Esc cancels the QR (its "
                       "status then decides)").format(waited=clock))
        elif self.shown:
            self.say(_("Customer: scan with the wallet app and pay. Waiting {waited} · Esc stops "
                       "watching (the order stays valid)").format(waited=clock))
        else:
            self.say(_("Waiting for the customer to pay: {waited} · Esc stops watching (the "
                       "order stays valid)").format(waited=clock))

    def _finished(self, view: PaymentView) -> None:
        self.view = view
        if view.state in (PaymentState.SUCCEEDED, PaymentState.FAILED):
            self.concluded = self.passing = True
            show_result(self, ResultSummary.from_view(view))
        else:
            self.say(_("Not paid yet after 16 minutes: the order has expired or will be checked "
                       "in the background. Esc goes back."), True)

    def action_back(self) -> None:
        """Esc: with an order that may still be paid, close it at its provider if it can be (a
        wallet that cancels its QR closes it; another's order stays valid until it expires) and
        ask the wallet once what became of it (made meanwhile: once it is made); Esc again
        while it is asked leaves at once."""
        self.cancel.set()
        if self.leaving and self.view is not None:
            self._left(_("Esc was pressed again before the wallet answered"))
            return
        if self.leaving:
            return  # the order is being made: asked about once it is
        if self.concluded or (self.view is None and not self.creating) or (
                self.view is not None and self.view.is_final):
            self.gone = True
            self.dismiss(None)
            return
        self.leaving = True
        self.say(_("Asking the wallet what became of the order…"))
        if self.view is not None:
            self._leave(self.view.app_trans_id)

    @work(thread=True, group="gateway-leave", exclusive=True, exit_on_error=False)
    def _leave(self, app_trans_id: str) -> None:
        try:  # closed at its provider if it can be (a bank transfer's QR), then its status decides
            view: PaymentView | str = self.pos.counter.payments.cancel_gateway_order(
                app_trans_id)
        except Exception as exc:
            view = cashier_message(exc)
        self.app.call_from_thread(self._left, view)

    def _left(self, answer: PaymentView | str) -> None:
        """Paid, cancelled or expired: its Result, as if it had been watched to the end. Still
        open (or not known): a notice says so, and the display stops showing the code."""
        view = self.view
        if self.gone or view is None:
            return  # answered after Esc again: already left
        self.gone = True
        if isinstance(answer, PaymentView) and answer.state in (PaymentState.SUCCEEDED,
                                                                PaymentState.FAILED):
            self._finished(answer)
            return
        self.pos.counter.sale_cancelled(view.amount, app_trans_id=view.app_trans_id)
        if isinstance(answer, PaymentView) and answers.part_paid(answer):
            said = answer.message  # closed with part of the money: what arrived, what to do
        else:
            said = still_open(view, answer if isinstance(answer, str) else None)
        self.app.notify(said, timeout=20, markup=False)
        self.dismiss(None)

