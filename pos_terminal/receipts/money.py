"""Money as receipts (and, from part B, every screen) write it: "10.000 ₫"."""

from __future__ import annotations

from babel.numbers import format_currency


def format_vnd(amount: int) -> str:
    """Integer VND in Vietnamese style, e.g. 10000 -> "10.000 ₫" (a plain space, which every
    printer code page has, where Babel puts a no-break space)."""
    return format_currency(amount, "VND", locale="vi_VN").replace("\xa0", " ")
