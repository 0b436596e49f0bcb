"""How money and times look on the cashier's screen."""

from __future__ import annotations

from pos_terminal.base.clock import day_bounds_ms, format_datetime, format_time
from pos_terminal.base.clock import iso_day as vn_day
from pos_terminal.base.money import format_vnd
from pos_terminal.counter.outcome import state_label

__all__ = ["day_bounds_ms", "format_vnd", "parse_amount", "state_label", "vn_day", "vn_time"]


def vn_time(ms: int, with_date: bool = True) -> str:
    """Unix milliseconds shown in Vietnam time, e.g. ``21/11/2026 14:03:07 (GMT+7)``."""
    return f"{format_datetime(ms)} (GMT+7)" if with_date else format_time(ms)


def parse_amount(text: str) -> int | None:
    """Digits typed by a cashier (dots, spaces and ₫ allowed as decoration) -> int, else None."""
    digits = text.replace(".", "").replace(" ", "").replace("₫", "").replace(",", "")
    if not digits or not digits.isascii() or not digits.isdigit():  # not "١٢٣" or "１２３"
        return None
    if len(digits.lstrip("0")) > 16:  # above any maximum (and int() refuses 4300+ digits)
        return None
    return int(digits)
