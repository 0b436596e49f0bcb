"""Small modal dialogs: refund (amount + confirmation) and manual override (state + reason)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import ClassVar

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Input, Static

from pos_terminal.base.amounts import parse_refund_amount
from pos_terminal.base.i18n import N_, _
from pos_terminal.base.money import format_vnd
from pos_terminal.base.reasons import Reason
from pos_terminal.counter.answers import part_paid, state_label
from pos_terminal.counter.types import PaymentState, PaymentView, RefundState, RefundView
from pos_terminal.tui.screens.modal import Dialog, Words, said
from pos_terminal.tui.widgets.phrases import PhraseLine


@dataclass(frozen=True)
class RefundRequestUi:
    amount: int
    #: the shop's own bank transfer that returned it (a wallet with no refund of its own)
    returned_by_shop: str | None = None


@dataclass(frozen=True)
class OverrideRequestUi:
    state: PaymentState
    reason: str


class RefundDialog(Dialog[RefundRequestUi | None]):
    """Type the amount (the rest of the payment by default), Enter, then Y to confirm. With
    `by_shop` (a wallet with no refund of its own) it records money the shop returned by its own
    bank transfer: the amount, then the transfer's reference, Enter, then Y."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "cancel", N_("Cancel")),
        Binding("y", "confirm", N_("Yes"), show=False),
    ]

    def __init__(self, view: PaymentView, refunds: Sequence[RefundView] = (),
                 by_shop: bool = False) -> None:
        super().__init__(classes="dialog")
        self.view = view
        self.by_shop = by_shop
        # Refunds still on their way count as given: the journal counts them the same way.
        self.in_flight = sum(r.amount for r in refunds if r.state is RefundState.REFUNDING)
        self.left = max(view.refundable_amount - self.in_flight, 0)
        self.pending_amount: int | None = None
        self._restoring: str | None = None

    def compose(self) -> ComposeResult:
        left = self.left
        with Vertical():
            yield PhraseLine(_("Refund payment {app_trans_id}").format(
                app_trans_id=self.view.app_trans_id))
            paid = format_vnd(self.view.amount)
            refunded = format_vnd(self.view.refunded_amount)
            if self.in_flight:
                yield PhraseLine(_("Paid {amount}, refunded {refunded}, {in_flight} being "
                                   "refunded: {left} can be refunded.").format(
                    amount=paid, refunded=refunded, in_flight=format_vnd(self.in_flight),
                    left=format_vnd(left)))
            else:
                yield PhraseLine(_("Paid {amount}, refunded {refunded}: {left} can be "
                                   "refunded.").format(
                    amount=paid, refunded=refunded, left=format_vnd(left)))
            yield Input(value=str(left), restrict=r"[0-9]*", max_length=12, id="refund-amount")
            if self.by_shop:
                yield PhraseLine(_("The wallet has no refund: the shop returns the money by its "
                                   "own bank transfer, recorded here (nothing is sent to the "
                                   "wallet)."))
                yield Input(placeholder=_("The shop's bank transfer (its reference)"),
                            max_length=200, id="refund-transfer")
            yield PhraseLine(_("Enter: check the amount · Esc: cancel"), id="refund-message")

    def keep_state(self) -> tuple[str, int | None, bool, str]:
        return (self.query_one("#refund-amount", Input).value, self.pending_amount,
                self.query_one("#refund-amount", Input).has_focus, self._transfer())

    def restore_state(self, state: tuple[str, int | None, bool, str]) -> None:
        value, pending, focused, transfer = state
        if self.by_shop:
            self.query_one("#refund-transfer", Input).value = transfer
        field = self.query_one("#refund-amount", Input)
        if field.value != value:  # a Changed event comes for it: not a new amount
            self._restoring = value
            field.value = value
        if pending is not None:  # the question was up: asked again, in the new language
            self._ask(pending)
        elif focused:
            field.focus()

    def _ask(self, amount: int) -> None:
        self.pending_amount = amount
        message = self.query_one("#refund-message", Static)
        message.remove_class("error")
        if self.by_shop:
            message.update(_("Record {amount} returned to the customer by the shop's bank "
                             "transfer? Y: yes, record it · Esc: no").format(
                                 amount=format_vnd(amount)))
        else:
            message.update(_("Refund {amount} to the customer's wallet? Y: yes, refund · "
                             "Esc: no").format(amount=format_vnd(amount)))
        self.set_focus(None)

    def _transfer(self) -> str:
        return self.query_one("#refund-transfer", Input).value.strip() if self.by_shop else ""

    @on(Input.Changed, "#refund-amount")
    def _changed(self, event: Input.Changed) -> None:
        """A new amount: the old sentence about the previous one goes."""
        if self._restoring is not None:  # the amount put back after F8: nothing new typed
            if event.value == self._restoring:
                self._restoring = None
            return
        if self.pending_amount is not None or self.query_one("#refund-message").has_class(
                "error"):
            self.pending_amount = None
            message = self.query_one("#refund-message", Static)
            message.remove_class("error")
            message.update(_("Enter: check the amount · Esc: cancel"))

    @on(Input.Submitted, "#refund-amount")
    def _check(self, event: Input.Submitted) -> None:
        self._check_amount(event.value)

    @on(Input.Submitted, "#refund-transfer")
    def _transfer_typed(self, _event: Input.Submitted) -> None:
        self._check_amount(self.query_one("#refund-amount", Input).value)

    def _check_amount(self, value: str) -> None:
        left = self.left
        amount = parse_refund_amount(value)  # the refund rule of every front end
        message = self.query_one("#refund-message", Static)
        if isinstance(amount, Reason):
            message.update(str(amount))
            message.add_class("error")
            return
        if amount > left:  # what is left of this payment, as the dialog shows it
            message.update(_("Type an amount between {low} and {high}, then Enter.").format(
                low=format_vnd(1), high=format_vnd(left)))
            message.add_class("error")
            return
        if self.by_shop and not self._transfer():
            message.update(_("Type the shop's bank transfer (its reference), then Enter."))
            message.add_class("error")
            self.query_one("#refund-transfer", Input).focus()
            return
        self._ask(amount)

    def action_confirm(self) -> None:
        if self.pending_amount is not None:
            self.dismiss(RefundRequestUi(self.pending_amount, self._transfer() or None))

    def action_cancel(self) -> None:
        self.dismiss(None)


class OverrideDialog(Dialog[OverrideRequestUi | None]):
    """S or F chooses the state (after checking the merchant portal); a reason is required."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape", "cancel", N_("Cancel")),
                Binding("ctrl+s", "choose('succeeded')", N_("Paid"), show=False),
                Binding("ctrl+f", "choose('failed')", N_("Not paid"), show=False)]

    def __init__(self, view: PaymentView) -> None:
        super().__init__(classes="dialog")
        self.view = view
        self.state: PaymentState | None = None

    def compose(self) -> ComposeResult:
        with Vertical():
            yield PhraseLine(_("Manual override of {app_trans_id} ({state}, {amount})").format(
                app_trans_id=self.view.app_trans_id, state=state_label(self.view.state.value),
                amount=format_vnd(self.view.amount)))
            part = part_paid(self.view)
            if part:  # a shop QR paid in part: what each key means for the money that arrived
                yield PhraseLine(_("{paid} arrived, {missing} is missing. Ctrl+S: the rest was "
                                   "collected another way · Ctrl+F: the shop returned what "
                                   "arrived").format(paid=format_vnd(part["amount_paid"]),
                                                     missing=format_vnd(part["amount_missing"])),
                                 id="override-state")
            else:
                yield PhraseLine(_("Only after checking the merchant portal. Ctrl+S: it was "
                                   "paid · Ctrl+F: it was not paid"), id="override-state")
            yield Input(placeholder=_("Reason (required)"), max_length=200,
                        id="override-reason")
            yield PhraseLine(_("Enter: record the override · Esc: cancel"), id="override-message")

    def keep_state(self) -> str:
        return self.query_one("#override-reason", Input).value

    def restore_state(self, state: str) -> None:
        self.query_one("#override-reason", Input).value = state
        self.query_one("#override-reason", Input).focus()
        if self.state is not None:
            self.action_choose(self.state.value)

    def action_choose(self, state: str) -> None:
        self.state = PaymentState(state)
        label = (_("PAID (succeeded)") if self.state is PaymentState.SUCCEEDED
                 else _("NOT PAID (failed)"))
        self.query_one("#override-state", Static).update(
            _("New state: {label}").format(label=label))
        self.query_one("#override-reason", Input).focus()

    @on(Input.Submitted, "#override-reason")
    def _submit(self, event: Input.Submitted) -> None:
        message = self.query_one("#override-message", Static)
        if self.state is None:
            message.update(_("Choose the state first: Ctrl+S paid, Ctrl+F not paid."))
            message.add_class("error")
            return
        if not event.value.strip():
            message.update(_("Type the reason (what you checked, e.g. the portal reference)."))
            message.add_class("error")
            return
        self.dismiss(OverrideRequestUi(self.state, event.value.strip()))

    def action_cancel(self) -> None:
        self.dismiss(None)


class ConfirmDialog(Dialog[bool]):
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("y", "answer(True)", N_("Yes")),
        Binding("n,escape", "answer(False)", N_("No")),
    ]

    def __init__(self, question: Words) -> None:
        super().__init__(classes="dialog")
        self.words = question

    @property
    def question(self) -> str:
        """The question in the language shown now."""
        return said(self.words)

    def compose(self) -> ComposeResult:
        with Vertical():
            yield PhraseLine(self.question, id="confirm-question")
            yield PhraseLine(_("Y: yes · N: no"))

    def action_answer(self, yes: bool) -> None:
        self.dismiss(yes)


class WalletDialog(ModalScreen[str | None]):
    """A code no wallet's pattern takes, or several: the cashier names the customer's wallet
    with one key (1, 2...), or Esc (nothing is sent; scan again)."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "choose(0)", N_("Cancel")),
        *(Binding(str(n), f"choose({n})", str(n), show=False) for n in range(1, 10)),
    ]

    def __init__(self, why: str, wallets: Sequence[tuple[str, str]]) -> None:
        """`wallets`: (key, name shown) of each wallet to choose between."""
        super().__init__(classes="dialog")
        self.why = why
        self.wallets = tuple(wallets)

    def compose(self) -> ComposeResult:
        with Vertical():
            yield PhraseLine(self.why)
            yield PhraseLine(_("Which wallet is the customer paying with?"))
            yield PhraseLine(" · ".join(f"{n}: {name}" for n, (_key, name)
                                        in enumerate(self.wallets, start=1))
                             + " · " + _("Esc: cancel"))

    def action_choose(self, number: int) -> None:
        if number == 0:
            self.dismiss(None)
        elif number <= len(self.wallets):
            self.dismiss(self.wallets[number - 1][0])
