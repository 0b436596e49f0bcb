"""What a cashier at a busy counter expects (issue 21, item 12): NOT PAID is charged again with
one key, the day's takings are on the Sale screen, History has a totals row and finds a
payment by the code's last 4 digits, the wallet transaction id or the amount."""

from __future__ import annotations

import pytest
from textual.widgets import DataTable

from pos_terminal.checkout import Checkout, PaymentState
from pos_terminal.tui.screens.dialogs import ConfirmDialog
from pos_terminal.tui.screens.history import HistoryScreen
from pos_terminal.tui.screens.pay import PayScreen
from pos_terminal.tui.screens.reports import ReportsScreen
from pos_terminal.tui.screens.result import ResultScreen
from pos_terminal.tui.screens.sale import SaleScreen
from tests.conftest import fresh_code
from tests.tui.conftest import ledger
from tests.tui.helpers import scan_burst, screen_text, text_of, type_keys, wait_until
from tests.tui.test_flows import charge

pytestmark = pytest.mark.asyncio


async def test_not_paid_is_charged_again_with_one_key(make_app, key_clock, emulator,
                                                      checkout: Checkout) -> None:
    async with make_app().run_test(size=(80, 24)) as pilot:
        await type_keys(pilot, key_clock, "tab", *"lunch", "shift+tab")
        await charge(pilot, key_clock, emulator, "40000", "dung")  # balance too low
        await wait_until(pilot, lambda: isinstance(pilot.app.screen, ResultScreen), what="result")
        assert not pilot.app.screen.outcome.success
        assert "T: try again as a new order" in screen_text(pilot)
        await type_keys(pilot, key_clock, "t")
        await wait_until(pilot, lambda: isinstance(pilot.app.screen, PayScreen), what="Pay")
        assert (pilot.app.screen.sale.amount, pilot.app.screen.sale.description) == (
            40_000, "lunch")
        await scan_burst(pilot, key_clock, fresh_code(emulator, "an"))
        await wait_until(pilot, lambda: isinstance(pilot.app.screen, ResultScreen), what="PAID")
        assert pilot.app.screen.outcome.success
        assert "T: try again" not in screen_text(pilot)
        await type_keys(pilot, key_clock, "t")  # no retry of a PAID: nothing happens
        assert isinstance(pilot.app.screen, ResultScreen)
    assert [(c["wallet"], c["amount"]) for c in ledger(emulator)["charges"]] == [
        ("dung", 40_000), ("an", 40_000)]


async def test_the_days_takings_are_on_the_sale_screen(make_app, key_clock, emulator) -> None:
    async with make_app().run_test(size=(80, 24)) as pilot:
        await wait_until(pilot, lambda: text_of(pilot, "#sale-today") == (
            "Since the last Z: 0 payments · 0 ₫"), what="no takings yet")
        await charge(pilot, key_clock, emulator, "25000", "an")
        await wait_until(pilot, lambda: isinstance(pilot.app.screen, ResultScreen), what="result")
        await type_keys(pilot, key_clock, "enter")
        after = "Since the last Z: 1 payment · 25.000 ₫"
        await wait_until(pilot, lambda: isinstance(pilot.app.screen, SaleScreen)
                         and text_of(pilot, "#sale-today") == after,
                         what="the takings after one sale")


async def test_history_totals_and_search(make_app, key_clock, emulator,
                                         checkout: Checkout) -> None:
    async with make_app().run_test(size=(100, 30)) as pilot:
        for amount, wallet in (("25000", "an"), ("31000", "an"), ("42000", "dung")):
            await charge(pilot, key_clock, emulator, amount, wallet)
            await wait_until(pilot, lambda: isinstance(pilot.app.screen, ResultScreen),
                             what="result")
            await type_keys(pilot, key_clock, "enter")
        await type_keys(pilot, key_clock, "f2")
        table = pilot.app.screen.query_one("#history-table", DataTable)
        await wait_until(pilot, lambda: isinstance(pilot.app.screen, HistoryScreen)
                         and table.row_count == 3, what="three rows")
        assert text_of(pilot, "#history-totals") == (
            "Total: 2 paid 56.000 ₫ · refunded 0 ₫ · net 56.000 ₫ · 1 failed")
        rows = {r.amount: r for r in checkout.journal.list_payments()}
        paid = rows[31_000]
        assert paid.state is PaymentState.SUCCEEDED
        for search in (paid.code_last4, paid.zp_trans_id, "31.000 đ"):
            await type_keys(pilot, key_clock, "slash", *search, "enter")
            await wait_until(pilot, lambda: table.row_count == 1, what=f"found by {search}")
            assert table.get_row_at(0)[2] == "31.000 ₫"
            assert text_of(pilot, "#history-totals").startswith("Total: 1 paid 31.000 ₫")
            await type_keys(pilot, key_clock, "slash", *["backspace"] * 20, "enter")
            await wait_until(pilot, lambda: table.row_count == 3, what="all rows again")


async def test_reports_print_and_an_empty_z_warns(settings, make_app, key_clock, emulator,
                                                  tmp_path) -> None:
    target = tmp_path / "printer.bin"
    printing = settings.replace_section("printer", target=f"file:{target}")
    async with make_app(settings=printing).run_test(size=(80, 24)) as pilot:
        await charge(pilot, key_clock, emulator, "25000", "an")
        await wait_until(pilot, lambda: isinstance(pilot.app.screen, ResultScreen), what="result")
        await type_keys(pilot, key_clock, "enter", "f3")
        await wait_until(pilot, lambda: isinstance(pilot.app.screen, ReportsScreen)
                         and pilot.app.screen.shown is not None, what="the X report")
        await type_keys(pilot, key_clock, "p")
        await wait_until(pilot, lambda: text_of(pilot, "#reports-state").startswith(
            "Printed on"), what="the X report printed")
        assert target.stat().st_size > 0
        await type_keys(pilot, key_clock, "z")
        await wait_until(pilot, lambda: isinstance(pilot.app.screen, ConfirmDialog),
                         what="the Z question")
        assert pilot.app.screen.question.startswith("Close the day with a Z report?")
        await type_keys(pilot, key_clock, "y")
        await wait_until(pilot, lambda: isinstance(pilot.app.screen, ReportsScreen)
                         and pilot.app.screen.shown is not None
                         and pilot.app.screen.shown.kind == "z", what="the Z report")
        await type_keys(pilot, key_clock, "z")  # again, with nothing since
        await wait_until(pilot, lambda: isinstance(pilot.app.screen, ConfirmDialog),
                         what="the second Z question")
        assert pilot.app.screen.question == (
            "Nothing was paid, refunded or declined since the last Z report: close an empty "
            "day anyway?")
        await type_keys(pilot, key_clock, "n")
