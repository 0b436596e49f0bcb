"""A supervisor authorises a refund or an override with their PIN (once any supervisor is set up).

The dialog answers the authorising supervisor's id, or None (Esc: nothing is sent). With one
supervisor only their PIN is asked (as `Cashiers.require_supervisor` allows); with several,
their id too. A wrong PIN, a locked id or a cashier who is not a supervisor is said in the
dialog, which stays open for another try."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, ClassVar, cast

from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.screen import Screen
from textual.widgets import Input, Static

from pos_terminal.base.errors import cashier_message
from pos_terminal.base.i18n import N_, _
from pos_terminal.counter.admin import Cashier, CashierError
from pos_terminal.tui.cashier import refusal
from pos_terminal.tui.screens.modal import Dialog, Words, said
from pos_terminal.tui.widgets.phrases import PhraseLine

if TYPE_CHECKING:
    from pos_terminal.tui.host import CounterHost


class SupervisorDialog(Dialog[str | None]):
    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape", "cancel", N_("Cancel"))]

    def __init__(self, what: Words, supervisors: list[Cashier]) -> None:
        super().__init__(classes="dialog")
        self.what = what
        self.only = supervisors[0] if len(supervisors) == 1 else None

    def compose(self) -> ComposeResult:
        with Vertical():
            yield PhraseLine(_("A supervisor must authorise: {what}").format(what=said(self.what)))
            if self.only is not None:
                yield PhraseLine(_("Supervisor: {name} ({id})").format(name=self.only.name,
                                                                      id=self.only.id))
            yield Input(placeholder=_("Supervisor id"), id="supervisor-id", max_length=32,
                        restrict=r"[A-Za-z0-9_.-]*", classes="hidden" if self.only else "")
            yield Input(placeholder=_("Supervisor PIN"), id="supervisor-pin", password=True,
                        max_length=8, restrict=r"[0-9]*")
            yield PhraseLine(_("Enter: authorise · Esc: cancel (nothing is sent)"),
                             id="supervisor-message")

    def on_mount(self) -> None:
        self.query_one("#supervisor-pin" if self.only else "#supervisor-id", Input).focus()

    def keep_state(self) -> str:
        return self.query_one("#supervisor-id", Input).value  # the PIN is typed again

    def restore_state(self, state: str) -> None:
        self.query_one("#supervisor-id", Input).value = state  # on_mount gave the focus

    def say(self, text: str, error: bool = False) -> None:
        message = self.query_one("#supervisor-message", Static)
        message.update(text)
        message.set_class(error, "error")

    @on(Input.Submitted, "#supervisor-id")
    def _id_done(self) -> None:
        self.query_one("#supervisor-pin", Input).focus()

    @on(Input.Submitted, "#supervisor-pin")
    def _pin_done(self, event: Input.Submitted) -> None:
        supervisor_id = (self.only.id if self.only
                         else self.query_one("#supervisor-id", Input).value.strip())
        pin = event.input.value
        event.input.value = ""
        if not supervisor_id:
            self.say(_("Type the supervisor's id first, then Enter."), True)
            self.query_one("#supervisor-id", Input).focus()
            return
        if not pin:
            self.say(_("Type the supervisor's PIN, then Enter."), True)
            return
        self.say(_("Checking…"))
        self.check(supervisor_id, pin)

    @work(thread=True, group="supervisor", exclusive=True, exit_on_error=False)
    def check(self, supervisor_id: str, pin: str) -> None:
        app, host = self.app, cast("CounterHost", self.app)
        try:
            supervisor = host.counter.cashiers.book().require_supervisor(pin, supervisor_id)
        except CashierError as exc:
            text = refusal(exc, supervisor_id) + " " + _("Nothing was sent.")
            app.call_from_thread(self.say, text, True)
            return
        except Exception as exc:
            text = cashier_message(exc)
            app.call_from_thread(self.say, _("Cannot check the PIN: {error}. Nothing was "
                                             "sent.").format(error=text), True)
            return
        app.call_from_thread(self.dismiss, supervisor.id)

    def action_cancel(self) -> None:
        self.dismiss(None)


def authorise(screen: Screen[None], what: Words, then: Callable[[str | None], object]) -> None:
    """Run `then(authoriser)` once `what` is authorised; never when the supervisor cancels.

    The authoriser is the supervisor whose PIN was checked; None with no supervisor set up
    (anyone may, as in the CLI)."""
    app, host = screen.app, cast("CounterHost", screen.app)
    try:
        supervisors = host.counter.cashiers.supervisors()
    except Exception as exc:
        text = cashier_message(exc)
        app.notify(_("Cannot read the cashiers from the journal: {error}. Nothing was "
                     "sent.").format(error=text), severity="error", markup=False)
        return
    if not supervisors:
        then(None)
        return

    def answered(supervisor_id: str | None) -> None:
        if supervisor_id is not None:
            then(supervisor_id)

    app.push_screen(SupervisorDialog(what, supervisors), answered)
