"""The amount the cashier types, shown as VND while typing (50000 -> 50.000 ₫)."""

from __future__ import annotations

from textual import events
from textual.message import Message
from textual.reactive import reactive
from textual.widget import Widget

from pos_terminal.base.amounts import Limits, parse_amount
from pos_terminal.base.i18n import _
from pos_terminal.base.money import format_vnd
from pos_terminal.base.reasons import Reason

MAX_DIGITS = 12
ASCII_DIGITS = "0123456789"


class AmountField(Widget, can_focus=True):
    """Digits and Backspace edit; Delete clears. Read-only while `locked` (item list total).
    `limits`: the payment's bounds, by which a paste and the amount typed are judged."""

    DEFAULT_CSS = """
    AmountField { height: 3; border: tall $accent; padding: 0 1; content-align: right middle; }
    AmountField:focus { border: tall $primary; }
    """

    digits: reactive[str] = reactive("")
    locked: reactive[bool] = reactive(False)

    class Changed(Message):
        def __init__(self, field: AmountField, amount: int) -> None:
            super().__init__()
            self.field = field
            self.amount = amount

    class Refused(Message):
        """A key that is a digit somewhere but not 0-9 (Arabic-Indic, fullwidth, ...)."""

        def __init__(self, field: AmountField, text: str) -> None:
            super().__init__()
            self.field = field
            self.text = text

    def __init__(self, limits: Limits, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.limits = limits

    @property
    def amount(self) -> int:
        return int(self.digits) if self.digits else 0

    @amount.setter
    def amount(self, value: int) -> None:
        self.digits = str(value) if value > 0 else ""

    def render(self) -> str:
        return format_vnd(self.amount)

    def watch_digits(self) -> None:
        self.post_message(self.Changed(self, self.amount))

    def on_paste(self, event: events.Paste) -> None:
        """A pasted amount ("50.000 đ", "50000") replaces the one typed; anything else is
        refused with the reason, and the amount stays as it was."""
        event.stop()
        if self.locked:
            return
        amount = parse_amount(event.text, self.limits)
        if isinstance(amount, Reason):  # the sentence every front end gives (base/amounts.py)
            self.post_message(self.Refused(self, str(amount)))
            return
        self.amount = amount

    def problem(self) -> Reason | None:
        """What the one rule (base/amounts.py) says of the amount typed: None when it may be
        charged (the empty field is "no amount")."""
        checked = parse_amount(self.digits, self.limits)
        return checked if isinstance(checked, Reason) else None

    def on_key(self, event: events.Key) -> None:
        if self.locked:
            return
        if (event.character is not None and event.character.isdigit()
                and event.character not in ASCII_DIGITS):
            # str.isdigit() says yes to "١" and "１": never part of an amount
            self.post_message(self.Refused(self, _(
                "Only the digits 0-9 make an amount ({char} is a digit of another script): "
                "switch the keyboard to 0-9 and type the amount.").format(
                    char=f"U+{ord(event.character):04X}")))
            event.stop()
            event.prevent_default()
        elif event.character is not None and event.character in ASCII_DIGITS and (
                event.is_printable):
            if len(self.digits) < MAX_DIGITS and not (self.digits == "" and event.character == "0"):
                self.digits += event.character
            event.stop()
            event.prevent_default()
        elif event.key == "backspace":
            self.digits = self.digits[:-1]
            event.stop()
            event.prevent_default()
        elif event.key == "delete":
            self.digits = ""
            event.stop()
            event.prevent_default()
