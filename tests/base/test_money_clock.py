"""The one money formatter and the one Vietnam clock (pos_terminal.base)."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from pos_terminal.base import clock, i18n
from pos_terminal.base.money import format_number, format_vnd


@pytest.mark.parametrize(("amount", "shown"), [
    (0, "0 ₫"),
    (1000, "1.000 ₫"),
    (10000, "10.000 ₫"),
    (1234567, "1.234.567 ₫"),
    (100_000_000, "100.000.000 ₫"),
    (9_999_999_999_999_999, "9.999.999.999.999.999 ₫"),
    (-5000, "-5.000 ₫"),   # a refund shown as money going out
    (-30_000, "-30.000 ₫"),
])
def test_vnd_is_written_the_vietnamese_way(amount: int, shown: str) -> None:
    assert format_vnd(amount) == shown


@pytest.mark.parametrize("language", ["vi", "en"])
def test_vnd_looks_the_same_in_both_languages(language: str) -> None:
    i18n.set_language(language)
    assert format_vnd(10000) == "10.000 ₫"
    assert format_number(1234567) == "1.234.567"
    assert "\xa0" not in format_vnd(10000)  # a plain space: printers and terminals have it


def _ms(moment: datetime) -> int:
    return int(moment.timestamp() * 1000)


def test_times_are_shown_in_vietnam_time_from_a_utc_instant() -> None:
    instant = _ms(datetime(2026, 11, 21, 17, 30, 5, tzinfo=UTC))  # 00:30:05 next day in Hanoi
    assert clock.format_datetime(instant) == "22/11/2026 00:30:05"
    assert clock.format_time(instant) == "00:30:05"
    assert clock.format_stamp(instant) == "2026-11-22 00:30:05"
    assert clock.iso_day(instant) == "2026-11-22"
    assert clock.yymmdd(instant) == "261122"
    assert clock.format_moment_stamp(datetime(2026, 11, 21, 17, 30, 5, tzinfo=UTC)) == (
        "2026-11-22 00:30:05")
    assert clock.format_datetime(None) == "" and clock.format_stamp(None) == ""


def test_vietnam_time_is_gmt_plus_7_even_before_1975() -> None:
    # The tz database gives Asia/Ho_Chi_Minh +08:00 in 1970; the wallet's rule is GMT+7.
    assert clock.format_time(0) == "07:00:00"
    assert clock.vn_datetime(0).utcoffset().total_seconds() == 7 * 3600  # type: ignore[union-attr]


def test_day_bounds_are_vietnam_midnights() -> None:
    start, end = clock.day_bounds_ms("2026-11-22")
    assert start == _ms(datetime(2026, 11, 21, 17, 0, tzinfo=UTC))
    assert end - start == 86_400_000
    with pytest.raises(ValueError):
        clock.day_bounds_ms("22/11/2026")
