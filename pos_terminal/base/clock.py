"""Vietnam time for everything the cashier reads, and for the wallet's ``yymmdd`` day.

Asia/Ho_Chi_Minh (GMT+7, no daylight saving since 1975); when the system has no tz database
the fixed +07:00 offset gives the same times.
"""

from __future__ import annotations

import time
from datetime import datetime, timedelta, timezone, tzinfo
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError


def _vietnam() -> tzinfo:
    try:
        return ZoneInfo("Asia/Ho_Chi_Minh")
    except ZoneInfoNotFoundError:
        return timezone(timedelta(hours=7), "GMT+7")


VN_TZ: tzinfo = _vietnam()
UTC_OFFSET = "+07:00"


def now_ms() -> int:
    """Now, in Unix milliseconds."""
    return time.time_ns() // 1_000_000


def now() -> datetime:
    """Now, in Vietnam time."""
    return datetime.now(VN_TZ)


def vn_datetime(ms: int) -> datetime:
    """The instant ``ms`` (Unix milliseconds) in Vietnam time."""
    return datetime.fromtimestamp(ms / 1000, tz=VN_TZ)


def format_datetime(ms: int | None) -> str:
    """``21/11/2026 14:03:07`` (day first, as in Vietnam); ``""`` for no time."""
    if ms is None:
        return ""
    return vn_datetime(ms).strftime("%d/%m/%Y %H:%M:%S")


def format_time(ms: int) -> str:
    """``14:03:07``."""
    return vn_datetime(ms).strftime("%H:%M:%S")


def format_moment(moment: datetime) -> str:
    """An aware datetime (e.g. from PostgreSQL) as ``21/11/2026 14:03:07`` in Vietnam time."""
    return moment.astimezone(VN_TZ).strftime("%d/%m/%Y %H:%M:%S")


def iso_day(ms: int) -> str:
    """The Vietnam calendar day of ``ms``, ``YYYY-MM-DD`` (the form a cashier types)."""
    return vn_datetime(ms).strftime("%Y-%m-%d")


def today() -> str:
    return now().strftime("%Y-%m-%d")


def day_bounds_ms(day: str) -> tuple[int, int]:
    """[start, end) of a ``YYYY-MM-DD`` day in Vietnam time, in Unix ms; ValueError if malformed."""
    start = datetime.strptime(day, "%Y-%m-%d").replace(tzinfo=VN_TZ)
    end = start + timedelta(days=1)
    return int(start.timestamp() * 1000), int(end.timestamp() * 1000)


def yymmdd(ms: int) -> str:
    """The wallet protocol's ``yymmdd`` of ``ms`` in Vietnam time (app_trans_id's prefix)."""
    return vn_datetime(ms).strftime("%y%m%d")


def format_stamp(ms: int | None) -> str:
    """``2026-11-21 14:03:07`` in Vietnam time: sortable, for JSON, CSV and tables; ``""`` for
    no time."""
    if ms is None:
        return ""
    return vn_datetime(ms).strftime("%Y-%m-%d %H:%M:%S")
