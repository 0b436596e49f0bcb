"""Issue 32, item 8: History's CSV export is named for what it holds (a search never takes the
day's name), never overwrites a file without asking, and a Vietnamese export has its values in
Vietnamese too (states, methods, yes/no), not only its headers."""

from __future__ import annotations

import csv
from pathlib import Path

import pytest
from textual.widgets import DataTable

from pos_terminal.config import Settings
from pos_terminal.tui.screens.dialogs import ConfirmDialog
from pos_terminal.tui.screens.history import HistoryScreen
from tests.tui.helpers import type_keys, wait_until
from tests.tui.test_reports_paper import pay_one

pytestmark = pytest.mark.asyncio


def rows_of(path: Path) -> list[dict[str, str]]:
    with path.open(encoding="utf-8-sig") as f:
        return list(csv.DictReader(f))


async def test_a_search_exports_to_its_own_file_and_nothing_is_overwritten_unasked(
        settings: Settings, make_app, key_clock, emulator) -> None:
    chosen = settings.replace_section("terminal", language="vi")
    async with make_app(settings=chosen).run_test(size=(100, 30)) as pilot:
        await pay_one(pilot, key_clock, emulator, "25000")
        await pay_one(pilot, key_clock, emulator, "31000")
        await type_keys(pilot, key_clock, "f2")
        table = pilot.app.screen.query_one("#history-table", DataTable)
        await wait_until(pilot, lambda: isinstance(pilot.app.screen, HistoryScreen)
                         and table.row_count == 2, what="two rows")
        day = pilot.app.screen.day
        folder = settings.terminal.journal.parent
        whole = folder / f"payments-{day}.csv"
        await type_keys(pilot, key_clock, "e")
        await wait_until(pilot, lambda: whole.exists() and len(rows_of(whole)) == 2,
                         what="the day's export")
        [first, _second] = rows_of(whole)
        assert first["Trạng thái"] == "thành công"
        assert first["Hình thức"] == "Ví (quét mã của khách)"
        assert first["Cần kiểm tra"] == "không"
        text = whole.read_text(encoding="utf-8-sig")
        assert "succeeded" not in text and "quick_pay" not in text

        await type_keys(pilot, key_clock, "slash", *"31000", "enter")
        await wait_until(pilot, lambda: table.row_count == 1, what="the search")
        await type_keys(pilot, key_clock, "e")
        narrowed = folder / f"payments-{day}-search-31000.csv"
        await wait_until(pilot, lambda: narrowed.exists() and len(rows_of(narrowed)) == 1,
                         what="the search's export")
        assert len(rows_of(whole)) == 2  # the day's file kept whole

        await type_keys(pilot, key_clock, "e")  # the same again: asked first
        await wait_until(pilot, lambda: isinstance(pilot.app.screen, ConfirmDialog),
                         what="the question")
        await type_keys(pilot, key_clock, "n")
        again = folder / f"payments-{day}-search-31000-2.csv"
        await wait_until(pilot, lambda: again.exists() and len(rows_of(again)) == 1,
                         what="a second file")
        before = narrowed.stat().st_mtime_ns
        await type_keys(pilot, key_clock, "e")
        await wait_until(pilot, lambda: isinstance(pilot.app.screen, ConfirmDialog),
                         what="the question again")
        await type_keys(pilot, key_clock, "y")  # replace, as asked
        await wait_until(pilot, lambda: isinstance(pilot.app.screen, HistoryScreen),
                         what="back")
        await wait_until(pilot, lambda: narrowed.stat().st_mtime_ns != before
                         and len(rows_of(narrowed)) == 1, what="replaced")
        assert not (folder / f"payments-{day}-search-31000-3.csv").exists()
