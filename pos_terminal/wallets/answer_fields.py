"""Reading a JSON wallet's answer, written once for every wallet: numbers, text, and which order
the answer is about.

An answer to the terminal's own request that names no order is about that request (the HTTP
exchange ties it): `tie` gives it the order asked about; an answer naming another order is a
MismatchedAnswer. So every answer that reaches the checkout names its payment; the checkout
records, never drops, one that does not (checkout/outcomes.py)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from pos_terminal.base.wallet_errors import MismatchedAnswer, UnreadableAnswer
from pos_terminal.text_safety import clean

TEXT_MAX = 500


@dataclass(frozen=True)
class AnswerFields:
    """The field readers for `wallet`'s answers (its name, for the messages)."""

    wallet: str

    def integer(self, data: Mapping[str, object], name: str, *,
                required: bool = False) -> int | None:
        """A whole number, as a JSON number or digits in a string (at most 20)."""
        value = data.get(name)
        if value is None:
            if required:
                raise UnreadableAnswer(f"{self.wallet}'s answer has no {name}")
            return None
        if isinstance(value, bool):
            raise UnreadableAnswer(f"{self.wallet}'s answer has a {name} that is not a number")
        if isinstance(value, int):
            return value
        if isinstance(value, str) and value.isascii() and value.lstrip("-").isdigit() and (
                len(value) <= 20):
            return int(value)
        raise UnreadableAnswer(f"{self.wallet}'s answer has a {name} that is not a number")

    def required_integer(self, data: Mapping[str, object], name: str) -> int:
        value = self.integer(data, name, required=True)
        assert value is not None
        return value

    def text(self, data: Mapping[str, object], name: str) -> str:
        """Text (or a number, as text), cleaned of control characters and bounded; "" if none."""
        value = data.get(name)
        if value is None:
            return ""
        if not isinstance(value, str | int) or isinstance(value, bool):
            raise UnreadableAnswer(f"{self.wallet}'s answer has a {name} that is not text")
        return clean(str(value))[:TEXT_MAX]

    def positive_id(self, data: Mapping[str, object], name: str) -> str | None:
        """A provider's numeric transaction id; None when absent or not positive."""
        value = self.integer(data, name)
        return str(value) if value is not None and value > 0 else None

    def object(self, data: Mapping[str, object], name: str) -> Mapping[str, object] | None:
        value = data.get(name)
        if value is None:
            return None
        if not isinstance(value, dict):
            raise UnreadableAnswer(f"{self.wallet}'s answer has a {name} that is not an object")
        return value

    def tie(self, named: str, asked: str) -> str:
        """The order an answer to a request about `asked` is about: `asked` when it names it or
        names none; MismatchedAnswer when it names another."""
        if named and named != asked:
            raise MismatchedAnswer(
                f"{self.wallet} answered about order {named!r}, not {asked!r}")
        return asked
