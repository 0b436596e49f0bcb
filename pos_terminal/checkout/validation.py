"""Input checks done before anything is recorded or sent; each refusal names what it refused."""

from __future__ import annotations

from pos_terminal.checkout.errors import InvalidPayment
from pos_terminal.config import CheckoutSettings


def check_amount(amount: object, cfg: CheckoutSettings) -> int:
    if isinstance(amount, bool) or not isinstance(amount, int):
        raise InvalidPayment("amount", f"The amount must be a whole number of VND, not {amount!r}.")
    if amount <= 0:
        raise InvalidPayment(
            "amount", f"The amount must be a positive number of VND, not {amount}."
        )
    if amount < cfg.min_amount:
        raise InvalidPayment(
            "amount", f"The amount {amount} VND is too small: the minimum is {cfg.min_amount} VND."
        )
    if amount > cfg.max_amount:
        raise InvalidPayment(
            "amount",
            f"The amount {amount:,} VND is above the maximum of {cfg.max_amount:,} VND for one "
            "payment.",
        )
    return amount


def parse_amount(text: str, cfg: CheckoutSettings) -> int:
    """An amount typed by a person or a script: digits only (no decimals, VND has none)."""
    cleaned = text.strip()
    body = cleaned[1:] if cleaned[:1] in "+-" else cleaned
    if not body.isdigit() or not body.isascii():
        raise InvalidPayment(
            "amount", f"The amount {text!r} is not a whole number of VND (digits only, no "
            "decimals or separators)."
        )
    return check_amount(int(cleaned), cfg)


def check_code(code: object) -> str:
    """A payment code is opaque printable ASCII; the message never repeats it."""
    if not isinstance(code, str) or not code.strip():
        raise InvalidPayment(
            "payment code", "The payment code is empty: scan the customer's payment code."
        )
    if not code.isascii() or not code.isprintable() or code != code.strip():
        raise InvalidPayment(
            "payment code",
            "The scanned payment code holds characters a payment code never has (binary or "
            "control characters): scan it again.",
        )
    return code
