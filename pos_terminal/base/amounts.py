"""An amount of money as a person or a program gives it: the one reader and the one set of rules.

Every front end (the TUI's amount field and its paste, the CLI's ``--amount``, headless ``PAY``
and ``REFUND``, the Terminal API's JSON) and the checkout itself read and check amounts here, so
an amount is accepted or refused the same way everywhere, for the same reason (a `Reason`, which
``pos_terminal.sentences`` words once for all of them).

An amount is integer VND (no decimals: VND has none). Typed, it may be grouped in thousands by
dots, commas or spaces, the same separator throughout (``50.000``, ``50,000``, ``1 000 000``),
and followed by a currency mark (``đ``, ``₫``, ``VND``...). ``50.5`` is refused, never read as
505: a group of thousands has exactly three digits.
"""

from __future__ import annotations

import re
from typing import Protocol

from pos_terminal.base.reasons import Reason

#: What may follow an amount, lower-cased (longest first: "vnđ" before "đ").
CURRENCY_MARKS = ("₫", "vnđ", "vnd", "đồng", "đ", "d")
#: More digits than this is far above any maximum (and int() of thousands of digits is costly).
MAX_DIGITS = 16

_PLAIN = re.compile(r"[0-9]+")  # not str.isdigit(): it says yes to "١٢٣" and "１２３"
_GROUPED = re.compile(r"[0-9]{1,3}(?P<sep>[., \u00a0])[0-9]{3}(?:(?P=sep)[0-9]{3})*")


class Limits(Protocol):
    """The configured bounds of one payment ([checkout] min_amount / max_amount)."""

    @property
    def min_amount(self) -> int: ...
    @property
    def max_amount(self) -> int: ...


def read_amount(text: str) -> int | Reason:
    """`text` as a number of VND (it may be 0 or negative: the checks come after), or why it is
    no amount at all."""
    cleaned = text.strip().lower()
    for mark in CURRENCY_MARKS:
        if cleaned.endswith(mark):
            cleaned = cleaned.removesuffix(mark).strip()
            break
    sign = cleaned[:1] if cleaned[:1] in "+-" else ""
    body = cleaned[len(sign):]
    shown = repr(text.strip()[:40])
    if not body:
        return Reason.of("amount.missing")
    if not (_PLAIN.fullmatch(body) or _GROUPED.fullmatch(body)):
        other_digits = any(ch.isdigit() and not ch.isascii() for ch in body)
        return Reason.of("amount.not_digits.other_scripts" if other_digits
                         else "amount.not_digits", text=shown)
    digits = re.sub(r"[^0-9]", "", body)
    if len(digits.lstrip("0")) > MAX_DIGITS:
        return Reason.of("amount.far_too_large", text=repr(text.strip()[:24]))
    return -int(digits) if sign == "-" else int(digits)


def check_amount(amount: object, limits: Limits) -> int | Reason:
    """A payment's amount: whole VND, positive, within the limits."""
    if isinstance(amount, bool) or not isinstance(amount, int):
        return Reason.of("amount.not_whole", value=repr(amount)[:40])
    if amount <= 0:
        return Reason.of("amount.not_positive", value=amount)
    if amount < limits.min_amount:
        return Reason.of("amount.too_small", amount=amount, minimum=limits.min_amount)
    if amount > limits.max_amount:
        return Reason.of("amount.too_large", amount=amount, maximum=limits.max_amount)
    return amount


def check_refund_amount(amount: object) -> int | Reason:
    """A refund's amount: whole VND and positive (how much is left to refund is the journal's
    to say: it alone knows the refunds already made or in flight)."""
    if isinstance(amount, bool) or not isinstance(amount, int):
        return Reason.of("refund.amount.not_whole", value=repr(amount)[:40])
    if amount <= 0:
        return Reason.of("refund.amount.not_positive", value=amount)
    return amount


def parse_amount(text: str, limits: Limits) -> int | Reason:
    """A payment's amount as typed: read, then checked."""
    read = read_amount(text)
    return read if isinstance(read, Reason) else check_amount(read, limits)


def parse_refund_amount(text: str) -> int | Reason:
    """A refund's amount as typed: read, then checked."""
    read = read_amount(text)
    return read if isinstance(read, Reason) else check_refund_amount(read)


__all__ = ["CURRENCY_MARKS", "MAX_DIGITS", "Limits", "check_amount", "check_refund_amount",
           "parse_amount", "parse_refund_amount", "read_amount"]
