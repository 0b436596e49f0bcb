"""Result: an unmistakable full-screen success or failure. It stays until the cashier
acknowledges it: Enter, Esc or Space returns to Sale; a digit returns to Sale and starts the
next amount with it (the key is never lost); other keys are ignored."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

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

    @classmethod
    def from_view(cls, view: PaymentView) -> Outcome:
        """By the one outcome rule (pos_terminal.checkout.verdict)."""
        judged = verdict.of_payment(view)
        if judged is verdict.Verdict.NEEDS_REVIEW:
            return cls(False, verdict.headline(view), view.amount, (
                view.message,
                f"Order: {view.app_trans_id}",
            ))
        if judged is verdict.Verdict.PAID and view.charged_late:
            return cls(True, verdict.headline(view), view.amount, (
                view.message,
                f"Transaction: {view.zp_trans_id or '-'}",
                f"Order: {view.app_trans_id}",
            ))
        if view.state is PaymentState.SUCCEEDED:
            return cls(True, "PAID", view.amount, (
                f"Time: {vn_time(view.updated_ms)}",
                f"Transaction: {view.zp_trans_id or '-'}",
                f"Order: {view.app_trans_id}",
            ))
        if view.abandoned and not view.is_final:
            return cls(False, _("GAVE UP WAITING: OUTCOME UNKNOWN"), view.amount, (
                view.message,
                f"Order: {view.app_trans_id}",
            ))
        if view.state in (PaymentState.PROCESSING, PaymentState.UNKNOWN,
                          PaymentState.SUBMITTING):
            return cls(False, "NOT CONFIRMED YET", view.amount, (
                view.message or "The wallet service has not answered yet.",
                "It is being checked in the background: see History before charging again.",
                f"Order: {view.app_trans_id}",
            ))
        return cls(False, "NOT PAID", view.amount, (
            view.message or "The payment was declined.",
            f"Order: {view.app_trans_id}",
        ))

    @classmethod
    def from_error(cls, amount: int, message: str) -> Outcome:
        return cls(False, "NOT PAID", amount, (message,))


DISMISS_KEYS = frozenset({"enter", "escape", "space"})
DIGITS = "0123456789"


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
            yield Line(_("Enter: next sale · or type the next amount"), id="result-hint")

    def on_mount(self) -> None:
        self.pos.sale_finished = True
        self.pos.refresh_pending()

    def on_key(self, event: events.Key) -> None:
        event.stop()
        if event.key in DISMISS_KEYS:
            self.back_to_sale()
        elif event.character is not None and event.character in DIGITS:
            self.pos.next_sale_digits = event.character  # Sale starts its amount with it
            self.back_to_sale()

    def code_read(self, text: str, source: str) -> None:
        pass  # a late double read of the phone that was just charged

    def back_to_sale(self) -> None:
        if self.is_current:
            self.app.pop_screen()
