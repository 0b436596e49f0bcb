"""Sign-in: cashier id, Enter, PIN (masked), Enter. Shown at start when the journal has
cashiers, and after a sign-out. The PIN is checked in a worker (scrypt takes a moment)."""

from __future__ import annotations

from collections.abc import Iterable

from textual import on, work
from textual.containers import Vertical
from textual.widget import Widget
from textual.widgets import Input, Static

from pos_terminal.base.errors import cashier_message
from pos_terminal.base.i18n import _
from pos_terminal.counter.admin import CashierError, PinRejected
from pos_terminal.tui.cashier import refusal
from pos_terminal.tui.messages import CodeScanned
from pos_terminal.tui.screens.base import PosScreen
from pos_terminal.tui.widgets.line import Line


class SignInScreen(PosScreen[None]):
    def body(self) -> Iterable[Widget]:
        with Vertical(id="signin"):
            yield Line(_("Sign in to take payments"), id="signin-title")
            yield Input(placeholder=_("Cashier id"), id="signin-id", max_length=32,
                        restrict=r"[A-Za-z0-9_.-]*")
            yield Input(placeholder=_("PIN"), id="signin-pin", password=True, max_length=8,
                        restrict=r"[0-9]*")
            yield Line(_("Type your cashier id, Enter, then your PIN, Enter."),
                       id="signin-message")

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

    @work(thread=True, group="signin", exclusive=True, exit_on_error=False)
    def check(self, cashier_id: str, pin: str) -> None:
        try:
            signed = self.pos.counter.sign_in(cashier_id, pin)
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
