"""The cashier's UI in Vietnamese and English: [terminal] language picks it, F8 switches it on
any screen (what was typed survives), and the footer shows the switch."""

from __future__ import annotations

import pytest
from textual.widgets import DataTable, Label

from pos_terminal.base import i18n
from pos_terminal.checkout import Checkout, PaymentState
from pos_terminal.config import Settings
from pos_terminal.tui.screens.history import HistoryScreen
from pos_terminal.tui.screens.result import ResultScreen
from pos_terminal.tui.screens.sale import SaleScreen
from pos_terminal.tui.widgets.amount import AmountField
from tests.tui.conftest import ledger
from tests.tui.helpers import shown, text_of, type_keys, wait_for_footer, wait_until
from tests.tui.test_flows import charge

pytestmark = pytest.mark.asyncio

HINT_VI = "Số tiền (nhập chữ số; Backspace để sửa, Delete để xóa hết)"
HINT_EN = "Amount (type digits; Backspace corrects, Delete clears)"
FOOTER_VI = "⏎ Thu tiền f2 Lịch sử f3 Báo cáo f5 QR f6 Mặt hàng f7 Xóa ^q Thoát f8 EN"
FOOTER_EN = "⏎ Charge f2 History f3 Reports f5 QR f6 Items f7 Clear ^q Quit f8 VI"


def hint(pilot) -> str:  # type: ignore[no-untyped-def]
    """The Sale screen's hint ("" while F8 redraws the screen: its widgets are composed again)."""
    found = next(iter(pilot.app.screen.query("Label.hint").results(Label)), None)
    return "" if found is None else str(found.render())


def vietnamese(settings: Settings) -> Settings:
    return settings.replace_section("terminal", language="vi")


async def test_the_sale_screen_speaks_vietnamese(settings: Settings, make_app,
                                                 key_clock) -> None:
    async with make_app(settings=vietnamese(settings)).run_test(size=(80, 24)) as pilot:
        assert hint(pilot) == HINT_VI
        footer = await wait_for_footer(pilot)
        assert footer.strip() == FOOTER_VI  # every key hint fits 80 columns in Vietnamese too
        await type_keys(pilot, key_clock, "enter")
        assert text_of(pilot, "#sale-message") == (
            "Chưa có số tiền: hãy nhập số tiền bằng VND, ví dụ 50000 hoặc 50.000 đ.")
        await type_keys(pilot, key_clock, *"15000")
        assert str(pilot.app.screen.query_one(AmountField).render()) == "15.000 ₫"


async def test_english_by_config_and_f8_switches_keeping_the_sale(make_app, key_clock) -> None:
    async with make_app().run_test(size=(80, 24)) as pilot:
        assert hint(pilot) == HINT_EN
        assert (await wait_for_footer(pilot)).strip() == FOOTER_EN
        await type_keys(pilot, key_clock, *"25000", "tab", *"tea")
        await type_keys(pilot, key_clock, "f8")
        await wait_until(pilot, lambda: hint(pilot) == HINT_VI, what="the Vietnamese sale screen")
        assert i18n.current_language() == "vi"
        screen = pilot.app.screen
        assert isinstance(screen, SaleScreen)
        assert screen.current_sale().amount == 25000 and screen.current_sale().description == "tea"
        assert (await wait_for_footer(pilot)).strip() == FOOTER_VI
        await type_keys(pilot, key_clock, "f8")
        await wait_until(pilot, lambda: hint(pilot) == HINT_EN, what="the English sale screen")
        assert (await wait_for_footer(pilot)).strip() == FOOTER_EN


async def test_a_paid_result_in_vietnamese_and_switched_to_english(
        settings: Settings, make_app, key_clock, emulator, checkout: Checkout) -> None:
    async with make_app(settings=vietnamese(settings)).run_test(size=(80, 24)) as pilot:
        await charge(pilot, key_clock, emulator, "50000", "an")
        await wait_until(pilot, lambda: isinstance(pilot.app.screen, ResultScreen), what="result")
        [paid] = ledger(emulator)["charges"]
        assert text_of(pilot, "#result-headline") == "ĐÃ THANH TOÁN"
        assert text_of(pilot, "#result-amount") == "50.000 ₫"
        lines = [str(w.render()) for w in pilot.app.screen.query(".result-line")]
        assert lines[1:] == [f"Mã giao dịch ví: {paid['zp_trans_id']}", "Ví: ZaloPay",
                             f"Mã đơn: {paid['app_trans_id']}"]
        assert lines[0].startswith("Thời gian: ") and lines[0].endswith(" (GMT+7)")
        assert text_of(pilot, "#result-hint") == (
            "R: in phiếu · Enter: khách tiếp theo · hoặc nhập số tiền tiếp theo")
        await type_keys(pilot, key_clock, "f8")  # redrawn, not dismissed
        await wait_until(pilot, lambda: shown(pilot, "#result-headline") == "PAID",
                         what="the English result")
        assert isinstance(pilot.app.screen, ResultScreen)
        assert text_of(pilot, "#result-hint") == (
            "R: print the receipt · Enter: next sale · or type the next amount")
        assert f"Order: {paid['app_trans_id']}" in [
            str(w.render()) for w in pilot.app.screen.query(".result-line")]


async def test_a_declined_payment_tells_the_cashier_in_vietnamese(
        settings: Settings, make_app, key_clock, emulator, checkout: Checkout) -> None:
    async with make_app(settings=vietnamese(settings)).run_test(size=(80, 24)) as pilot:
        await charge(pilot, key_clock, emulator, "70000", "dung")
        await wait_until(pilot, lambda: isinstance(pilot.app.screen, ResultScreen), what="result")
        assert text_of(pilot, "#result-headline") == "CHƯA THANH TOÁN"
        [row] = checkout.journal.list_payments()
        assert row.state is PaymentState.FAILED
        assert row.message.startswith("Số dư ví của khách không đủ. Nhờ khách nạp thêm tiền "
                                      "vào ví hoặc thanh toán bằng hình thức khác.")
        first = str(pilot.app.screen.query(".result-line").first().render())
        assert first.replace("\n", " ") == row.message  # broken between its sentences


async def test_history_is_redrawn_in_the_new_language(make_app, key_clock) -> None:
    async with make_app().run_test(size=(100, 30)) as pilot:
        await type_keys(pilot, key_clock, "f2")
        await wait_until(pilot, lambda: isinstance(pilot.app.screen, HistoryScreen),
                         what="history")
        await wait_until(pilot, lambda: "(Vietnam time) · all states" in text_of(
            pilot, "#history-filter"), what="the English filter line")
        await type_keys(pilot, key_clock, "f8")
        await wait_until(pilot, lambda: "(giờ Việt Nam) · mọi trạng thái" in shown(
            pilot, "#history-filter"), what="the Vietnamese filter line")
        footer = await wait_for_footer(pilot)
        assert "esc Trở về" in footer and "f8 EN" in footer
        await type_keys(pilot, key_clock, "escape")  # Sale was under it: redrawn on return
        await wait_until(pilot, lambda: isinstance(pilot.app.screen, SaleScreen)
                         and hint(pilot) == HINT_VI, what="the Vietnamese sale screen")


async def test_a_payment_taken_in_vietnamese_reads_in_english_after_f8(
        settings: Settings, make_app, key_clock, emulator, checkout: Checkout) -> None:
    """Issue 22: the journal keeps the reason, not the Vietnamese sentence, so the result and
    History's note read in English after F8 (and the stored row is the same)."""
    english = "The customer's wallet balance is too low."
    async with make_app(settings=vietnamese(settings)).run_test(size=(120, 30)) as pilot:
        await charge(pilot, key_clock, emulator, "70000", "dung")
        await wait_until(pilot, lambda: isinstance(pilot.app.screen, ResultScreen)
                         and shown(pilot, ".result-line") != "", what="result")
        [row] = checkout.journal.list_payments()
        assert shown(pilot, ".result-line").startswith("Số dư ví của khách không đủ.")
        await type_keys(pilot, key_clock, "f8")
        await wait_until(pilot, lambda: shown(pilot, ".result-line").startswith(english),
                         what="the English reason on the result")
        await type_keys(pilot, key_clock, "enter", "f2")
        await wait_until(pilot, lambda: isinstance(pilot.app.screen, HistoryScreen),
                         what="history")

        def note() -> str:
            table = pilot.app.screen.query_one(DataTable)
            return str(table.get_row_at(0)[4]) if table.row_count else ""

        await wait_until(pilot, lambda: note().startswith(english),
                         what="History's note in English")
    assert checkout.journal.get(row.app_trans_id).why == row.why
    assert row.why.code == "declined.balance"


async def test_enter_after_f8_on_the_result_starts_an_empty_sale(
        settings: Settings, make_app, key_clock, emulator) -> None:
    """F8 on the Result, then Enter ("next sale"): the Sale screen under it, redrawn in the
    new language when it comes back, is empty; it kept the last sale's amount, which the
    next customer would have been charged."""
    async with make_app().run_test(size=(80, 24)) as pilot:
        await charge(pilot, key_clock, emulator, "12000", "an")
        await wait_until(pilot, lambda: isinstance(pilot.app.screen, ResultScreen)
                         and shown(pilot, "#result-headline") == "PAID", what="the result")
        await type_keys(pilot, key_clock, "f8")
        await wait_until(pilot, lambda: shown(pilot, "#result-headline") == "ĐÃ THANH TOÁN",
                         what="the Vietnamese result")
        await type_keys(pilot, key_clock, "enter")
        await wait_until(pilot, lambda: isinstance(pilot.app.screen, SaleScreen)
                         and hint(pilot) == HINT_VI, what="the Vietnamese sale screen")
        await pilot.pause()
        screen = pilot.app.screen
        assert screen.query_one(AmountField).amount == 0
        assert screen.current_sale().description == ""


async def test_digits_after_f8_on_the_result_all_land_in_the_next_sale(
        settings: Settings, make_app, key_clock, emulator) -> None:
    """F8 on the Result, then the next amount typed at once: the first digit closes the Result
    and every digit lands in the redrawn Sale screen, none undone by the redraw."""
    async with make_app().run_test(size=(80, 24)) as pilot:
        await charge(pilot, key_clock, emulator, "12000", "an")
        await wait_until(pilot, lambda: isinstance(pilot.app.screen, ResultScreen)
                         and shown(pilot, "#result-headline") == "PAID", what="the result")
        await type_keys(pilot, key_clock, "f8")
        await wait_until(pilot, lambda: shown(pilot, "#result-headline") == "ĐÃ THANH TOÁN",
                         what="the Vietnamese result")
        await type_keys(pilot, key_clock, *"25000")
        await wait_until(pilot, lambda: isinstance(pilot.app.screen, SaleScreen)
                         and hint(pilot) == HINT_VI, what="the Vietnamese sale screen")
        field = pilot.app.screen.query_one(AmountField)
        await wait_until(pilot, lambda: field.amount == 25_000, timeout=5,
                         what="the amount 25000")
