"""Money as every cashier-facing text writes it: integer VND, ``10.000 ₫``, in every language.

One formatter for the whole terminal (screens, CLI, headless mode, receipts, reports): Babel's
Vietnamese currency format, with a plain space before the symbol (Babel uses a no-break space,
which some receipt printers' code pages lack and which terminals measure differently).
"""

from __future__ import annotations

from babel.numbers import format_currency, format_decimal

CURRENCY_SYMBOL = "₫"
_LOCALE = "vi_VN"  # the VND style in English too: "10.000 ₫", never "₫10,000"


def format_vnd(amount: int) -> str:
    """``10000`` -> ``"10.000 ₫"``; ``-5000`` -> ``"-5.000 ₫"`` (a refund shown as money out)."""
    return format_currency(int(amount), "VND", locale=_LOCALE).replace("\xa0", " ")


def format_number(amount: int) -> str:
    """The number alone, grouped the same way: ``1234567`` -> ``"1.234.567"`` (table columns
    whose header already says ₫)."""
    return format_decimal(int(amount), locale=_LOCALE).replace("\xa0", " ")
