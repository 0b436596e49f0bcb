"""The shift's totals when a cashier leaves the counter (F12 closes the shift, Ctrl+Q leaves it
open): what was taken per payment method, refunds, net and failures, like a bank terminal's
settlement; P prints it as a slip with a signature line."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from textual import work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.widgets import Static

from pos_terminal.base.clock import format_datetime
from pos_terminal.base.i18n import N_, _
from pos_terminal.counter import Counter
from pos_terminal.receipts import Shop, Slip, SlipLine, slip_lines
from pos_terminal.sentences.reports import ANOTHER_WAY
from pos_terminal.tui.csv_headers import METHODS
from pos_terminal.tui.screens.modal import Dialog, Words, said
from pos_terminal.tui.widgets.line import Line
from pos_terminal.tui.widgets.phrases import PhraseLine


@dataclass(frozen=True)
class ShiftTotals:
    """What the slip and the dialog show of one open shift."""

    shift_id: int
    cashier: str
    terminal: str
    opened_ms: int
    methods: dict[str, tuple[int, int]]  # kind -> (count, amount)
    refunds_count: int
    refunds_amount: int
    net_amount: int
    failed_count: int
    #: of the sales above, the rest of shop-QR sales paid in part collected another way (the
    #: till's): (count, amount)
    collected_otherwise: tuple[int, int] = (0, 0)

    @classmethod
    def read(cls, counter: Counter, cashier_id: str, name: str) -> ShiftTotals | None:
        found = counter.reports.shift_totals(cashier_id)
        if found is None:
            return None
        shift, totals, methods = found
        return cls(shift.id, f"{name} ({cashier_id})", counter.settings.terminal.terminal_id,
                   shift.opened_ms, methods, totals.refunds_count, totals.refunds_amount,
                   totals.net_amount, totals.failed_count,
                   (totals.collected_otherwise_count, totals.collected_otherwise_amount))

    def as_slip(self, now_ms: int, *, signature: bool = False) -> Slip:
        """The settlement as labelled lines (receipts/slips.py lays them out)."""
        paid_count = sum(c for c, _a in self.methods.values())
        paid_amount = sum(a for _c, a in self.methods.values())
        facts = ((_("Counter"), self.terminal), (_("Shift"), str(self.shift_id)),
                 (_("Cashier"), self.cashier), (_("From"), format_datetime(self.opened_ms)),
                 (_("To"), format_datetime(now_ms)))
        lines = [SlipLine(_(METHODS.get(kind, kind)), count, amount)
                 for kind, (count, amount) in sorted(self.methods.items())]
        if self.collected_otherwise[0]:
            lines.append(SlipLine(_(ANOTHER_WAY), *self.collected_otherwise,
                                  _("of the sales above: the rest of QR sales paid only in "
                                    "part, collected in cash or another way")))
        lines += [SlipLine(_("Paid"), paid_count, paid_amount),
                  SlipLine(_("Refunds"), self.refunds_count, -self.refunds_amount),
                  SlipLine(_("Net"), None, self.net_amount),
                  SlipLine(_("Failed"), self.failed_count, None)]
        return Slip(_("SHIFT SETTLEMENT"), facts, tuple(lines),
                    signature=_("Cashier's signature:") if signature else "")

    def lines(self, width: int, now_ms: int) -> list[str]:
        """The settlement as text `width` characters wide (the screen's)."""
        return list(slip_lines(self.as_slip(now_ms), shop=Shop(), width=width))


class ShiftDialog(Dialog[bool]):
    """The shift's totals and a question (Y / N); P prints the settlement slip."""

    asks_about_the_shift = True  # Ctrl+Q on it does not ask again (PosApp.action_quit)

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("y", "answer(True)", N_("Yes")),
        Binding("n,escape", "answer(False)", N_("No")),
        Binding("p", "print_slip", N_("Print")),
    ]

    def __init__(self, question: Words, totals: ShiftTotals, counter: Counter,
                 now_ms: int) -> None:
        super().__init__(classes="dialog")
        self.question = question
        self.totals = totals
        self.counter = counter
        self.now_ms = now_ms

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Static("\n".join(self.totals.lines(56, self.now_ms)), id="shift-totals",
                         markup=False)
            yield PhraseLine(said(self.question), id="shift-question")
            yield PhraseLine(_("Y: yes · N: no · P: print the settlement slip"))
            yield PhraseLine("", id="shift-print")

    def action_answer(self, yes: bool) -> None:
        self.dismiss(yes)

    def action_print_slip(self) -> None:
        self.query_one("#shift-print", Line).update(_("Printing the settlement slip…"))
        self._print()

    @work(thread=True, group="slip", exclusive=True, exit_on_error=False)
    def _print(self) -> None:
        outcome = self.counter.receipts.slip(f"shift-{self.totals.shift_id}",
                                             self.totals.as_slip(self.now_ms, signature=True))
        self.app.call_from_thread(self._printed, outcome.message, outcome.printed)

    def _printed(self, text: str, printed: bool) -> None:
        for line in self.query("#shift-print").results(Line):
            line.update(text)
            line.set_class(not printed, "error")
