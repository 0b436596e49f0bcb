"""Vietnam time for everything the cashier reads, and for the wallet's ``yymmdd`` day.

Asia/Ho_Chi_Minh is GMT+7 with no daylight saving since 1975; the terminal uses that fixed
offset rather than the tz database, which gives +08:00 for instants before 1975 (the wallet
protocol's ``yymmdd`` rule is GMT+7 whatever the instant) and may be missing on a small system.
"""

from __future__ import annotations

import time
from datetime import datetime, timedelta, timezone

from pos_terminal.base.i18n import ngettext

VN_TZ = timezone(timedelta(hours=7), "GMT+7")  # Asia/Ho_Chi_Minh since 1975
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


def format_moment_stamp(moment: datetime) -> str:
    """An aware datetime (e.g. from PostgreSQL) as ``2026-11-21 14:03:07`` in Vietnam time, like
    format_stamp."""
    return moment.astimezone(VN_TZ).strftime("%Y-%m-%d %H:%M:%S")


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


def duration_words(seconds: float) -> str:
    """A waiting time as a person says it: "5 minutes", "90 seconds", "1 hour"."""
    whole = int(seconds)
    if whole >= 3600 and whole % 3600 == 0:
        hours = whole // 3600
        return ngettext("{count} hour", "{count} hours", hours).format(count=hours)
    if whole >= 60 and whole % 60 == 0:
        minutes = whole // 60
        return ngettext("{count} minute", "{count} minutes", minutes).format(count=minutes)
    return ngettext("{count} second", "{count} seconds", whole).format(count=whole)
