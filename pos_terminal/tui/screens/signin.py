"""Sign-in: cashier id, Enter, PIN (masked), Enter. Shown at start when the journal has
cashiers, and after a sign-out. The PIN is checked in a worker (scrypt takes a moment).

A supervisor's tools for the id typed: Ctrl+U unlocks it, Ctrl+N gives it a new PIN (the
supervisor's own PIN first, screens/supervisor.py)."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import ClassVar

from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.widget import Widget
from textual.widgets import Input, Static

from pos_terminal.base.errors import cashier_message
from pos_terminal.base.i18n import N_, _
from pos_terminal.counter.admin import CashierError, PinRejected, check_pin_format
from pos_terminal.tui.cashier import refusal
from pos_terminal.tui.messages import CodeScanned
from pos_terminal.tui.screens.base import PosScreen
from pos_terminal.tui.screens.modal import Dialog
from pos_terminal.tui.screens.supervisor import authorise
from pos_terminal.tui.widgets.phrases import PhraseLine


class SignInScreen(PosScreen[None]):
    takes_codes = True  # a scanner's burst here is a read, never typing (tui/app.py)
    BINDINGS: ClassVar[list[BindingType]] = [
        # priority: the id field (an Input) has its own Ctrl+U (delete to the start)
        Binding("ctrl+u", "unlock", N_("Unlock"), priority=True),
        Binding("ctrl+n", "new_pin", N_("New PIN"), priority=True),
    ]

    def body(self) -> Iterable[Widget]:
        with Vertical(id="signin"):
            yield PhraseLine(_("Sign in to take payments"), id="signin-title")
            yield Input(placeholder=_("Cashier id"), id="signin-id", max_length=32,
                        restrict=r"[A-Za-z0-9_.-]*")
            yield Input(placeholder=_("PIN"), id="signin-pin", password=True, max_length=8,
                        restrict=r"[0-9]*")
            yield PhraseLine(_("Type your cashier id, Enter, then your PIN, Enter."),
                             id="signin-message")
            if self.pos.demo is not None:
                from pos_terminal.tui.demo import demo_people_hint

                yield PhraseLine(demo_people_hint(), id="signin-demo")

    def on_mount(self) -> None:
        self.query_one("#signin-id", Input).focus()

    def keep_state(self) -> str:
        return self.query_one("#signin-id", Input).value  # the PIN is typed again, never kept

    def restore_state(self, state: str) -> None:
        self.query_one("#signin-id", Input).value = state

    def say(self, text: str, error: bool = False) -> None:
        message = self.query_one("#signin-message", Static)
        message.update(text)
        message.set_class(error, "error")

    def on_code_scanned(self, message: CodeScanned) -> None:
        message.stop()
        self.say(_("A payment code was read, but nobody is signed in: sign in first."), True)

    @on(Input.Submitted, "#signin-id")
    def _id_done(self, event: Input.Submitted) -> None:
        if not event.value.strip():
            self.say(_("Type your cashier id first, then Enter."), True)
            return
        self.query_one("#signin-pin", Input).focus()

    @on(Input.Submitted, "#signin-pin")
    def _pin_done(self, event: Input.Submitted) -> None:
        cashier_id = self.query_one("#signin-id", Input).value.strip()
        pin = event.value
        event.input.value = ""  # never left on screen, even masked
        if not cashier_id:
            self.say(_("Type your cashier id first, then Enter."), True)
            self.query_one("#signin-id", Input).focus()
            return
        if not pin:
            self.say(_("Type your PIN (4 to 8 digits), then Enter."), True)
            return
        self.say(_("Checking…"))
        self.check(cashier_id, pin)

    def _refused(self, text: str, other_id: bool) -> None:
        self.say(text, True)
        if other_id:  # unknown or locked: another id is needed, not another PIN
            self.query_one("#signin-id", Input).focus()

    # ---- supervisor tools -----------------------------------------------------------------
    def _typed_id(self) -> str | None:
        cashier_id = self.query_one("#signin-id", Input).value.strip()
        if not cashier_id:
            self.say(_("Type the cashier id first, then Ctrl+U (unlock) or Ctrl+N (new PIN)."),
                     True)
            self.query_one("#signin-id", Input).focus()
            return None
        return cashier_id

    def action_unlock(self) -> None:
        cashier_id = self._typed_id()
        if cashier_id is not None:
            authorise(self, lambda: _("unlock {id}").format(id=cashier_id),
                      lambda by: self.unlock(cashier_id, by))

    def action_new_pin(self) -> None:
        cashier_id = self._typed_id()
        if cashier_id is None:
            return

        def authorised(by: str | None) -> None:
            def chosen(pin: str | None) -> None:
                if pin is not None:
                    self.set_pin(cashier_id, pin, by)

            self.app.push_screen(NewPinDialog(cashier_id), chosen)

        authorise(self, lambda: _("a new PIN for {id}").format(id=cashier_id), authorised)

    @work(thread=True, group="signin", exclusive=True, exit_on_error=False)
    def unlock(self, cashier_id: str, by: str | None) -> None:
        self._admin(lambda: self.pos.counter.cashiers.book().unlock(cashier_id, by=by),
                    _("{id} is unlocked: type the PIN, Enter.").format(id=cashier_id))

    @work(thread=True, group="signin", exclusive=True, exit_on_error=False)
    def set_pin(self, cashier_id: str, pin: str, by: str | None) -> None:
        self._admin(lambda: self.pos.counter.cashiers.book().set_pin(cashier_id, pin, by=by),
                    _("{id} has a new PIN: sign in with it.").format(id=cashier_id))

    def _admin(self, change: Callable[[], object], done: str) -> None:
        """In a worker: the change, then the sentence (or why not)."""
        try:
            change()
        except CashierError as exc:
            self.app.call_from_thread(self.say, exc.message, True)
            return
        except Exception as exc:  # the journal: its sentence, never a traceback
            self.app.call_from_thread(self.say, cashier_message(exc), True)
            return
        self.app.call_from_thread(self.say, done)
        self.app.call_from_thread(self.query_one("#signin-pin", Input).focus)

    @work(thread=True, group="signin", exclusive=True, exit_on_error=False)
    def check(self, cashier_id: str, pin: str) -> None:
        try:
            signed = self.pos.counter.cashiers.sign_in(cashier_id, pin)
        except CashierError as exc:
            self.app.call_from_thread(self._refused, refusal(exc, cashier_id),
                                      not isinstance(exc, PinRejected))
            return
        except Exception as exc:  # the journal: its sentence, never a traceback
            text = cashier_message(exc)
            self.app.call_from_thread(self.say, _("Cannot sign in: {error}").format(error=text),
                                      True)
            return
        self.app.call_from_thread(self.pos.signed_in_as, signed)


class NewPinDialog(Dialog[str | None]):
    """The new PIN twice (masked); its answer is the PIN, or None (Esc)."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape", "cancel", N_("Cancel"))]

    def __init__(self, cashier_id: str) -> None:
        super().__init__(classes="dialog")
        self.cashier_id = cashier_id

    def compose(self) -> ComposeResult:
        with Vertical():
            yield PhraseLine(_("New PIN for {id} (4 to 8 digits)").format(id=self.cashier_id))
            yield Input(placeholder=_("New PIN"), id="new-pin", password=True, max_length=8,
                        restrict=r"[0-9]*")
            yield Input(placeholder=_("The same PIN again"), id="new-pin-again", password=True,
                        max_length=8, restrict=r"[0-9]*")
            yield PhraseLine(_("Enter: next · Esc: cancel (the PIN stays as it was)"),
                             id="new-pin-message")

    def on_mount(self) -> None:
        self.query_one("#new-pin", Input).focus()

    @on(Input.Submitted, "#new-pin")
    def _first(self) -> None:
        self.query_one("#new-pin-again", Input).focus()

    @on(Input.Submitted, "#new-pin-again")
    def _second(self) -> None:
        first = self.query_one("#new-pin", Input)
        second = self.query_one("#new-pin-again", Input)
        message = self.query_one("#new-pin-message", Static)
        pin, again = first.value, second.value
        first.value = second.value = ""  # never left on screen, even masked
        try:
            check_pin_format(pin)
        except CashierError as exc:
            message.update(exc.message)
            message.add_class("error")
            first.focus()
            return
        if pin != again:
            message.update(_("The two PINs differ: type the new PIN twice."))
            message.add_class("error")
            first.focus()
            return
        self.dismiss(pin)

    def action_cancel(self) -> None:
        self.dismiss(None)
