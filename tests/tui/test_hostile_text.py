"""Text from the service and from the cashier is shown literally: Rich markup in item names,
the description or the service's message never crashes a screen nor styles it, and terminal
escape sequences from the service never reach the screen or the CSV export."""

from __future__ import annotations

import pytest
import requests
from textual.content import Content
from textual.widgets import DataTable, Static

from pos_terminal.checkout import Checkout, PaymentState
from pos_terminal.config import Settings
from pos_terminal.emulator.faults import HOSTILE_TEXT
from pos_terminal.tui.screens.history import HistoryScreen, PaymentDetailScreen
from pos_terminal.tui.screens.pay import PayScreen
from pos_terminal.tui.screens.result import ResultScreen
from pos_terminal.tui.screens.sale import SaleScreen
from pos_terminal.tui.widgets.amount import AmountField
from tests.tui.helpers import scan_burst, screen_lines, text_of, type_keys, wait_until

pytestmark = pytest.mark.asyncio

ITEM = "[/]Tea[bold"
DESCRIPTION = "=SUM(A1)[/][red"
SHOWN_SERVICE_TEXT = "[bold]Ví [/] hết tiền [/] RED [link=x]click =SUM(A1)"


def _hostile(emulator: object, count: int = 1) -> None:
    requests.post(f"{emulator.base_url}/_emulator/faults", timeout=5, json={
        "endpoint": "quick_pay", "mode": "hostile_text", "count": count}).raise_for_status()


def _screen(pilot) -> str:  # type: ignore[no-untyped-def]
    return "\n".join(screen_lines(pilot))


async def test_markup_and_escapes_are_shown_literally_everywhere(
        make_app, key_clock, emulator, checkout: Checkout, settings: Settings) -> None:
    assert "\x1b" in HOSTILE_TEXT and "[/]" in HOSTILE_TEXT
    async with make_app().run_test(size=(120, 40)) as pilot:
        # an item and a description full of markup, paid by a wallet whose answer is hostile
        await type_keys(pilot, key_clock, "f6", *ITEM, "tab", *"50000", "enter")
        assert ITEM in _screen(pilot)  # the item list shows the name as typed
        pilot.app.screen.query_one("#description").focus()
        await type_keys(pilot, key_clock, *DESCRIPTION)
        _hostile(emulator)
        await type_keys(pilot, key_clock, "enter")
        await wait_until(pilot, lambda: isinstance(pilot.app.screen, PayScreen), what="Pay")
        # a code the service does not know: its -401 answer's text is shown to the cashier
        await scan_burst(pilot, key_clock, "123456789012345678")
        await wait_until(pilot, lambda: isinstance(pilot.app.screen, ResultScreen), what="result")
        result = "\n".join(str(w.render()) for w in pilot.app.screen.query(Static))
        assert f"(Service: {SHOWN_SERVICE_TEXT})" in result
        assert "\x1b" not in _screen(pilot)
        await type_keys(pilot, key_clock, "space")
        await wait_until(pilot, lambda: isinstance(pilot.app.screen, SaleScreen), what="sale")

        [row] = checkout.journal.list_payments()
        assert row.state is PaymentState.FAILED
        assert row.service_message == SHOWN_SERVICE_TEXT  # stripped before the journal
        assert f"(Service: {SHOWN_SERVICE_TEXT})" in row.message
        assert row.description == DESCRIPTION

        await type_keys(pilot, key_clock, "f2")
        assert isinstance(pilot.app.screen, HistoryScreen)
        history = pilot.app.screen.query_one("#history-table", DataTable)
        await wait_until(pilot, lambda: history.row_count == 1, what="the row")
        screen = _screen(pilot)
        assert "\x1b" not in screen

        await type_keys(pilot, key_clock, "e")
        export = settings.terminal.journal.parent / f"payments-{pilot.app.screen.day}.csv"
        await wait_until(pilot, export.exists, what="the CSV export")
        data = export.read_bytes()
        assert b"\x1b" not in data and b"\x07" not in data
        assert b"'=SUM(A1)[/][red" in data  # a formula is neutralised, the text kept

        await type_keys(pilot, key_clock, "enter")
        await wait_until(pilot, lambda: isinstance(pilot.app.screen, PaymentDetailScreen)
                         and pilot.app.screen.view is not None, what="detail")
        await pilot.pause()
        detail = _screen(pilot)
        assert "\x1b" not in detail
        summary = text_of(pilot, "#detail-summary")
        assert f"description: {DESCRIPTION}" in summary
        assert f"(Service: {SHOWN_SERVICE_TEXT})" in summary
        assert pilot.app.is_running


async def test_a_digit_of_another_script_is_refused_in_the_amount(make_app, key_clock) -> None:
    async with make_app().run_test(size=(80, 24)) as pilot:
        await type_keys(pilot, key_clock, "5", "١", "１", "0")
        assert pilot.app.screen.query_one(AmountField).amount == 50
        assert text_of(pilot, "#sale-message").startswith(
            "Only the digits 0-9 make an amount (U+FF11 is a digit of another script)")


async def test_a_scan_with_markup_is_reported_literally(make_app, key_clock) -> None:
    """A QR code can hold anything: a burst that is not a payment code is named in a notice,
    which must not read it as markup."""
    async with make_app().run_test(size=(80, 24)) as pilot:
        await scan_burst(pilot, key_clock, "abcdefgh12[/]")
        await wait_until(pilot, lambda: bool(pilot.app._notifications), what="a notice")
        # what the toast shows, rendered as Textual's Toast renders it
        shown = [(Content.from_markup(n.message) if n.markup else Content(n.message)).plain
                 for n in pilot.app._notifications]
        assert any("Scanner read ••••2[/] (13 characters) was ignored" in t for t in shown)
        assert pilot.app.is_running
