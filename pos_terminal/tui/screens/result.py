"""Result: an unmistakable full-screen success or failure; any key (or a few seconds) returns
to Sale."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field, replace

from textual import events
from textual.containers import Vertical
from textual.widget import Widget

from pos_terminal.base.i18n import _
from pos_terminal.checkout import PaymentState, PaymentView, verdict
from pos_terminal.tui.format import format_vnd, vn_time
from pos_terminal.tui.screens.base import PosScreen
from pos_terminal.tui.widgets.line import Line


@dataclass(frozen=True)
class Outcome:
    """What the Result screen shows; built from a PaymentView or from an error sentence."""

    success: bool
    headline: str
    amount: int
    lines: tuple[str, ...]
    view: PaymentView | None = field(default=None, compare=False)  # to redraw in a language

    @classmethod
    def from_view(cls, view: PaymentView) -> Outcome:
        """By the one outcome rule (pos_terminal.checkout.verdict)."""
        return replace(cls._judge(view), view=view)

    @classmethod
    def _judge(cls, view: PaymentView) -> Outcome:
        judged = verdict.of_payment(view)
        if judged is verdict.Verdict.NEEDS_REVIEW:
            return cls(False, verdict.headline(view), view.amount, (
                view.message,
                _("Order: {app_trans_id}").format(app_trans_id=view.app_trans_id),
            ))
        if judged is verdict.Verdict.PAID and view.late:
            return cls(True, verdict.headline(view), view.amount, (
                view.message,
                _("Transaction: {zp_trans_id}").format(zp_trans_id=view.zp_trans_id or "-"),
                _("Order: {app_trans_id}").format(app_trans_id=view.app_trans_id),
            ))
        if view.state is PaymentState.SUCCEEDED:
            return cls(True, _("PAID"), view.amount, (
                _("Time: {time}").format(time=vn_time(view.updated_ms)),
                _("Transaction: {zp_trans_id}").format(zp_trans_id=view.zp_trans_id or "-"),
                _("Order: {app_trans_id}").format(app_trans_id=view.app_trans_id),
            ))
        if view.state in (PaymentState.PROCESSING, PaymentState.UNKNOWN,
                          PaymentState.SUBMITTING):
            return cls(False, _("NOT CONFIRMED YET"), view.amount, (
                view.message or _("The wallet service has not answered yet."),
                _("It is being checked in the background: see History before charging again."),
                _("Order: {app_trans_id}").format(app_trans_id=view.app_trans_id),
            ))
        return cls(False, _("NOT PAID"), view.amount, (
            view.message or _("The payment was declined."),
            _("Order: {app_trans_id}").format(app_trans_id=view.app_trans_id),
        ))

    @classmethod
    def from_error(cls, amount: int, message: str) -> Outcome:
        return cls(False, _("NOT PAID"), amount, (message,))


class ResultScreen(PosScreen):
    AUTO_FOCUS = None

    def __init__(self, outcome: Outcome) -> None:
        super().__init__(classes="success" if outcome.success else "failure")
        self.outcome = outcome

    def body(self) -> Iterable[Widget]:
        with Vertical(id="result"):
            yield Line(self.outcome.headline, id="result-headline")
            yield Line(format_vnd(self.outcome.amount), id="result-amount")
            for line in self.outcome.lines:
                yield Line(line, classes="result-line")
            yield Line(_("Press any key for the next sale"), id="result-hint")

    def on_mount(self) -> None:
        self.pos.sale_finished = True
        self.pos.refresh_pending()
        self.set_timer(self.pos.settings.ui.result_timeout_s, self.back_to_sale)

    def keep_state(self) -> None:
        if self.outcome.view is not None:
            self.outcome = Outcome.from_view(self.outcome.view)

    def on_key(self, event: events.Key) -> None:
        if event.key == "f8":
            return  # the language switch (PosApp) redraws this result instead
        event.stop()
        self.back_to_sale()

    def code_read(self, text: str, source: str) -> None:
        pass  # a late double read of the phone that was just charged

    def back_to_sale(self) -> None:
        if self.is_current:
            self.app.pop_screen()
