"""Input checks done before anything is recorded or sent; each refusal names what it refused."""

from __future__ import annotations

from collections.abc import Sequence

from pos_terminal.base import amounts
from pos_terminal.base.codes import CodeProblem, code_problem, format_problem
from pos_terminal.base.money import format_vnd
from pos_terminal.base.reasons import Reason
from pos_terminal.base.wallet_types import Item
from pos_terminal.checkout.errors import InvalidPayment
from pos_terminal.config import CheckoutSettings, ScannerSettings
from pos_terminal.text_safety import control_character


def check_amount(amount: object, cfg: CheckoutSettings) -> int:
    """A payment's amount by the one rule (base/amounts.py), refused as InvalidPayment."""
    checked = amounts.check_amount(amount, cfg)
    if isinstance(checked, Reason):
        raise InvalidPayment("amount", checked)
    return checked


def check_refund_amount(amount: object) -> int:
    checked = amounts.check_refund_amount(amount)
    if isinstance(checked, Reason):
        raise InvalidPayment("amount", checked)
    return checked


def check_code(code: object) -> str:
    """A payment code is opaque printable ASCII; the message never repeats it."""
    problem = code_problem(code)
    if problem is CodeProblem.EMPTY:
        raise InvalidPayment(
            "payment code", Reason.of("code.empty")
        )
    if problem is not None:
        raise InvalidPayment(
            "payment code",
            Reason.of("code.unreadable_characters"),
        )
    assert isinstance(code, str)
    return code


def check_code_format(code: str, scanner: ScannerSettings, field: str = "payment code") -> str:
    """A typed code against the [scanner] code filter (alphabet, lengths): what a scanner would
    have accepted. The message names the rule broken, never the code."""
    low, high = scanner.code_min_length, scanner.code_max_length
    problem = format_problem(code, alphabet=scanner.code_alphabet, min_length=low,
                             max_length=high)
    if problem is CodeProblem.LENGTH:
        raise InvalidPayment(field, Reason.of(
            "code.length", field=field, count=len(code), low=low, high=high))
    if problem is CodeProblem.ALPHABET:
        raise InvalidPayment(field, Reason.of(
            "code.alphabet", field=field, alphabet=repr(scanner.code_alphabet)))
    return code




def check_description(description: object, label: str = "The description") -> str:
    if not isinstance(description, str):
        raise InvalidPayment("description", f"{label} must be text.")
    bad = control_character(description)
    if bad is not None:
        raise InvalidPayment(
            "description",
            f"{label} holds a control character ({bad}: a newline, tab or similar). Use plain "
            "text on one line; nothing was sent.",
        )
    return description


def check_items(
    items: Sequence[Item], amount: int, *, items_label: str = "The items",
    amount_label: str = "the amount",
) -> tuple[Item, ...]:
    """Items, when given, must add up to the amount charged; their names are plain text."""
    for item in items:
        for name, text in (("itemid", item.itemid), ("itemname", item.itemname)):
            bad = control_character(text)
            if bad is not None:
                raise InvalidPayment(
                    "items",
                    f"{items_label}: an {name} holds a control character ({bad}). Use plain "
                    "text; nothing was sent.",
                )
    whole = all(
        isinstance(v, int) and not isinstance(v, bool)
        for item in items for v in (item.itemprice, item.itemquantity)
    )
    if items and whole:  # (prices that are not whole numbers are refused by the wire checks)
        total = sum(item.itemprice * item.itemquantity for item in items)
        if total != amount:
            raise InvalidPayment(
                "items",
                f"{items_label} add up to {format_vnd(total)} but {amount_label} is "
                f"{format_vnd(amount)}. "
                f"Make {amount_label} equal to the items' total (or leave the items out); "
                "nothing was sent.",
            )
    return tuple(items)
