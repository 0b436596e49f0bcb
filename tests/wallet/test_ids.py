"""Transaction ids: dated in Vietnam time, bounded, unique."""

from __future__ import annotations

import re
from datetime import UTC, datetime

import pytest

from pos_terminal.wallets.errors import FieldError
from pos_terminal.wallets.zalopay import ids
from pos_terminal.wallets.zalopay.messages import QuickPayOrder


def utc_ms(year: int, month: int, day: int, hour: int, minute: int) -> int:
    return int(datetime(year, month, day, hour, minute, tzinfo=UTC).timestamp() * 1000)


AT_1659_UTC = utc_ms(2024, 11, 21, 16, 59)  # 23:59 on the 21st in Vietnam
AT_1701_UTC = utc_ms(2024, 11, 21, 17, 1)  # 00:01 on the 22nd in Vietnam


def test_vietnam_date_before_and_after_17_utc() -> None:
    assert ids.vn_date_prefix(AT_1659_UTC) == "241121"
    assert ids.vn_date_prefix(AT_1701_UTC) == "241122"


def test_new_app_trans_id_is_dated_in_gmt7() -> None:
    assert ids.new_app_trans_id("T1", AT_1659_UTC).startswith("241121_T1_")
    assert ids.new_app_trans_id("T1", AT_1701_UTC).startswith("241122_T1_")


def test_an_id_dated_in_utc_after_17_is_refused_naming_the_field() -> None:
    utc_dated = QuickPayOrder(app_trans_id="241121_T1_1", app_user="u", app_time=AT_1701_UTC,
                              amount=1000)
    with pytest.raises(FieldError) as err:
        utc_dated.validate("v2")
    assert err.value.field == "app_trans_id"
    assert "241122" in err.value.message and "GMT+7" in err.value.message
    with pytest.raises(FieldError) as legacy:
        utc_dated.validate("v001")
    assert legacy.value.field == "apptransid"
    QuickPayOrder(app_trans_id="241122_T1_1", app_user="u", app_time=AT_1701_UTC,
                  amount=1000).validate("v2")
    QuickPayOrder(app_trans_id="241121_T1_1", app_user="u", app_time=AT_1659_UTC,
                  amount=1000).validate("v2")


def test_app_trans_id_shape_length_and_uniqueness() -> None:
    made = {ids.new_app_trans_id("counter1", AT_1659_UTC) for _ in range(2000)}
    assert len(made) == 2000
    for value in made:
        assert re.fullmatch(r"241121_counter1_235900000[0-9a-z]{6}", value)
        assert len(value) <= 40


def test_terminal_id_is_reduced_to_8_alphanumerics() -> None:
    value = ids.new_app_trans_id("counter-1 (front desk)", AT_1659_UTC)
    assert value.split("_")[1] == "counter1"
    longest = ids.new_app_trans_id("ABCDEFGHIJKLMNOP", AT_1659_UTC)
    assert longest.split("_")[1] == "ABCDEFGH"
    assert len(longest) == 31
    with pytest.raises(ValueError, match="terminal_id"):
        ids.new_app_trans_id("--", AT_1659_UTC)


def test_refund_id_shape() -> None:
    value = ids.new_refund_id(2553, AT_1701_UTC)
    assert re.fullmatch(r"241122_2553_000100000[0-9a-z]{8}", value)
    assert len(value) <= 45
    assert ids.new_refund_id(2553, AT_1701_UTC) != value
    big = ids.new_refund_id(10**18, AT_1701_UTC)
    assert len(big) <= 45 and big.startswith(f"241122_{10**18}_")


def test_refund_id_carries_the_terminal_id_when_there_is_room() -> None:
    value = ids.new_refund_id(2553, AT_1701_UTC, terminal_id="Q1-C07")
    assert re.fullmatch(r"241122_2553_Q1C07000100000[0-9a-z]{8}", value)
    big = ids.new_refund_id(10**18, AT_1701_UTC, terminal_id="Q1C07XYZ")
    assert len(big) <= 45 and "Q1C07XYZ" not in big
