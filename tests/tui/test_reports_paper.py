"""Issue 32, items 5 and 6, on the real screens: F8 on a Z report draws the same Z again, P
prints the report on screen (the shop's name on the slip), a new report clears what was said
about the last print, every closed day can be shown and printed again (marked as a reprint),
and the Sale screen says what its takings count."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from textual.widgets import DataTable

from pos_terminal.config import Settings
from pos_terminal.counter import Counter, open_checkout
from pos_terminal.tui.app import PosApp
from pos_terminal.tui.screens.closed_days import ClosedDaysScreen
from pos_terminal.tui.screens.pay import PayScreen
from pos_terminal.tui.screens.reports import ReportsScreen
from pos_terminal.tui.screens.result import ResultScreen
from pos_terminal.tui.screens.sale import SaleScreen
from tests.receipts.test_paper_slips import decoded
from tests.tui.helpers import scan_burst, shown, text_of, type_keys, wait_until
from tests.tui.test_flows import charge

pytestmark = pytest.mark.asyncio
SHOP = "Tiệm Bánh Mì Hòa Mã"


def with_paper(settings: Settings, tmp_path: Path) -> tuple[Settings, Path]:
    target = tmp_path / "printer.bin"
    chosen = settings.replace_section("shop", name=SHOP).replace_section(
        "printer", target=f"file:{target}", codepage="CP1258", width=32)
    return chosen, target


async def pay_one(pilot, key_clock, emulator, amount: str = "50000") -> None:
    await charge(pilot, key_clock, emulator, amount, "an")
    await wait_until(pilot, lambda: isinstance(pilot.app.screen, ResultScreen), what="result")
    await type_keys(pilot, key_clock, "space")
    await wait_until(pilot, lambda: isinstance(pilot.app.screen, SaleScreen), what="sale")


async def test_f8_redraws_the_z_and_every_closed_day_can_be_printed_again(
        settings: Settings, tmp_path: Path, make_app, key_clock, emulator) -> None:
    chosen, target = with_paper(settings, tmp_path)
    async with make_app(settings=chosen).run_test(size=(80, 24)) as pilot:
        await pay_one(pilot, key_clock, emulator)
        await type_keys(pilot, key_clock, "f3")
        await wait_until(pilot, lambda: "X report" in shown(pilot, "#report-text"), what="X")
        await type_keys(pilot, key_clock, "z", "y")
        await wait_until(pilot, lambda: "Z report #1" in shown(pilot, "#report-text"),
                         what="Z #1")
        await type_keys(pilot, key_clock, "f8")
        await wait_until(pilot, lambda: "Báo cáo Z số 1" in shown(pilot, "#report-text"),
                         what="the same Z in Vietnamese")
        assert re.search(r"giao dịch thành công +1 +50\.000 ₫",
                         " ".join(shown(pilot, "#report-text").split("\n")))
        await type_keys(pilot, key_clock, "f8")
        await wait_until(pilot, lambda: "Z report #1" in shown(pilot, "#report-text"),
                         what="the same Z in English")

        await type_keys(pilot, key_clock, "p")  # prints the Z, not an X
        await wait_until(pilot, lambda: "Printed on" in shown(pilot, "#reports-state"),
                         what="printed")
        first = decoded(target.read_bytes())
        assert SHOP in "\n".join(first) and "Z report #1 (day closed)" in "\n".join(first)
        assert "REPRINT" not in "\n".join(first)

        # a second day, closed: the line about the last print goes with the old report
        await type_keys(pilot, key_clock, "escape")
        await pay_one(pilot, key_clock, emulator, "20000")
        await type_keys(pilot, key_clock, "f3")
        await wait_until(pilot, lambda: "X report" in shown(pilot, "#report-text"), what="X")
        await type_keys(pilot, key_clock, "z", "y")
        await wait_until(pilot, lambda: "Z report #2" in shown(pilot, "#report-text"),
                         what="Z #2")
        assert "Printed on" not in text_of(pilot, "#reports-state")

        await type_keys(pilot, key_clock, "l")
        await wait_until(pilot, lambda: isinstance(pilot.app.screen, ClosedDaysScreen)
                         and pilot.app.screen.query_one(DataTable).row_count == 2,
                         what="two closed days")
        table = pilot.app.screen.query_one(DataTable)
        assert [table.get_row_at(i)[0] for i in range(2)] == ["#2", "#1"]
        await type_keys(pilot, key_clock, "down", "enter")
        await wait_until(pilot, lambda: isinstance(pilot.app.screen, ReportsScreen)
                         and "Z report #1" in shown(pilot, "#report-text"), what="Z #1 again")
        assert "*** REPRINT ***" in text_of(pilot, "#report-text")
        assert "50.000 ₫" in text_of(pilot, "#report-text")
        target.unlink()  # a `file:` printer: each job written anew
        await type_keys(pilot, key_clock, "p")
        await wait_until(pilot, lambda: target.exists()
                         and "Printed on" in shown(pilot, "#reports-state"), what="reprinted")
        again = "\n".join(decoded(target.read_bytes()))
        assert "*** REPRINT ***" in again and "Z report #1" in again and SHOP in again


async def test_the_sale_screen_says_its_takings_are_since_the_last_z(
        settings: Settings, make_app, key_clock, emulator) -> None:
    chosen = settings.replace_section("terminal", language="vi")
    async with make_app(settings=chosen).run_test(size=(80, 24)) as pilot:
        await wait_until(pilot, lambda: shown(pilot, "#sale-today").startswith(
            "Từ lần chốt gần nhất: 0 giao dịch"), what="the takings' words")
        assert "Hôm nay" not in shown(pilot, "#sale-today")


async def test_a_counter_taking_two_wallets_shows_and_prints_each_wallet_s_totals(
        both_settings: Settings, tmp_path: Path, key_clock, emulator) -> None:
    """Issue 31: the X report on screen and on paper names each wallet's sales."""
    chosen, target = with_paper(both_settings, tmp_path)
    with open_checkout(chosen) as checkout:
        counter = Counter(chosen, checkout)
        try:
            app = PosApp(chosen, counter, background=False)
            async with app.run_test(size=(80, 40)) as pilot:
                await pay_one(pilot, key_clock, emulator)  # ZaloPay, 50.000 ₫
                await type_keys(pilot, key_clock, *"45000", "enter")
                await wait_until(pilot, lambda: isinstance(pilot.app.screen, PayScreen),
                                 what="Pay screen")
                await scan_burst(pilot, key_clock, emulator.control.momo_code("momo-paid"))
                await wait_until(pilot, lambda: isinstance(pilot.app.screen, ResultScreen),
                                 what="the MoMo result")
                await type_keys(pilot, key_clock, "space")
                await wait_until(pilot, lambda: isinstance(pilot.app.screen, SaleScreen),
                                 what="sale")
                await type_keys(pilot, key_clock, "f3")
                await wait_until(pilot, lambda: "X report" in shown(pilot, "#report-text"),
                                 what="X")
                screen = " ".join(shown(pilot, "#report-text").split("\n"))
                assert re.search(r"ZaloPay +1 +50\.000 ₫", screen), screen
                assert re.search(r"MoMo wallet +1 +45\.000 ₫", screen), screen
                await type_keys(pilot, key_clock, "p")
                await wait_until(pilot, lambda: "Printed on" in shown(pilot, "#reports-state"),
                                 what="printed")
        finally:
            counter.close()
    paper = " ".join(decoded(target.read_bytes()))
    assert re.search(r"ZaloPay +1 +50\.000", paper), paper
    assert re.search(r"MoMo wallet +1 +45\.000", paper), paper


async def test_a_zalopay_only_report_names_no_wallet(
        settings: Settings, make_app, key_clock, emulator) -> None:
    async with make_app().run_test(size=(80, 40)) as pilot:
        await pay_one(pilot, key_clock, emulator)
        await type_keys(pilot, key_clock, "f3")
        await wait_until(pilot, lambda: "X report" in shown(pilot, "#report-text"), what="X")
        assert "ZaloPay" not in shown(pilot, "#report-text")
