"""Issue 43, what a cashier met in the first hour (README, tmux 80x24): each screen says what
it does, in the reader's language, whole at 80 columns; checked on the real App (Pilot) as the
terminal draws it."""

from __future__ import annotations

import colorsys
import re
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from rich.segment import Segment
from textual.color import Color
from textual.pilot import Pilot
from textual.widgets import DataTable, Input

from hardware import SyntheticSource
from pos_terminal.base.i18n import _
from pos_terminal.checkout import Checkout, PaymentState
from pos_terminal.config import Settings
from pos_terminal.counter import Counter
from pos_terminal.counter.listeners import attach
from pos_terminal.journal import Journal
from pos_terminal.tui.app import PosApp
from pos_terminal.tui.demo import DEMO_WALLETS
from pos_terminal.tui.screens.dialogs import ConfirmDialog
from pos_terminal.tui.screens.history import HistoryScreen, _note, totals_line
from pos_terminal.tui.screens.pay import PayScreen
from pos_terminal.tui.screens.reports import ReportsScreen
from pos_terminal.tui.screens.result import ResultScreen
from pos_terminal.tui.screens.sale import SaleScreen
from pos_terminal.tui.screens.shift import ShiftDialog
from pos_terminal.tui.widgets.phrases import PhraseLine
from tests.conftest import fresh_code
from tests.receipts.test_receipts import Listener
from tests.tui import test_demo, test_two_wallets
from tests.tui.conftest import KeyClock
from tests.tui.helpers import (
    broken_inside_a_phrase,
    scan_burst,
    screen_lines,
    shown,
    text_of,
    type_keys,
    wait_for_footer,
    wait_for_phrases,
    wait_for_tables,
    wait_until,
    widget_lines,
)
from tests.tui.scenes import SCENES
from tests.tui.test_cashiers import book, on_sale, sign_in
from tests.tui.test_demo import demo_app
from tests.tui.test_fit import BORDERS, FAILED_ID, PROCESSING_ID, open_detail, scene_pilot
from tests.tui.test_flows import charge
from tests.tui.test_receipts_ui import paid_on_result, printer, with_printer

pytestmark = pytest.mark.asyncio
synthetic = test_demo.synthetic  # the demo's camera (a fixture)
printer_listener = printer  # a receipt printer on loopback (a fixture)
both_checkout = test_two_wallets.both_checkout  # a checkout taking ZaloPay and MoMo


def squash(text: str) -> str:
    return re.sub(r"\s+", " ", text).strip()


def drawn_background(pilot: Pilot, text: str) -> tuple[int, int, int]:
    """The background colour the terminal is sent for the first cell of `text` on screen: the
    screen's lines through the App's own line filters (its ANSI theme), as the driver writes
    them."""
    app = pilot.app
    background = Color.parse("black")
    for strip in app.screen._compositor.render_strips():
        for line_filter in app.get_line_filters():
            strip = strip.apply_filter(line_filter, background)
        segments: list[Segment] = list(strip)
        for segment in segments:
            if text in segment.text and segment.style and segment.style.bgcolor:
                triplet = segment.style.bgcolor.get_truecolor()
                return triplet.red, triplet.green, triplet.blue
    raise AssertionError(f"{text!r} is not on screen")


def hue_degrees(rgb: tuple[int, int, int]) -> float:
    hue, _light, _saturation = colorsys.rgb_to_hls(*(c / 255 for c in rgb))
    return hue * 360


async def test_the_emulator_badge_is_blue_as_the_readme_says(make_app) -> None:
    """README: "the header shows a blue EMULATOR badge"; Textual's own theme drew ansi_blue
    purple (157, 101, 255)."""
    async with make_app().run_test(size=(80, 24)) as pilot:
        await wait_until(pilot, lambda: bool(pilot.app.screen.query(".badge")), what="header")
        await pilot.pause()
        rgb = drawn_background(pilot, "EMULATOR")
        assert 200 <= hue_degrees(rgb) <= 230, rgb  # blue, not violet (~260) nor cyan (~180)


@pytest.mark.parametrize("language,hint,old", [
    ("en", "F9: the next customer", "F9 changes the wallet"),
    ("vi", "F9: đổi khách", "F9 đổi ví"),
])
async def test_f9_says_it_changes_the_customer(settings: Settings, checkout: Checkout,
                                               synthetic: SyntheticSource, emulator: object,
                                               key_clock: KeyClock, language: str, hint: str,
                                               old: str) -> None:
    """F9 cycles the demo's customers (some pay with the same wallet): the line says so, and at
    80 columns it breaks between phrases, never inside a word."""
    settings = settings.replace_section("terminal", language=language)
    app = demo_app(settings, checkout, synthetic, emulator, show_after_s=600)
    async with app.run_test(size=(80, 24)) as pilot:
        for _customer in DEMO_WALLETS:
            await pilot.pause()
            text = squash(" ".join(widget_lines(pilot, "#demo-wallet")))
            assert hint in text and old not in text, text
            assert broken_inside_a_phrase(widget_lines(pilot, "#demo-wallet")) == []
            await type_keys(pilot, key_clock, "f9")


async def test_a_slip_picture_path_never_breaks_inside_a_name(
        settings: Settings, make_app, key_clock: KeyClock, emulator: object, tmp_path: Path,
        printer: Listener) -> None:
    """The demo saves each printed slip as a picture and names it on the Result screen: a
    path longer than the line was folded mid-name. Shown short (relative, the middle left
    out), it sits on a line of its own, its file name whole."""
    folder = tmp_path / "the-counter-pictures-folder" / "of-the-shop-on-the-corner" / "slips"
    chosen = with_printer(settings, f"tcp:127.0.0.1:{printer.port}").replace_section(
        "printer", pictures=str(folder))
    async with make_app(settings=chosen).run_test(size=(80, 24)) as pilot:
        app_trans_id = await paid_on_result(pilot, key_clock, emulator)
        await type_keys(pilot, key_clock, "r")
        await wait_until(pilot, lambda: "its picture" in shown(pilot, "#result-receipt"),
                         what="the receipt printed")
        [picture] = folder.glob("*.png")
        assert app_trans_id in picture.name
        lines = [line.strip() for line in screen_lines(pilot)]
        at = next((n for n, line in enumerate(lines) if picture.name in line), None)
        assert at is not None, lines  # the name never cut across two lines
        path = lines[at].split(" ")[-1]  # the path whole on this line, its middle left out
        head, _sep, tail = path.partition("…/")
        assert str(picture).startswith(head) and str(picture).endswith(tail), path
        assert tail.endswith(f"/{picture.name}") and "/" not in lines[at - 1], lines[at - 1:]


def cut_between_words(note: str, whole: str) -> bool:
    """`note` is `whole`, or its beginning ended with "…" where `whole` has a space or a
    phrase's punctuation (a word never cut mid-way)."""
    if note == whole:
        return True
    head = note.removesuffix("…").rstrip()
    return (note.endswith("…") and whole.startswith(head)
            and whole[len(head):][:1] in (" ", ",", ".", ":", ";", "·"))


@pytest.mark.parametrize("language", ["vi", "en"])
async def test_history_of_two_wallets_at_80_columns_shows_whole_words(
        both_settings: Settings, both_checkout: Checkout, emulator: Any, language: str) -> None:
    """The demo's counter (ZaloPay and MoMo, so a Wallet column) at 80x24: the Note column
    was squeezed off the screen ("Ghi c", "thu n") and the totals line broke "thất / bại"."""
    chosen = both_settings.replace_section("terminal", language=language)
    counter = Counter(chosen, both_checkout)
    attach(counter)
    try:
        for amount, code in ((1_250_000, fresh_code(emulator, "an")),
                             (40_000, fresh_code(emulator, "dung")),
                             (2_300_000, emulator.control.momo_code("momo-paid")),
                             (50_000, emulator.control.momo_code("momo-poor"))):
            counter.payments.pay(amount, code, description="cà phê sữa đá và bánh mì thịt",
                                 cashier_id="lan")
        async with PosApp(chosen, counter, background=False).run_test(size=(80, 24)) as pilot:
            await pilot.app.push_screen(HistoryScreen())
            await wait_until(pilot, lambda: pilot.app.screen.query_one(
                "#history-table", DataTable).row_count == 4, what="the day's rows")
            await wait_for_tables(pilot)
            screen = pilot.app.screen
            assert isinstance(screen, HistoryScreen)
            table = screen.query_one("#history-table", DataTable)
            assert table.virtual_size.width <= table.size.width  # nothing off to the right
            lines = screen_lines(pilot)
            header = squash(lines[2])
            assert header.endswith(_("Note")) and _("Wallet") in header, header
            shown = {squash(line) for line in lines}
            for i, view in enumerate(screen.rows):
                row = [str(c) for c in table.get_row_at(i)]
                assert squash(" ".join(row)) in shown, (row, shown)  # every cell whole
                whole = _note(view, screen.refunds.get(view.app_trans_id, ()))
                assert cut_between_words(row[-1], whole), (row[-1], whole)
            totals = widget_lines(pilot, "#history-totals")
            assert squash(" ".join(totals)) == squash(totals_line(screen.rows))
            assert broken_inside_a_phrase(totals) == []
            assert broken_inside_a_phrase(widget_lines(pilot, "#history-filter")) == []
    finally:
        counter.close()


async def test_the_override_timeline_reads_in_vietnamese(settings: Settings,
                                                         tmp_path: Path) -> None:
    """README step 7: after an override the payment's timeline said `override: đang xử lý →
    thất bại`, the journal's own English word in a Vietnamese line."""
    vietnamese = settings.replace_section("terminal", language="vi")
    async with scene_pilot(vietnamese, tmp_path) as pilot:
        pilot.app.counter.payments.override(PROCESSING_ID, PaymentState.FAILED,
                                            "khách đổi ý, trả tiền mặt", "lan")
        await open_detail(pilot, PROCESSING_ID)
        timeline = squash(" ".join(widget_lines(pilot, "#timeline")))
        assert "ghi nhận tay:" in timeline and "đang xử lý → thất bại" in timeline, timeline
        assert "override" not in timeline.lower()
        assert "khách đổi ý, trả tiền mặt" in timeline


async def test_english_screens_write_a_day_one_way(settings: Settings, tmp_path: Path) -> None:
    """The English History said `Day 2026-11-21` above a detail that says `created
    21/11/2026`: one form of a date per language, the one the receipts print."""
    async with scene_pilot(settings, tmp_path) as pilot:
        await SCENES["history"](pilot)
        assert text_of(pilot, "#history-filter").startswith("Day 21/11/2026 (Vietnam time)")
        assert "2026-11-21" not in "\n".join(screen_lines(pilot))
        await open_detail(pilot, PROCESSING_ID)
        assert "created 21/11/2026" in text_of(pilot, "#detail-summary")


def result_text(pilot: Pilot) -> str:
    return squash(" ".join(line.translate(BORDERS) for line in screen_lines(pilot)))


async def test_t_after_not_paid_is_a_new_order_and_says_so(settings: Settings, make_app,
                                                           key_clock: KeyClock, emulator: Any,
                                                           checkout: Checkout) -> None:
    """T said `thanh toán lại (cùng đơn)` ("same order") and made a new order id, which is
    what is right for money (a declined order is over): the words now say a new order. The
    Result names the wallet charged."""
    vietnamese = settings.replace_section("terminal", language="vi")
    async with make_app(settings=vietnamese).run_test(size=(80, 24)) as pilot:
        await charge(pilot, key_clock, emulator, "40000", "dung")  # balance too low
        await wait_until(pilot, lambda: isinstance(pilot.app.screen, ResultScreen)
                         and "Ví: ZaloPay" in result_text(pilot), what="NOT PAID")
        shown_now = result_text(pilot)
        assert "T: thanh toán lại (đơn mới)" in shown_now, shown_now
        assert "cùng đơn" not in shown_now
        assert broken_inside_a_phrase(widget_lines(pilot, "#result-hint")) == []
        await type_keys(pilot, key_clock, "t")
        await wait_until(pilot, lambda: isinstance(pilot.app.screen, PayScreen), what="Pay")
        await scan_burst(pilot, key_clock, fresh_code(emulator, "an"))
        await wait_until(pilot, lambda: isinstance(pilot.app.screen, ResultScreen)
                         and pilot.app.screen.outcome.success, what="PAID")
        await wait_until(pilot, lambda: "Ví: ZaloPay" in result_text(pilot), what="the wallet")
    declined, paid = checkout.journal.list_payments()
    assert (declined.state, paid.state) == (PaymentState.FAILED, PaymentState.SUCCEEDED)
    assert declined.amount == paid.amount == 40_000
    assert declined.app_trans_id != paid.app_trans_id  # a new order, as T says


async def test_a_momo_result_names_momo(both_settings: Settings, both_checkout: Checkout,
                                        key_clock: KeyClock, emulator: Any) -> None:
    counter = Counter(both_settings, both_checkout)
    attach(counter)
    try:
        async with PosApp(both_settings, counter, background=False).run_test(
                size=(80, 24)) as pilot:
            await type_keys(pilot, key_clock, *"45000", "enter")
            await wait_until(pilot, lambda: isinstance(pilot.app.screen, PayScreen),
                             what="Pay")
            await scan_burst(pilot, key_clock, emulator.control.momo_code("momo-paid"))
            await wait_until(pilot, lambda: isinstance(pilot.app.screen, ResultScreen)
                             and "Wallet: MoMo wallet" in result_text(pilot),
                             what="the MoMo result naming its wallet")
    finally:
        counter.close()


@contextmanager
def journal_busy(journal: Journal) -> Iterator[None]:
    """Another writer holds the journal (a bulk import, `Journal.bulk`) until the block ends:
    a Z report asked for meanwhile waits for it, as on a busy journal."""
    held, release = threading.Event(), threading.Event()

    def write() -> None:
        with journal.bulk():
            held.set()
            release.wait(60)  # never forever, even when the test fails before its end

    writer = threading.Thread(target=write, name="another writer")
    writer.start()
    try:
        assert held.wait(30), "the journal was never held"
        yield
    finally:
        release.set()
        writer.join(30)


async def to_the_z_question(pilot: Pilot, clock: KeyClock, emulator: Any) -> None:
    """A sale paid, then Reports (F3) and Z: the question whether to close the day is up."""
    await charge(pilot, clock, emulator, "25000", "an")
    await wait_until(pilot, lambda: isinstance(pilot.app.screen, ResultScreen), what="paid")
    await type_keys(pilot, clock, "enter", "f3")
    await wait_until(pilot, lambda: "X report" in shown(pilot, "#report-text"), what="X")
    await type_keys(pilot, clock, "z")
    await wait_until(pilot, lambda: isinstance(pilot.app.screen, ConfirmDialog),
                     what="the Z question")


async def z_under_way(pilot: Pilot, clock: KeyClock) -> ReportsScreen:
    """Y: the Z report is being made (the journal held: it waits), and the screen says so."""
    await type_keys(pilot, clock, "y")
    await wait_until(pilot, lambda: isinstance(pilot.app.screen, ReportsScreen)
                     and shown(pilot, "#reports-state") == (
                         "Closing the day: making the Z report…"), what="the Z under way")
    screen = pilot.app.screen
    assert isinstance(screen, ReportsScreen) and screen.query_one("#report").loading
    return screen


async def test_the_z_report_says_it_is_working_and_keys_wait(
        make_app, key_clock: KeyClock, emulator: Any, checkout: Checkout) -> None:
    """Y to close the day, then nothing for seconds: the screen says at once that the Z report
    is being made, and X, Z, P, L, Esc and F8 do nothing until it is there (a second Z would
    have closed an empty day)."""
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await to_the_z_question(pilot, key_clock, emulator)
        with journal_busy(checkout.journal):
            screen = await z_under_way(pilot, key_clock)
            await type_keys(pilot, key_clock, "x", "z", "p", "l", "escape", "f8")
            assert pilot.app.screen is screen  # no question, no list, not left, not redrawn
            assert shown(pilot, "#reports-state") == "Closing the day: making the Z report…"
            assert "Back" not in await wait_for_footer(pilot)
        await wait_until(pilot, lambda: "Z report #1" in shown(pilot, "#report-text"),
                         what="the Z report")
        assert not screen.query_one("#report").loading
        await type_keys(pilot, key_clock, "escape")
        await wait_until(pilot, lambda: isinstance(pilot.app.screen, SaleScreen), what="sale")
    assert [z.number for z in app.counter.reports.closed_days()] == [1]


@pytest.mark.parametrize("signed_in", [True, False], ids=["signed-in", "no-cashiers"])
async def test_f12_and_ctrl_q_wait_while_the_z_report_is_made(
        make_app, key_clock: KeyClock, emulator: Any, checkout: Checkout,
        signed_in: bool) -> None:
    """The other keys wait while the Z is made; F12 and Ctrl+Q did not. F12 asked to close the
    shift over the Z on its way, and Ctrl+Q closed the terminal at once without cashiers: the Z
    was then shown nowhere (and a cashier who saw none would close the day again). They wait
    too, and the screen says why."""
    if signed_in:
        book(checkout).add("lan", "Lan Nguyen", "2468")
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        if signed_in:
            await sign_in(pilot, key_clock, "lan", "2468")
            await on_sale(pilot)
        await to_the_z_question(pilot, key_clock, emulator)
        with journal_busy(checkout.journal):
            screen = await z_under_way(pilot, key_clock)
            for key in ("f12", "ctrl+q"):
                await type_keys(pilot, key_clock, key)
                assert pilot.app.is_running and pilot.app.screen is screen, key
                await wait_for_phrases(pilot)
                lines = widget_lines(pilot, "#reports-state")
                assert squash(" ".join(lines)) == (
                    "Closing the day: making the Z report… F12 and Ctrl+Q wait: press them "
                    "again once the Z report is shown."), lines
                assert broken_inside_a_phrase(lines) == []
            assert screen.query_one("#report").loading  # the Z still on its way
        await wait_until(pilot, lambda: "Z report #1" in shown(pilot, "#report-text"),
                         what="the Z report")
        if signed_in:  # the Z shown: F12 acts again
            await type_keys(pilot, key_clock, "f12")
            await wait_until(pilot, lambda: isinstance(pilot.app.screen, ShiftDialog),
                             what="the shift's question")
            await type_keys(pilot, key_clock, "n")
    assert [z.number for z in app.counter.reports.closed_days()] == [1]


async def test_a_fast_burst_typed_into_the_override_reason_is_typing(
        settings: Settings, tmp_path: Path, key_clock: KeyClock) -> None:
    """README step 7 with a fast typist (or a pasted reason): the burst ending in Enter was
    taken for a scanner's read, dropped, and "Scanner read … was ignored" shown. No code is
    expected in the override dialog: the reason is the cashier's, and the override recorded."""
    reason = "portal says declined, customer paid cash"
    async with scene_pilot(settings, tmp_path) as pilot:
        await open_detail(pilot, PROCESSING_ID)
        await type_keys(pilot, key_clock, "o", "ctrl+f")
        await wait_until(pilot, lambda: bool(pilot.app.screen.query("#override-reason")),
                         what="the override dialog")
        await scan_burst(pilot, key_clock, reason)  # every key 4 ms apart, then Enter
        journal = pilot.app.counter.checkout.journal
        await wait_until(pilot, lambda: journal.get(PROCESSING_ID).state is PaymentState.FAILED,
                         what="the override recorded")
        assert [e.reason for e in journal.events(PROCESSING_ID) if e.kind == "override"] == [
            reason]
        assert not [n.message for n in pilot.app._notifications
                    if "Scanner read" in n.message]


async def test_a_payment_code_burst_still_never_lands_in_a_text_field(
        settings: Settings, tmp_path: Path, key_clock: KeyClock) -> None:
    """Where no code is expected a payment code read by the scanner is still a read: it never
    becomes a journaled reason."""
    async with scene_pilot(settings, tmp_path) as pilot:
        await open_detail(pilot, PROCESSING_ID)
        await type_keys(pilot, key_clock, "o", "ctrl+f")
        await wait_until(pilot, lambda: bool(pilot.app.screen.query("#override-reason")),
                         what="the override dialog")
        await scan_burst(pilot, key_clock, "812345678901234567")
        field = pilot.app.screen.query_one("#override-reason", Input)
        assert field.value == ""
        assert pilot.app.counter.checkout.journal.get(PROCESSING_ID).state is (
            PaymentState.PROCESSING)


@pytest.mark.parametrize("scene,selectors", [
    ("reports", ["#reports-state"]),
    ("history", ["#history-filter", "#history-totals"]),
    ("result-failure", ["#result-hint", ".result-line"]),
])
async def test_vietnamese_lines_break_between_phrases_at_80_columns(
        settings: Settings, tmp_path: Path, scene: str, selectors: list[str]) -> None:
    """`… L: ngày / đã chốt`: a line broken at any space cuts a Vietnamese word in two."""
    async with scene_pilot(settings.replace_section("terminal", language="vi"),
                           tmp_path) as pilot:
        await SCENES[scene](pilot)
        await pilot.pause()
        for selector in selectors:
            for widget in pilot.app.screen.query(selector):
                lines = widget_lines(pilot, f"#{widget.id}") if widget.id else [
                    line.strip() for line in str(widget.render()).split("\n")]
                assert broken_inside_a_phrase(lines) == [], (selector, lines)


async def test_the_payment_detail_breaks_vietnamese_between_phrases(settings: Settings,
                                                                    tmp_path: Path) -> None:
    """The detail's reason and its timeline wrapped at any space: `… bằng hình / thức khác.`"""
    async with scene_pilot(settings.replace_section("terminal", language="vi"),
                           tmp_path) as pilot:
        await open_detail(pilot, FAILED_ID)
        summary = pilot.app.screen.query_one("#detail-summary", PhraseLine)
        whole_lines = {line.strip() for line in summary.text.split("\n")}
        assert [pair for pair in broken_inside_a_phrase(widget_lines(pilot, "#detail-summary"))
                if pair[0] not in whole_lines] == []  # only its own lines' ends, or phrases'
        lines = screen_lines(pilot)
        top = next(n for n, line in enumerate(lines) if "Chi tiết" in line)
        column = lines[top].index("Chi tiết")
        detail = [line[column:].strip() for line in lines[top + 1:-1]]
        last = [line for line in detail if line][-3:]  # the declined step's message
        assert squash(" ".join(last)).endswith("bằng hình thức khác."), last
        assert broken_inside_a_phrase(last) == [], last
