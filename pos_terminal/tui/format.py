"""How money and times look on the cashier's screen."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone

VN_TZ = timezone(timedelta(hours=7))


def format_vnd(amount: int) -> str:
    """``50000`` -> ``50.000 ₫`` (Vietnamese grouping: a dot every three digits)."""
    sign = "-" if amount < 0 else ""
    return f"{sign}{abs(amount):,} ₫".replace(",", ".")


def vn_time(ms: int, with_date: bool = True) -> str:
    """Unix milliseconds shown in Vietnam time, e.g. ``21/11/2026 14:03:07 (GMT+7)``."""
    moment = datetime.fromtimestamp(ms / 1000, tz=VN_TZ)
    return moment.strftime("%d/%m/%Y %H:%M:%S (GMT+7)" if with_date else "%H:%M:%S")


def vn_day(ms: int) -> str:
    """The Vietnam-time calendar day of a moment, ``YYYY-MM-DD``."""
    return datetime.fromtimestamp(ms / 1000, tz=VN_TZ).strftime("%Y-%m-%d")


def day_bounds_ms(day: str) -> tuple[int, int]:
    """[start, end) of a ``YYYY-MM-DD`` day in Vietnam time, in Unix ms; ValueError if malformed."""
    start = datetime.strptime(day, "%Y-%m-%d").replace(tzinfo=VN_TZ)
    end = start + timedelta(days=1)
    return int(start.timestamp() * 1000), int(end.timestamp() * 1000)


def parse_amount(text: str) -> int | None:
    """Digits typed by a cashier (dots, spaces and ₫ allowed as decoration) -> int, else None."""
    digits = text.replace(".", "").replace(" ", "").replace("₫", "").replace(",", "")
    if not digits or not digits.isascii() or not digits.isdigit():  # not "١٢٣" or "１２３"
        return None
    return int(digits)
