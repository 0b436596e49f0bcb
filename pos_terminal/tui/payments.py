"""The payment controller: owns the one payment in flight from the moment its code is read
until its outcome is delivered, and delivers every news of it to the screen that owns it (Pay,
then Progress), whatever screen is on top (a dialog, the quit question). The counter call runs
in an App-level worker thread, so it outlives the screens it drives; its events come back
through the counter's bus (PosApp.on_pos_app_counter_news -> `news`)."""

from __future__ import annotations

import contextlib
import threading
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from textual.message import Message
from textual.message_pump import MessagePump

from pos_terminal.base.i18n import _
from pos_terminal.counter import (
    PaymentError,
    PaymentProgress,
    PaymentSettled,
    PaymentUnresolved,
    SaleLine,
    ScannedCode,
)
from pos_terminal.tui.messages import PaymentConcluded, PaymentTakesLong, PaymentUpdated
from pos_terminal.tui.payment import PaymentRun
from pos_terminal.tui.result_summary import ResultSummary
from pos_terminal.tui.sales import Sale

if TYPE_CHECKING:
    from textual.app import App

    from pos_terminal.counter import Counter

PROGRESS_AFTER_S = 0.4  # a payment settled sooner goes from Pay straight to Result
PaymentNews = PaymentProgress | PaymentSettled | PaymentUnresolved | PaymentError


class PaymentController:
    def __init__(self, app: App[Any], counter: Callable[[], Counter],
                 cashier_id: Callable[[], str | None]) -> None:
        self._app = app
        self._counter = counter  # the App's (tests may replace it after construction)
        self._cashier_id = cashier_id
        self.run: PaymentRun | None = None
        self.in_flight = threading.Event()  # read from worker threads (reconciliation)
        self.on_end: list[Callable[[PaymentRun], None]] = []

    def start(self, sale: Sale, code: ScannedCode, owner: MessagePump,
              provider: str | None = None) -> PaymentRun:
        """Charge `code` for `sale` in a worker; `owner` hears of it (PaymentUpdated, ...).
        `provider`: the wallet the cashier chose (None: the code's pattern decides)."""
        counter = self._counter()
        run = PaymentRun(sale, code.text[-4:], code.source, cashier_id=self._cashier_id(),
                         sale_id=counter.payments.start_sale(), owner=owner)
        self.run = run
        self.in_flight.set()
        self._app.run_worker(lambda: self._charge(counter, run, code, provider), thread=True,
                             group="payment", exit_on_error=False)
        self._app.set_timer(PROGRESS_AFTER_S, lambda: self._takes_long(run))
        return run

    @staticmethod
    def hand_over(run: PaymentRun, owner: MessagePump) -> None:
        """From now on `owner` hears of the payment (Pay hands it to Progress)."""
        run.owner = owner

    def follow(self, run: PaymentRun) -> None:
        """Keep waiting: poll the same payment again (Counter.follow), never charge again."""
        if run.view is None:
            return
        run.restart()
        app_trans_id, counter = run.view.app_trans_id, self._counter()

        def follow() -> None:
            with contextlib.suppress(Exception):  # published as PaymentError
                counter.payments.follow(app_trans_id, cancel=run.cancel, sale=run.sale_id)

        self._app.run_worker(follow, thread=True, group="payment", exit_on_error=False)

    def give_up(self, run: PaymentRun) -> None:
        """The cashier stops waiting for a payment whose outcome is unknown (Progress, B)."""
        if run.view is None:
            return
        view = self._counter().payments.abandon(run.view.app_trans_id)
        run.view = view
        self._conclude(run, ResultSummary.from_view(view))

    def stop(self) -> None:
        if self.run is not None:
            self.run.cancel.set()

    @staticmethod
    def _charge(counter: Counter, run: PaymentRun, code: ScannedCode,
                provider: str | None = None) -> None:
        """Blocking, in a worker: the single charge and its polling. What happens comes back
        as the counter's events (PaymentProgress, PaymentSettled, ...)."""
        items = tuple(SaleLine(i.name, i.price, i.quantity) for i in run.sale.items)
        with contextlib.suppress(Exception):  # published as PaymentError
            counter.payments.pay(run.sale.amount, code, description=run.sale.description,
                                 items=items, cancel=run.cancel, sale=run.sale_id,
                                 cashier_id=run.cashier_id, provider=provider)

    # ---- the counter's news of the payment ----------------------------------------------
    def news(self, event: PaymentNews) -> None:
        run = self.run
        if run is None or event.sale != run.sale_id or run.cancel.is_set():
            return  # another payment's (settled in the background), or one given up
        if isinstance(event, PaymentProgress):
            run.view = event.view
            self._tell(run, PaymentUpdated(run))
        elif isinstance(event, PaymentError):
            run.finish()
            message = event.message
            if run.unresolved:
                message += " " + _("The payment is kept in the journal and checked again in "
                                   "the background: see History before charging again.")
            open_payment = run.view is not None and not run.view.is_final
            self._conclude(run, ResultSummary.from_error(run.sale.amount, message,
                                                   retry=not open_payment))
        else:
            run.view = event.view
            run.finish()
            if run.unresolved:  # the deadline passed: the cashier chooses
                self._tell(run, PaymentUpdated(run))
                self._takes_long(run)
                return
            self._conclude(run, ResultSummary.from_view(event.view))

    def _takes_long(self, run: PaymentRun) -> None:
        if self.run is run and not (run.finished and not run.unresolved):
            self._tell(run, PaymentTakesLong(run))

    def _conclude(self, run: PaymentRun, outcome: ResultSummary) -> None:
        run.cancel.set()
        if self.run is run:
            self.run = None
            self.in_flight.clear()
        for listener in self.on_end:
            listener(run)
        self._tell(run, PaymentConcluded(run, outcome))

    @staticmethod
    def _tell(run: PaymentRun, message: Message) -> None:
        if run.owner is not None:
            run.owner.post_message(message)
