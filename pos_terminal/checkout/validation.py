"""Input checks done before anything is recorded or sent; each refusal names what it refused."""

from __future__ import annotations

from collections.abc import Sequence

from pos_terminal.base.codes import CodeProblem, code_problem, format_problem
from pos_terminal.base.money import format_vnd
from pos_terminal.base.reasons import Reason
from pos_terminal.checkout.errors import InvalidPayment
from pos_terminal.config import CheckoutSettings, ScannerSettings
from pos_terminal.text_safety import control_character
from pos_terminal.wallet.messages import Item


def vnd(amount: int) -> str:
    """An amount as every message shows it: "25.000 ₫" (pos_terminal.base.money)."""
    return format_vnd(amount)


def check_amount(amount: object, cfg: CheckoutSettings) -> int:
    if isinstance(amount, bool) or not isinstance(amount, int):
        raise InvalidPayment("amount", Reason.of("amount.not_whole", value=repr(amount)))
    if amount <= 0:
        raise InvalidPayment("amount", Reason.of("amount.not_positive", value=amount))
    if amount < cfg.min_amount:
        raise InvalidPayment(
            "amount",
            Reason.of("amount.too_small", amount=amount, minimum=cfg.min_amount),
        )
    if amount > cfg.max_amount:
        raise InvalidPayment(
            "amount",
            Reason.of("amount.too_large", amount=amount, maximum=cfg.max_amount),
        )
    return amount


def parse_amount(text: str, cfg: CheckoutSettings) -> int:
    """An amount typed by a person or a script: digits only (no decimals, VND has none)."""
    cleaned = text.strip()
    body = cleaned[1:] if cleaned[:1] in "+-" else cleaned
    if not body.isdigit() or not body.isascii():
        other_digits = any(ch.isdigit() and not ch.isascii() for ch in body)
        raise InvalidPayment("amount", Reason.of(
            "amount.not_digits.other_scripts" if other_digits else "amount.not_digits",
            text=repr(text[:40])))
    if len(body.lstrip("0")) > 16:  # more than any configured maximum; int() of it is costly
        raise InvalidPayment(
            "amount", Reason.of("amount.far_too_large", text=repr(text[:24]),
                                maximum=cfg.max_amount))
    return check_amount(int(cleaned), cfg)


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
        size = f"{low}" if low == high else f"{low} to {high}"
        raise InvalidPayment(
            field,
            f"{field} has {len(code)} characters, but a payment code has {size} ([scanner] "
            "code_min_length / code_max_length). Nothing was sent: scan or type the customer's "
            "whole code.",
        )
    if problem is CodeProblem.ALPHABET:
        raise InvalidPayment(
            field,
            f"{field} holds characters a payment code never has (allowed: "
            f"{scanner.code_alphabet!r}, the [scanner] code_alphabet). Nothing was sent: scan "
            "or type the customer's code again.",
        )
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
                f"{items_label} add up to {vnd(total)} but {amount_label} is {vnd(amount)}. "
                f"Make {amount_label} equal to the items' total (or leave the items out); "
                "nothing was sent.",
            )
    return tuple(items)
