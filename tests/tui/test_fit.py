"""What QA found at 80x24 (and 100 columns): text cut off, actions that do not apply, a lone
dash in the X report, and a fast burst of keys acting out of order. Checked on the rendered
screen (the lines a terminal shows), not only in snapshots."""

from __future__ import annotations

import re
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

import pytest
from textual import events
from textual.pilot import Pilot
from textual.widgets import DataTable, Input

from pos_terminal.base.money import format_vnd
from pos_terminal.config import Settings
from pos_terminal.tui.screens.history import PaymentDetailScreen
from pos_terminal.tui.screens.reports import ReportsScreen
from tests.tui.conftest import KeyClock
from tests.tui.helpers import (
    make_key,
    screen_lines,
    send_key,
    text_of,
    wait_for_footer,
    wait_until,
)
from tests.tui.scenes import SCENES, scene_app

pytestmark = pytest.mark.asyncio

FAILED_ID = "261121_counter1_0934c"      # rows of scenes.fixed_journal
SUCCEEDED_ID = "261121_counter1_0921b"
PROCESSING_ID = "261121_counter1_0948d"


def squash(text: str) -> str:
    return re.sub(r"\s+", " ", text).strip()


@asynccontextmanager
async def scene_pilot(settings: Settings, tmp_path: Path, width: int = 80,
                      height: int = 24) -> AsyncIterator[Pilot]:
    """The scenes' app (over scenes.fixed_journal) running at width x height; its checkout
    closed after."""
    app = scene_app(settings, tmp_path / "journal.sqlite3")
    try:
        async with app.run_test(size=(width, height)) as pilot:
            yield pilot
    finally:
        app.counter.checkout.close()


async def open_detail(pilot: Pilot, app_trans_id: str) -> PaymentDetailScreen:
    await pilot.app.push_screen(PaymentDetailScreen(app_trans_id))
    await wait_until(pilot, lambda: isinstance(pilot.app.screen, PaymentDetailScreen)
                     and pilot.app.screen.view is not None, what="the payment detail")
    await pilot.pause()
    screen = pilot.app.screen
    assert isinstance(screen, PaymentDetailScreen)
    return screen


@pytest.mark.parametrize("language,quit_hint", [("en", "^q Quit"), ("vi", "^q Thoát")])
@pytest.mark.parametrize("scene", sorted(SCENES))
async def test_every_footer_shows_quit_at_80x24(settings: Settings, tmp_path: Path,
                                                scene: str, language: str,
                                                quit_hint: str) -> None:
    # wait_for_footer: every key hint of the screen is on the footer line, none cut off
    settings = settings.replace_section("terminal", language=language)
    async with scene_pilot(settings, tmp_path) as pilot:
        await SCENES[scene](pilot)
        footer = await wait_for_footer(pilot)
        assert quit_hint in footer, footer


async def test_banks_fit_80_columns(settings: Settings, tmp_path: Path) -> None:
    async with scene_pilot(settings, tmp_path) as pilot:
        await SCENES["banks"](pilot)
        table = pilot.app.screen.query_one("#banks-table", DataTable)
        assert table.row_count > 0
        assert table.virtual_size.width <= table.size.width  # nothing off to the right
        lines = screen_lines(pilot)
        header = next(line for line in lines if " Code " in line)
        assert squash(header) == "Ch Code Bank Min Max"
        shown = {squash(line) for line in lines}
        for i in range(min(table.row_count, 15)):  # the rows on screen, each one whole
            ch, code, bank, low, high = table.get_row_at(i)
            assert squash(f"{ch} {code} {bank} {low} {high}") in shown
            assert high.endswith(" ₫")
        state = text_of(pilot, "#banks-state")
        assert "38 Wallet" in state and "36 Visa/Master/JCB" in state


@pytest.mark.parametrize("width", [80, 100])
async def test_detail_timeline_shows_every_message_whole(settings: Settings, tmp_path: Path,
                                                         width: int) -> None:
    async with scene_pilot(settings, tmp_path, width=width) as pilot:
        screen = await open_detail(pilot, FAILED_ID)
        events = screen.pos.counter.history.events(FAILED_ID)
        lines = screen_lines(pilot)
        top = next(n for n, line in enumerate(lines) if "Detail" in line and "Time" in line)
        column = lines[top].index("Detail")
        detail = squash(" ".join(line[column:] for line in lines[top + 1:-1]))
        long_message = ("[2] The customer's wallet balance is too low: nothing was charged. "
                        "Ask for another payment method.")
        assert [e.message for e in events][-1] in long_message
        assert long_message in detail
        assert "Sending the payment." in detail


@pytest.mark.parametrize("app_trans_id,offered,not_offered", [
    (FAILED_ID, [], ["Refund", "Override"]),
    (SUCCEEDED_ID, ["f Refund"], ["Override"]),
    (PROCESSING_ID, ["o Override"], ["Refund"]),
])
async def test_detail_offers_only_the_actions_that_apply(
        settings: Settings, tmp_path: Path, app_trans_id: str, offered: list[str],
        not_offered: list[str]) -> None:
    async with scene_pilot(settings, tmp_path) as pilot:
        await open_detail(pilot, app_trans_id)
        footer = await wait_for_footer(pilot)
        assert "Update status" in footer and "Quit" in footer
        for label in offered:
            assert label in footer, footer
        for label in not_offered:
            assert label not in footer, footer
        if "Refund" in not_offered:
            stack = len(pilot.app.screen_stack)
            await pilot.press("f")  # handled by the time press() returns
            await pilot.pause()
            assert isinstance(pilot.app.screen, PaymentDetailScreen)  # no dialog
            assert len(pilot.app.screen_stack) == stack


async def test_x_report_on_a_fresh_day_says_no_payments_yet(make_app) -> None:
    async with make_app().run_test(size=(80, 24)) as pilot:
        await pilot.app.push_screen(ReportsScreen())
        await wait_until(pilot, lambda: "X report" in text_of(pilot, "#report-text"),
                         what="the X report")
        text = text_of(pilot, "#report-text")
        assert "No payments yet, as of" in text
        assert "from -" not in text and " - to " not in text
        assert "0 ₫" in text


START = "Enter: check the amount · Esc: cancel"


async def _refund_dialog_burst(pilot: Pilot, clock: KeyClock, keys: list[str]) -> Input:
    await pilot.press("f")
    await wait_until(pilot, lambda: bool(pilot.app.screen.query("#refund-amount")),
                     what="the refund dialog")
    field = pilot.app.screen.query_one("#refund-amount", Input)
    assert field.value == "125000"
    clock.next(0.2)
    # one tmux send-keys: every key a millisecond after the last
    for event in [make_key(key, at) for key, at in zip(keys, clock.burst(len(keys), 0.001),
                                                      strict=True)]:
        send_key(pilot, event)
    await wait_until(pilot, lambda: pilot.app.keys.quiet
                     and text_of(pilot, "#refund-message") != START, what="the burst handled")
    await pilot.pause(0.1)
    return field


async def test_a_fast_burst_with_backspaces_acts_in_the_order_sent(
        settings: Settings, tmp_path: Path, key_clock: KeyClock) -> None:
    async with scene_pilot(settings, tmp_path) as pilot:
        await open_detail(pilot, SUCCEEDED_ID)
        field = await _refund_dialog_burst(
            pilot, key_clock, ["backspace"] * 6 + ["9"] * 6 + ["enter"])
        assert field.value == "999999"
        assert text_of(pilot, "#refund-message") == (
            f"Type an amount between 1 ₫ and {format_vnd(125_000)}, then Enter.")
        await pilot.press("escape")
        await wait_until(pilot, lambda: isinstance(pilot.app.screen, PaymentDetailScreen),
                         what="back on the detail")
        field = await _refund_dialog_burst(
            pilot, key_clock, ["backspace"] * 6 + list("2000") + ["enter"])
        assert field.value == "2000"
        assert text_of(pilot, "#refund-message") == (
            "Refund 2.000 ₫ to the customer's wallet? Y: yes, refund · Esc: no")
        assert [n.message for n in pilot.app._notifications] == []


async def test_history_rows_fit_80_columns(settings: Settings, tmp_path: Path) -> None:
    async with scene_pilot(settings, tmp_path) as pilot:
        await SCENES["history"](pilot)
        table = pilot.app.screen.query_one("#history-table", DataTable)
        assert table.row_count == 4
        shown = {squash(line) for line in screen_lines(pilot)}
        notes = []
        for i in range(table.row_count):
            row = [str(cell) for cell in table.get_row_at(i)]
            assert squash(" ".join(row)) in shown  # every cell whole on screen
            notes.append(row[4])
        # A long note ends at a word with "…" (the detail shows all of it); the Order column
        # shows the id's unique tail at 80 columns, to leave the note room for the reason.
        assert "The customer's wallet balance is…" in notes and "lunch set" in notes


async def test_banks_rows_whole_when_the_table_measures_late(
        settings: Settings, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A busy machine: the table's Idle (where Textual measures new rows) comes only after the
    rows have been drawn a few times. They must not stay drawn with label-wide columns."""
    measure = DataTable._on_idle
    late_from: dict[int, float] = {}

    async def late_idle(table: DataTable, event: events.Idle) -> None:
        first = late_from.setdefault(id(table), time.monotonic())
        if time.monotonic() - first < 0.5:
            table.set_timer(0.1, table.refresh)  # drawn again meanwhile; Idle comes back
            return
        await measure(table, event)

    monkeypatch.setattr(DataTable, "_on_idle", late_idle)
    async with scene_pilot(settings, tmp_path) as pilot:
        await SCENES["banks"](pilot)
        table = pilot.app.screen.query_one("#banks-table", DataTable)
        shown = {squash(line) for line in screen_lines(pilot)}
        ch, code, bank, low, high = table.get_row_at(1)
        assert squash(f"{ch} {code} {bank} {low} {high}") in shown, shown


BORDERS = str.maketrans("", "", "█▊▎▌▐│┃▔▁▏▕")


@pytest.mark.parametrize("scene,selectors", [
    ("signin", ["#signin-title", "#signin-message"]),
    ("supervisor", ["#supervisor-message"]),
    ("result-receipt", ["#result-receipt", "#result-hint", "#result-headline"]),
])
async def test_cashier_and_receipt_screens_fit_80x24(settings: Settings, tmp_path: Path,
                                                      scene: str, selectors: list[str]) -> None:
    """Every line of the sign-in screen, the supervisor dialog and a receipt message is whole
    on an 80x24 screen (wrapped, never cut), and the footer still shows Quit."""
    async with scene_pilot(settings, tmp_path) as pilot:
        await SCENES[scene](pilot)
        footer = await wait_for_footer(pilot)
        assert "^q Quit" in footer, footer
        shown = squash(" ".join(line.translate(BORDERS) for line in screen_lines(pilot)))
        for selector in selectors:
            text = squash(text_of(pilot, selector))
            assert text and text in shown, (selector, text, shown)
