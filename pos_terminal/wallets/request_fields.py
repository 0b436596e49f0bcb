"""The checks every wallet makes on a request before it is recorded or sent, written once:
amounts within the wallet's limits, text lengths, a payment code's characters, and the order ids
a terminal makes up. A wallet passes its own limits and names; a refused field is a FieldError
(nothing recorded, nothing sent)."""

from __future__ import annotations

import secrets

from pos_terminal.base.reasons import Reason
from pos_terminal.wallets.errors import FieldError


def out_of_range(wallet: str, call: str, amount: int, limits: tuple[int, int]) -> Reason:
    """An amount outside `wallet`'s limits for one `call` ("payment" or "refund")."""
    return Reason.of("wallet.amount_out_of_range", wallet=wallet, call=call, amount=amount,
                     minimum=limits[0], maximum=limits[1])


def check_amount(wallet: str, call: str, amount: int, limits: tuple[int, int]) -> None:
    if isinstance(amount, bool) or not isinstance(amount, int):
        raise FieldError("amount", Reason.of("amount.not_whole", value=repr(amount)))
    if not limits[0] <= amount <= limits[1]:
        raise FieldError("amount", out_of_range(wallet, call, amount, limits))


def check_text(field: str, text: str, limit: int) -> str:
    if len(text) > limit:
        raise FieldError(field, f"{field} is {len(text)} characters long; the limit is {limit}")
    return text


def check_printable_code(field: str, code: str) -> None:
    """A payment code of a wallet that publishes no format: printable ASCII only (routing by
    pattern is the registry's)."""
    if not code or not code.isascii() or not code.isprintable():
        raise FieldError(field, Reason.of("code.unreadable_characters"))


def terminal_part(terminal_id: str) -> str:
    """The terminal's id as an order id may hold it: ASCII letters and digits, at most 12."""
    kept = "".join(ch for ch in terminal_id if ch.isascii() and ch.isalnum())
    return (kept or "pos")[:12]


def new_order_id(terminal_id: str, now_ms: int, mark: str = "") -> str:
    """``<terminal>-<mark><ms><4 random digits>``: unique per terminal, <= 32 characters."""
    return f"{terminal_part(terminal_id)}-{mark}{now_ms}{secrets.randbelow(10_000):04d}"
