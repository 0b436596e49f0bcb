"""Input checks done before anything is recorded or sent; each refusal names what it refused."""

from __future__ import annotations

from collections.abc import Sequence

from pos_terminal.base import amounts
from pos_terminal.base.codes import CodeProblem, code_problem, format_problem
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


def check_code_format(code: str, scanner: ScannerSettings, field: str = "payment code", *,
                      alphabet: str | None = None) -> str:
    """A typed code against the [scanner] code filter (alphabet, lengths): what a scanner would
    have accepted. The message names the rule broken, never the code. `alphabet`: the one the
    scan sources use (Settings.scan_alphabet: every wallet's letters too); None: [scanner]'s."""
    low, high = scanner.code_min_length, scanner.code_max_length
    alphabet = scanner.code_alphabet if alphabet is None else alphabet
    problem = format_problem(code, alphabet=alphabet, min_length=low, max_length=high)
    if problem is CodeProblem.LENGTH:
        raise InvalidPayment(field, Reason.of(
            "code.length", field=field, count=len(code), low=low, high=high))
    if problem is CodeProblem.ALPHABET:
        raise InvalidPayment(field, Reason.of(
            "code.alphabet", field=field, alphabet=repr(alphabet)))
    return code


def description_problem(description: object) -> Reason | None:
    """The description rule: text on one line. The reason names no field: a front end that
    names its own (the CLI's --description) renders it with `field`."""
    if not isinstance(description, str):
        return Reason.of("description.not_text")
    bad = control_character(description)
    if bad is not None:
        return Reason.of("description.control_character", bad=bad)
    return None


def items_problem(items: Sequence[Item], amount: int) -> Reason | None:
    """The items rule: plain-text names, and (when given) adding up to the amount charged. A
    front end names its own fields by rendering the reason with `field` (the items) and
    `amount_field` (the CLI's --item and --amount)."""
    for item in items:
        for name, text in (("itemid", item.itemid), ("itemname", item.itemname)):
            bad = control_character(text)
            if bad is not None:
                return Reason.of("items.control_character", name=name, bad=bad)
    whole = all(
        isinstance(v, int) and not isinstance(v, bool)
        for item in items for v in (item.itemprice, item.itemquantity)
    )
    if items and whole:  # (prices that are not whole numbers are refused by the wire checks)
        total = sum(item.itemprice * item.itemquantity for item in items)
        if total != amount:
            return Reason.of("items.total", total=total, amount=amount)
    return None


def check_description(description: object) -> str:
    problem = description_problem(description)
    if problem is not None:
        raise InvalidPayment("description", problem)
    assert isinstance(description, str)
    return description


def check_items(items: Sequence[Item], amount: int) -> tuple[Item, ...]:
    problem = items_problem(items, amount)
    if problem is not None:
        raise InvalidPayment("items", problem)
    return tuple(items)
