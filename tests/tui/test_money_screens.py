"""What the screens say about money already on its way (issue 21, defects 3 and 4): a refund
in flight counts in the refund dialog; a late charge being returned never looks like an
ordinary success in History, and its note is never cut."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

import pytest
from textual.pilot import Pilot
from textual.widgets import DataTable, Input

from pos_terminal.checkout import PaymentState, RefundState
from pos_terminal.config import Settings
from pos_terminal.counter import Counter, open_checkout
from pos_terminal.journal import Journal
from pos_terminal.tui.app import PosApp
from pos_terminal.tui.screens.history import HistoryScreen
from tests.tui.helpers import (
    screen_lines,
    screen_text,
    text_of,
    wait_for_footer,
    wait_for_tables,
    wait_until,
)
from tests.tui.scenes import DAY, T0, fixed_journal, text
from tests.tui.test_fit import SUCCEEDED_ID, open_detail, squash

pytestmark = pytest.mark.asyncio

LATE_ID = "261121_counter1_0955e"
REFUNDED_ID = "261121_counter1_0915a"  # 50.000 ₫, 10.000 ₫ of it refunded


def add_money_in_flight(journal: Journal) -> None:
    """20.000 ₫ of SUCCEEDED_ID (125.000 ₫) being refunded; a payment given up, then charged,
    whose automatic return is still on its way."""
    journal.record_refund_intent(m_refund_id="261121_counter1_r1", app_trans_id=SUCCEEDED_ID,
                                 amount=20_000, description="refund", request_ms=T0)
    journal.record_intent(app_trans_id=LATE_ID, amount=45_000, generation="v2",
                          description="cơm tấm", payment_code="812345678901239999",
                          payload_hash="0" * 64, message=text("sending"))
    journal.transition(LATE_ID, PaymentState.PROCESSING, return_code=3,
                       message=text("confirming"))
    journal.mark_abandoned(LATE_ID, "gave up")
    journal.transition(LATE_ID, PaymentState.SUCCEEDED, message=text("paid"), return_code=1,
                       zp_trans_id="261121000000109")
    journal.record_refund_intent(m_refund_id="261121_counter1_r2", app_trans_id=LATE_ID,
                                 amount=None, description="return", request_ms=T0, auto=True)
    journal.record_refund_intent(m_refund_id="261121_counter1_r3", app_trans_id=REFUNDED_ID,
                                 amount=10_000, description="refund", request_ms=T0)
    journal.refund_transition("261121_counter1_r3", RefundState.REFUNDED, message="refunded")


@asynccontextmanager
async def in_flight_app(settings: Settings, tmp_path: Path) -> AsyncIterator[Pilot]:
    """The scenes' journal with add_money_in_flight(), on an 80x24 screen."""
    journal = fixed_journal(tmp_path / "journal.sqlite3")
    add_money_in_flight(journal)
    checkout = open_checkout(settings, journal=journal)
    app = PosApp(settings, Counter(settings, checkout), background=False)
    try:
        async with app.run_test(size=(80, 24)) as pilot:
            yield pilot
    finally:
        checkout.close()


async def test_the_refund_dialog_counts_refunds_in_flight(settings: Settings,
                                                          tmp_path: Path) -> None:
    async with in_flight_app(settings, tmp_path) as pilot:
        await open_detail(pilot, SUCCEEDED_ID)
        await pilot.press("f")
        await wait_until(pilot, lambda: bool(pilot.app.screen.query("#refund-amount")),
                         what="the refund dialog")
        shown = squash(screen_text(pilot))
        assert ("Paid 125.000 ₫, refunded 0 ₫, 20.000 ₫ being refunded: 105.000 ₫ can be "
                "refunded.") in shown
        field = pilot.app.screen.query_one("#refund-amount", Input)
        assert field.value == "105000"
        field.value = "125000"
        await pilot.press("enter")
        assert text_of(pilot, "#refund-message") == (
            "Type an amount between 1 ₫ and 105.000 ₫, then Enter.")


async def test_a_late_charge_being_returned_is_not_an_ordinary_success(
        settings: Settings, tmp_path: Path) -> None:
    async with in_flight_app(settings, tmp_path) as pilot:
        await pilot.app.push_screen(HistoryScreen(day=DAY))
        await wait_until(pilot, lambda: isinstance(pilot.app.screen, HistoryScreen)
                         and pilot.app.screen.query_one(DataTable).row_count == 5,
                         what="history")
        await wait_for_tables(pilot)
        table = pilot.app.screen.query_one(DataTable)
        row = [str(c) for c in table.get_row(LATE_ID)]
        assert row[3] == "returning"
        assert squash(row[4]).startswith("charged late, being returned automatically")
        lines = screen_lines(pilot)
        at = next(n for n, line in enumerate(lines) if "45.000" in line)
        note_column = lines[at].index("charged")
        shown = " ".join(line[note_column:] for line in lines[at:at + 2])
        assert "charged late, being returned automatically" in squash(shown)
        await open_detail(pilot, LATE_ID)
        summary = text_of(pilot, "#detail-summary")
        assert "CHARGED LATE, BEING RETURNED AUTOMATICALLY" in squash(summary)
        assert "Paid." not in screen_text(pilot).splitlines()


async def test_the_busiest_detail_footer_fits_80_columns_in_vietnamese(
        settings: Settings, tmp_path: Path) -> None:
    """Refund, print, print the refund slip, check again, Quit and the language key: all on
    the footer line (none cut off the right edge)."""
    vietnamese = settings.replace_section("terminal", language="vi")
    async with in_flight_app(vietnamese, tmp_path) as pilot:
        await open_detail(pilot, REFUNDED_ID)
        footer = await wait_for_footer(pilot)
        for hint in ("Hoàn tiền", "In phiếu", "Phiếu hoàn", "Kiểm tra lại", "^q Thoát", "f8 EN"):
            assert hint in footer, footer


async def test_history_dates_are_dd_mm_yyyy_in_vietnamese(settings: Settings,
                                                          tmp_path: Path) -> None:
    vietnamese = settings.replace_section("terminal", language="vi")
    async with in_flight_app(vietnamese, tmp_path) as pilot:
        await pilot.app.push_screen(HistoryScreen(day="2026-11-20"))
        await wait_until(pilot, lambda: isinstance(pilot.app.screen, HistoryScreen)
                         and "20/11/2026" in text_of(pilot, "#history-filter"), what="history")
        await pilot.press("d")
        field = pilot.app.screen.query_one("#day-input", Input)
        assert field.value == "20/11/2026"
        field.value = "21/11/2026"
        await pilot.press("enter")
        await wait_until(pilot, lambda: pilot.app.screen.query_one(DataTable).row_count == 5,
                         what="the 21st's payments")
        assert pilot.app.screen.day == "2026-11-21"
        assert "Ngày 21/11/2026" in text_of(pilot, "#history-filter")
