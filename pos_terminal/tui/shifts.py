"""Who stands at the counter: Sign-in (when the journal has cashiers) opens the cashier's shift
and leads to Sale; F12 and Ctrl+Q show the open shift's totals and ask; signing out closes the
shift in a worker and goes back to Sign-in. The App owns the keys and asks this for the rest
(PosApp.action_sign_out, PosApp.action_quit)."""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

from textual.app import App

from pos_terminal.base.clock import now_ms
from pos_terminal.base.errors import cashier_message
from pos_terminal.base.i18n import _
from pos_terminal.counter import Counter, SignedIn
from pos_terminal.tui.cashier import no_supervisor_notice
from pos_terminal.tui.screens.modal import Words

#: The worker groups of money on its way: no sign-out meanwhile.
BUSY_GROUPS = frozenset({"payment", "refund", "override"})


class Shifts:
    def __init__(self, app: App[Any], counter: Callable[[], Counter],
                 set_header: Callable[..., None], payment_in_flight: threading.Event) -> None:
        self._app = app
        self._counter = counter  # the App's (tests may replace it after construction)
        self._set_header = set_header
        self._payment_in_flight = payment_in_flight
        self.signed_in: SignedIn | None = None
        self._no_supervisor_said = False

    async def open_counter(self) -> None:
        """Sign-in first once the journal has cashiers; without any, Sale as before. Someone
        signed in already (the demo's cashier): Sale, in their name."""
        from pos_terminal.tui.screens.signin import SignInScreen

        if self.signed_in is not None:
            self._set_header(cashier=self.signed_in.cashier.name)
            await self._to_sale(switch=False)
        elif self._counter().cashiers.book().any_active():
            await self._app.push_screen(SignInScreen())
        else:
            await self._to_sale(switch=False)

    async def _to_sale(self, *, switch: bool) -> None:
        from pos_terminal.tui.screens.sale import SaleScreen

        app, sale = self._app, SaleScreen()
        await (app.switch_screen(sale) if switch else app.push_screen(sale))
        if sale.query("#sale-message") and not self._no_supervisor_said and not (
                self._counter().cashiers.book().any_supervisor()):
            self._no_supervisor_said = True  # said once, until the first sale clears it
            sale.say(no_supervisor_notice())

    def signed_in_as(self, signed: SignedIn) -> None:
        self.signed_in = signed
        self._set_header(cashier=signed.cashier.name)
        self._app.call_later(self._to_sale, switch=True)

    def _busy(self) -> bool:
        app = self._app
        return self._payment_in_flight.is_set() or any(
            getattr(screen, "holds_a_payment", False) for screen in app.screen_stack) or any(
            worker.group in BUSY_GROUPS and worker.is_running for worker in app.workers)

    def sign_out(self) -> None:
        """F12: close the shift and sign out, after the shift's totals and a question; refused
        while a payment or refund is in flight."""
        signed = self.signed_in
        if signed is None:
            return  # nobody signs in at this counter
        if self._busy():
            self._app.notify(_("A payment or refund is in progress: wait for its result before "
                               "signing out."), severity="warning", markup=False)
            return

        def answered(yes: bool | None) -> None:
            if yes and self.signed_in is signed:
                self._close(signed)

        def question() -> str:
            return _("Close {name}'s shift and sign out?").format(name=signed.cashier.name)

        if not self.ask_with_shift(question, answered):
            self._close(signed)

    def ask_with_shift(self, question: Words, answered: Callable[[bool | None], None]) -> bool:
        """Ask `question` under the open shift's totals (screens/shift.py); False when nobody
        signed in has a shift open (nothing to ask)."""
        from pos_terminal.tui.screens.shift import ShiftDialog, ShiftTotals

        signed, counter = self.signed_in, self._counter()
        if signed is None:
            return False
        try:
            totals = ShiftTotals.read(counter, signed.cashier.id, signed.cashier.name)
        except Exception:  # an unreadable journal: ask nothing rather than block the exit
            return False
        if totals is None:
            return False
        self._app.push_screen(ShiftDialog(question, totals, counter, now_ms()), answered)
        return True

    def _close(self, signed: SignedIn) -> None:
        app, counter = self._app, self._counter()

        def close() -> None:  # a worker thread: closing the shift writes the journal
            problem = None
            try:
                counter.cashiers.sign_out(signed.cashier.id)
            except Exception as exc:  # signed out all the same; the shift is closed by hand
                problem = cashier_message(exc)
            app.call_from_thread(self._signed_out, signed, problem)

        app.run_worker(close, thread=True, group="signout", exclusive=True,
                       exit_on_error=False)

    def _signed_out(self, signed: SignedIn, problem: str | None) -> None:
        self.signed_in = None
        self._set_header(cashier=None)
        self._app.call_later(self._back_to_sign_in, signed, problem)

    async def _back_to_sign_in(self, signed: SignedIn, problem: str | None) -> None:
        from pos_terminal.tui.screens.signin import SignInScreen

        app = self._app
        while len(app.screen_stack) > 2:
            await app.pop_screen()
        await app.switch_screen(SignInScreen())
        if problem:
            app.notify(_("{name} is signed out, but the shift was not closed: {error}").format(
                name=signed.cashier.name, error=problem), severity="warning", markup=False)
