"""Every screen flow of the cashier's UI, driven by keys through Pilot, against the in-process
emulator with a real Checkout and journal. Outcomes are checked on screen, in the journal and in
the emulator's ledger."""

from __future__ import annotations

import codecs
import csv
import re
import stat

import pytest
import requests
from textual.widgets import DataTable, Input

from pos_terminal.checkout import Checkout, PaymentState
from pos_terminal.config import Settings
from pos_terminal.tui.screens.dialogs import ConfirmDialog
from pos_terminal.tui.screens.history import HistoryScreen, PaymentDetailScreen
from pos_terminal.tui.screens.pay import PayScreen
from pos_terminal.tui.screens.progress import ProgressScreen
from pos_terminal.tui.screens.result import ResultScreen
from pos_terminal.tui.screens.sale import SaleScreen
from pos_terminal.tui.widgets.amount import AmountField
from pos_terminal.wallets.zalopay.returncodes import describe
from tests.conftest import ProcessingHold, fresh_code
from tests.tui.conftest import KeyClock, ledger
from tests.tui.helpers import (
    scan_burst,
    screen_lines,
    screen_text,
    text_of,
    type_keys,
    wait_until,
)
from tests.tui.own_checkout import app_on_own_checkout, polling

pytestmark = pytest.mark.asyncio


async def charge(pilot, clock: KeyClock, emulator, amount: str, wallet: str) -> None:
    await type_keys(pilot, clock, *amount, "enter")
    await wait_until(pilot, lambda: isinstance(pilot.app.screen, PayScreen), what="Pay screen")
    await scan_burst(pilot, clock, fresh_code(emulator, wallet))


def choice_shown(pilot) -> bool:
    screen = pilot.app.screen
    if not (isinstance(screen, ProgressScreen) and screen.awaiting_choice and screen.is_mounted):
        return False
    return text_of(pilot, "#progress-choice") == (
        "W  keep waiting      B  give up (checked in the background)")


async def charge_past_the_deadline(pilot, clock: KeyClock, emulator, wallet: str) -> None:
    """Charge 30.000 ₫ from a wallet whose payment is held processing, until the progress
    screen offers the choice of waiting or giving up."""
    await charge(pilot, clock, emulator, "30000", wallet)
    await wait_until(pilot, lambda: choice_shown(pilot), what="the deadline choice")


async def charge_held_processing(pilot, clock: KeyClock, emulator, wallet: str) -> str:
    """Charge 30.000 ₫ from a wallet whose payment is held processing, until the progress
    screen follows it processing; its app_trans_id."""
    await charge(pilot, clock, emulator, "30000", wallet)
    await wait_until(pilot, lambda: isinstance(pilot.app.screen, ProgressScreen)
                     and pilot.app.payment is not None and pilot.app.payment.view is not None
                     and pilot.app.payment.view.state is PaymentState.PROCESSING,
                     what="the payment processing")
    return str(pilot.app.payment.view.app_trans_id)


async def ask_to_quit(pilot, what: str = "the question") -> None:
    """Ctrl+Q, until the question whether to close is on screen."""
    await pilot.press("ctrl+q")
    await wait_until(pilot, lambda: isinstance(pilot.app.screen, ConfirmDialog), what=what)


async def test_amount_is_shown_as_vnd_while_typed(make_app, key_clock) -> None:
    async with make_app().run_test(size=(80, 24)) as pilot:
        await type_keys(pilot, key_clock, "5", "0", "0", "0", "0")
        field = pilot.app.screen.query_one(AmountField)
        assert str(field.render()) == "50.000 ₫"
        await type_keys(pilot, key_clock, "backspace")
        assert str(field.render()) == "5.000 ₫"
        await type_keys(pilot, key_clock, "delete")
        assert field.amount == 0


async def test_amount_limits_are_checked_before_any_scan(settings: Settings, checkout: Checkout,
                                                         make_app, key_clock, emulator) -> None:
    limited = settings.replace_section("checkout", min_amount=1000, max_amount=2_000_000)
    async with make_app(settings=limited).run_test(size=(80, 24)) as pilot:
        await type_keys(pilot, key_clock, "5", "0", "0", "enter")
        assert isinstance(pilot.app.screen, SaleScreen)
        assert text_of(pilot, "#sale-message") == (
            "The amount 500 ₫ is too small: the minimum is 1.000 ₫.")
        await type_keys(pilot, key_clock, "delete", *"3000000", "enter")
        assert isinstance(pilot.app.screen, SaleScreen)
        assert text_of(pilot, "#sale-message") == (
            "The amount 3.000.000 ₫ is above the maximum of 2.000.000 ₫ for one payment.")
        await type_keys(pilot, key_clock, "delete", "enter")
        assert text_of(pilot, "#sale-message") == (
            "No amount was given: type it in VND, e.g. 50000 or 50.000 đ.")
    assert ledger(emulator)["charges"] == []


async def test_full_payment_by_keyboard_and_scanner(make_app, key_clock, emulator,
                                                    checkout: Checkout) -> None:
    async with make_app().run_test(size=(80, 24)) as pilot:
        await type_keys(pilot, key_clock, "tab", *"lunch", "shift+tab")
        await charge(pilot, key_clock, emulator, "50000", "an")
        await wait_until(pilot, lambda: isinstance(pilot.app.screen, ResultScreen), what="result")
        screen = pilot.app.screen
        assert screen.outcome.success
        charges = ledger(emulator)["charges"]
        assert [(c["wallet"], c["amount"], c["state"]) for c in charges] == [
            ("an", 50000, "succeeded")]
        text = screen_text(pilot)
        assert "PAID" in text and "50.000 ₫" in text
        assert f"Transaction: {charges[0]['zp_trans_id']}" in text
        row = checkout.journal.get(charges[0]["app_trans_id"])
        assert (row.state, row.amount, row.description) == (PaymentState.SUCCEEDED, 50000, "lunch")
        await type_keys(pilot, key_clock, "space")  # any key: next sale, cleared
        await wait_until(pilot, lambda: isinstance(pilot.app.screen, SaleScreen), what="sale")
        assert pilot.app.screen.query_one(AmountField).amount == 0
        assert pilot.app.screen.query_one("#description", Input).value == ""


async def test_processing_shows_progress_then_paid(make_app, key_clock, emulator,
                                                   checkout: Checkout,
                                                   hold_processing: ProcessingHold) -> None:
    async with make_app().run_test(size=(80, 24)) as pilot:
        await charge(pilot, key_clock, emulator, "120000", "binh")
        await wait_until(pilot, lambda: isinstance(pilot.app.screen, ProgressScreen)
                         and "Processing" in text_of(pilot, "#progress-state")
                         and "checked" in text_of(pilot, "#progress-elapsed"),
                         what="processing on the progress screen, with its status queries")
        hold_processing.release()
        await wait_until(pilot, lambda: isinstance(pilot.app.screen, ResultScreen), what="result")
        assert pilot.app.screen.outcome.success
        [charge_row] = ledger(emulator)["charges"]
        view = checkout.journal.get(charge_row["app_trans_id"])
        assert view.state is PaymentState.SUCCEEDED and view.polls >= 1


async def test_declined_payment_shows_the_cashier_sentence(make_app, key_clock, emulator,
                                                           checkout: Checkout) -> None:
    async with make_app().run_test(size=(80, 24)) as pilot:
        await charge(pilot, key_clock, emulator, "70000", "dung")
        await wait_until(pilot, lambda: isinstance(pilot.app.screen, ResultScreen), what="result")
        outcome = pilot.app.screen.outcome
        assert not outcome.success and outcome.headline == "NOT PAID"
        [row] = checkout.journal.list_payments()
        assert row.state is PaymentState.FAILED and row.return_code is not None
        assert outcome.lines[0] == row.message
        assert row.why == describe(-63) and row.message == str(describe(-63))


async def test_slow_payment_after_deadline_keep_waiting(settings: Settings, emulator, key_clock,
                                                        make_app,
                                                        hold_processing: ProcessingHold) -> None:
    with app_on_own_checkout(make_app, polling(settings, 0.2)) as (app, _engine):
        async with app.run_test(size=(80, 24)) as pilot:
            await charge_past_the_deadline(pilot, key_clock, emulator, "binh")
            hold_processing.release()
            presses = 0
            while not isinstance(pilot.app.screen, ResultScreen):
                if getattr(pilot.app.screen, "awaiting_choice", False):
                    presses += 1
                    assert presses < 50, "never resolved"
                    await type_keys(pilot, key_clock, "w")
                await pilot.pause(0.05)
            assert pilot.app.screen.outcome.success


async def test_slow_payment_handed_to_background_reconciliation(
        settings: Settings, emulator, key_clock, make_app,
        hold_processing: ProcessingHold) -> None:
    # Issue 14: giving up (B) says "pay another way" only because a late charge is returned
    # automatically, and says so; the Result stays until Enter; the late charge is returned.
    with app_on_own_checkout(make_app, polling(settings, 0.2)) as (app, engine):
        async with app.run_test(size=(80, 24)) as pilot:
            await charge_past_the_deadline(pilot, key_clock, emulator, "binh")
            await type_keys(pilot, key_clock, "b")
            await wait_until(pilot, lambda: isinstance(pilot.app.screen, ResultScreen),
                             what="the result of giving up")
            outcome = pilot.app.screen.outcome
            assert outcome.headline == "GAVE UP WAITING: OUTCOME UNKNOWN"
            assert outcome.lines[0] == (
                "Outcome still unknown: ask the customer to pay another way. The terminal keeps "
                "checking this payment; if the wallet charges it after all, the charge is "
                "returned to the customer automatically.")
            [row] = engine.journal.list_payments()
            assert row.abandoned
            await type_keys(pilot, key_clock, "enter")
            await wait_until(pilot, lambda: isinstance(pilot.app.screen, SaleScreen), what="sale")
            await wait_until(pilot, lambda: pilot.app.header_state["pending"] == 1,
                             what="pending count 1")
            assert "1 to reconcile" in screen_text(pilot)
            hold_processing.release()
            await wait_until(pilot, lambda: engine.reconcile().still_open == 0, what="resolved")

            def returned() -> bool:
                engine.reconcile()
                return engine.journal.get(row.app_trans_id).state is PaymentState.REFUNDED
            await wait_until(pilot, returned, what="the late charge returned")
            pilot.app.reconcile_in_background()
            await wait_until(pilot, lambda: pilot.app.header_state["pending"] == 0,
                             what="pending count back to 0")
            await type_keys(pilot, key_clock, "f2")
            await wait_until(pilot, lambda: isinstance(pilot.app.screen, HistoryScreen)
                             and pilot.app.screen.query_one(DataTable).row_count == 1,
                             what="history")
            note = str(pilot.app.screen.query_one(DataTable).get_row_at(0)[4])
            assert note.startswith("charged late, returned")
    assert len([r for r in ledger(emulator)["refunds"]
                if r["app_trans_id"] == row.app_trans_id]) == 1


async def test_escape_cancels_before_a_code_is_read(make_app, key_clock, emulator) -> None:
    async with make_app().run_test(size=(80, 24)) as pilot:
        await type_keys(pilot, key_clock, *"45000", "enter")
        assert isinstance(pilot.app.screen, PayScreen)
        assert "Scan the customer's payment code" in screen_text(pilot)
        assert "USB scanner ready" in text_of(pilot, "#scanner-state")
        await type_keys(pilot, key_clock, "escape")
        assert isinstance(pilot.app.screen, SaleScreen)
        assert pilot.app.screen.query_one(AmountField).amount == 45000
    assert ledger(emulator)["charges"] == []


async def test_items_total_becomes_the_amount(make_app, key_clock, emulator,
                                              checkout: Checkout) -> None:
    async with make_app().run_test(size=(80, 24)) as pilot:
        await type_keys(pilot, key_clock, "f6", *"tea", "tab", *"15000", "tab", "backspace",
                        "2", "enter")
        await type_keys(pilot, key_clock, *"cake", "tab", *"20000", "enter")
        amount = pilot.app.screen.query_one(AmountField)
        assert amount.amount == 2 * 15000 + 20000 and amount.locked
        table = pilot.app.screen.query_one("#items", DataTable)
        assert [table.get_row_at(i) for i in range(table.row_count)] == [
            ["tea", "15.000 ₫", "2", "30.000 ₫"], ["cake", "20.000 ₫", "1", "20.000 ₫"]]
        pilot.app.screen.query_one("#description", Input).focus()
        await type_keys(pilot, key_clock, "enter")
        assert isinstance(pilot.app.screen, PayScreen)
        await scan_burst(pilot, key_clock, fresh_code(emulator, "an"))
        await wait_until(pilot, lambda: isinstance(pilot.app.screen, ResultScreen), what="result")
    [row] = checkout.journal.list_payments()
    assert row.amount == 50000
    assert [(i["itemname"], i["itemprice"], i["itemquantity"]) for i in
            __import__("json").loads(row.items_json)] == [("tea", 15000, 2), ("cake", 20000, 1)]


async def test_history_detail_refund_and_export(make_app, key_clock, emulator,
                                                checkout: Checkout, settings: Settings) -> None:
    async with make_app().run_test(size=(120, 40)) as pilot:
        await charge(pilot, key_clock, emulator, "50000", "an")
        await wait_until(pilot, lambda: isinstance(pilot.app.screen, ResultScreen), what="result")
        await type_keys(pilot, key_clock, "space")
        await type_keys(pilot, key_clock, "f2")
        assert isinstance(pilot.app.screen, HistoryScreen)
        table = pilot.app.screen.query_one("#history-table", DataTable)
        await wait_until(pilot, lambda: table.row_count == 1, what="one journal row")
        [row] = checkout.journal.list_payments()
        assert table.get_row_at(0)[1:4] == [row.app_trans_id, "50.000 ₫", "succeeded"]

        await type_keys(pilot, key_clock, "e")
        export = settings.terminal.journal.parent / f"payments-{pilot.app.screen.day}.csv"
        await wait_until(pilot, export.exists, what="the CSV export")
        assert export.read_bytes().startswith(codecs.BOM_UTF8)  # Excel on Windows: UTF-8
        with export.open(encoding="utf-8-sig") as f:
            rows = list(csv.DictReader(f))
        assert [(r["Order"], r["Amount (VND)"], r["State"]) for r in rows] == [
            (row.app_trans_id, "50000", "succeeded")]
        refunds = export.with_name(f"refunds-{pilot.app.screen.day}.csv")
        await wait_until(pilot, refunds.exists, what="the refunds CSV")
        # payments on disk: for the terminal's own user only, whatever the umask
        assert [stat.S_IMODE(p.stat().st_mode) for p in (export, refunds)] == [0o600, 0o600]
        export.unlink()
        refunds.unlink()  # (a file already there is asked about first: test_export_names.py)
        await type_keys(pilot, key_clock, "f8", "e")  # in Vietnamese: its headers too
        await wait_until(pilot, export.exists, what="the CSV export in Vietnamese")
        await wait_until(pilot, lambda: "Mã đơn" in export.read_text(encoding="utf-8-sig"),
                         what="the whole file")
        with export.open(encoding="utf-8-sig") as f:
            rows = list(csv.DictReader(f))
        assert [(r["Mã đơn"], r["Số tiền (VND)"], r["Thu ngân"]) for r in rows] == [
            (row.app_trans_id, "50000", "")]
        await type_keys(pilot, key_clock, "f8")

        await type_keys(pilot, key_clock, "enter")
        await wait_until(pilot, lambda: isinstance(pilot.app.screen, PaymentDetailScreen)
                         and pilot.app.screen.view is not None, what="detail")
        await pilot.pause()
        timeline = "\n".join(screen_lines(pilot))
        assert "new → submitting" in timeline and "submitting → succeeded" in timeline
        await type_keys(pilot, key_clock, "f")
        refund_field = pilot.app.screen.query_one("#refund-amount", Input)
        assert refund_field.value == "50000"
        await type_keys(pilot, key_clock, *["backspace"] * 5, *"20000", "enter", "y")
        await wait_until(pilot, lambda: checkout.journal.get(row.app_trans_id).refunded_amount
                         == 20000, what="the refund in the journal")
        await wait_until(pilot, lambda: "Refund" in text_of(pilot, "#detail-message"),
                         what="refund message")
    refunds = ledger(emulator)["refunds"]
    assert [r["amount"] for r in refunds] == [20000]


async def test_history_filters_by_state_and_date(make_app, key_clock, emulator,
                                                 checkout: Checkout) -> None:
    async with make_app().run_test(size=(120, 40)) as pilot:
        await charge(pilot, key_clock, emulator, "50000", "an")
        await wait_until(pilot, lambda: isinstance(pilot.app.screen, ResultScreen), what="result")
        await type_keys(pilot, key_clock, "space")
        await charge(pilot, key_clock, emulator, "60000", "dung")
        await wait_until(pilot, lambda: isinstance(pilot.app.screen, ResultScreen), what="result")
        await type_keys(pilot, key_clock, "space")
        await type_keys(pilot, key_clock, "f2")
        screen = pilot.app.screen
        table = screen.query_one("#history-table", DataTable)
        await wait_until(pilot, lambda: table.row_count == 2, what="two rows")
        assert text_of(pilot, "#history-filter").endswith("· all states · 2 payments")
        await type_keys(pilot, key_clock, "s")  # new
        await type_keys(pilot, key_clock, "s", "s", "s")  # submitting, processing, succeeded
        await wait_until(pilot, lambda: table.row_count == 1, what="succeeded only")
        assert table.get_row_at(0)[2:4] == ["50.000 ₫", "succeeded"]
        assert text_of(pilot, "#history-filter").endswith("· succeeded · 1 payment")
        await type_keys(pilot, key_clock, "s")  # failed
        await wait_until(pilot, lambda: table.row_count == 1
                         and table.get_row_at(0)[3] == "failed", what="failed only")
        await type_keys(pilot, key_clock, "d", *["backspace"] * 10, *"2020-01-01", "enter")
        await wait_until(pilot, lambda: table.row_count == 0, what="nothing on 2020-01-01")
        assert "Day 01/01/2020" in text_of(pilot, "#history-filter")
        await type_keys(pilot, key_clock, "t")
        await wait_until(pilot, lambda: table.row_count == 1, what="today again")


async def test_manual_override_with_reason(settings: Settings, emulator, key_clock,
                                           make_app, hold_processing: ProcessingHold) -> None:
    with app_on_own_checkout(make_app, polling(settings, 0.2)) as (app, engine):
        async with app.run_test(size=(120, 40)) as pilot:
            await charge_past_the_deadline(pilot, key_clock, emulator, "chi")
            app_trans_id = pilot.app.screen.view.app_trans_id
            await type_keys(pilot, key_clock, "b")
            await wait_until(pilot, lambda: isinstance(pilot.app.screen, ResultScreen),
                             what="the result of giving up")
            await type_keys(pilot, key_clock, "enter")
            await type_keys(pilot, key_clock, "f2")
            await type_keys(pilot, key_clock, "enter")
            await wait_until(pilot, lambda: isinstance(pilot.app.screen, PaymentDetailScreen)
                             and pilot.app.screen.view is not None, what="detail")
            await type_keys(pilot, key_clock, "o", "ctrl+f", *"portal says declined", "enter")
            await wait_until(pilot, lambda: engine.journal.get(app_trans_id).state
                             is PaymentState.FAILED, what="override in the journal")
        events = engine.journal.events(app_trans_id)
        assert any(e.reason == "portal says declined" and e.who == settings.terminal.app_user
                   for e in events)


async def test_reports_x_and_z(make_app, key_clock, emulator) -> None:
    async with make_app().run_test(size=(120, 40)) as pilot:
        await charge(pilot, key_clock, emulator, "50000", "an")
        await wait_until(pilot, lambda: isinstance(pilot.app.screen, ResultScreen), what="result")
        await type_keys(pilot, key_clock, "space")
        await type_keys(pilot, key_clock, "f3")
        await wait_until(pilot, lambda: "X report" in text_of(pilot, "#report-text"), what="X")
        assert re.search(r"sales +1 +50\.000 ₫", text_of(pilot, "#report-text"))
        await type_keys(pilot, key_clock, "z", "y")
        await wait_until(pilot, lambda: "Z report #1" in text_of(pilot, "#report-text"),
                         what="Z report")
        await type_keys(pilot, key_clock, "x")
        await wait_until(pilot, lambda: re.search(r"sales +0 ", text_of(pilot, "#report-text"))
                         is not None,
                         what="a fresh day")


async def test_banks_grouped_by_channel(make_app, key_clock, emulator) -> None:
    async with make_app().run_test(size=(120, 40)) as pilot:
        await type_keys(pilot, key_clock, "f4")
        table = pilot.app.screen.query_one("#banks-table", DataTable)
        await wait_until(pilot, lambda: table.row_count > 0, what="the bank list")
        channels = [table.get_row_at(i)[0] for i in range(table.row_count)]
        headings = [c for c in channels if c]
        assert headings == sorted(set(headings), key=headings.index)  # each channel once
        assert "38" in headings
        assert "38 Wallet" in text_of(pilot, "#banks-state")


async def test_show_qr_gateway_order_paid_on_the_phone(make_app, key_clock, emulator,
                                                       checkout: Checkout) -> None:
    from pos_terminal.tui.screens.show_qr import ShowQrScreen
    from pos_terminal.tui.widgets.qr import QrCode

    async with make_app().run_test(size=(120, 40)) as pilot:
        await type_keys(pilot, key_clock, *"99000", "f5")
        assert isinstance(pilot.app.screen, ShowQrScreen)
        await type_keys(pilot, key_clock, "enter")
        qr = pilot.app.screen.query_one(QrCode)
        await wait_until(pilot, lambda: bool(qr.data), what="the order QR code")
        [row] = checkout.journal.list_payments()
        # Issue 29: the v2 answer's qr_code (VietQR), which ZaloPay and any banking app read
        assert qr.data == row.qr_code and row.amount == 99000
        assert row.qr_code.startswith("000201010212") and "0010A000000727" in row.qr_code
        assert "any banking app" in text_of(pilot, "#qr-url")
        answer = requests.post(f"{row.order_url}/pay", data={"wallet": "an",
                               "bankcode": "zalopayapp"}, allow_redirects=False, timeout=5)
        assert answer.status_code == 303
        await wait_until(pilot, lambda: isinstance(pilot.app.screen, ResultScreen), what="paid")
        assert pilot.app.screen.outcome.success
        assert checkout.journal.get(row.app_trans_id).state is PaymentState.SUCCEEDED


@pytest.mark.parametrize("environment,label", [("emulator", "EMULATOR"), ("sandbox", "SANDBOX"),
                                               ("production", "PRODUCTION")])
async def test_header_badge_names_the_environment(settings: Settings, make_app, environment: str,
                                                  label: str) -> None:
    # Past validation (model_copy): a sandbox or production file would have to be https://,
    # and the test's emulator speaks plain HTTP on loopback.
    service = settings.service.model_copy(update={"environment": environment})
    app = make_app(settings=settings.model_copy(update={"service": service}))
    async with app.run_test(size=(80, 24)) as pilot:
        badge = pilot.app.screen.query_one(".badge")
        assert str(badge.render()).strip() == label
        assert badge.has_class(f"badge-{environment}")
        await wait_until(pilot, lambda: pilot.app.header_state["reachable"] is True,
                         what="service reachable")
        assert "service ok" in screen_text(pilot)


@pytest.mark.parametrize("wallet", ["an", "dung"])  # PAID and NOT PAID alike
async def test_result_stays_until_acknowledged(settings: Settings, make_app, key_clock,
                                               emulator, wallet: str) -> None:
    async with make_app().run_test(size=(80, 24)) as pilot:
        await charge(pilot, key_clock, emulator, "15000", wallet)
        await wait_until(pilot, lambda: isinstance(pilot.app.screen, ResultScreen), what="result")
        assert "Enter: next sale · or type the next amount" in screen_text(pilot)
        result = pilot.app.screen
        await type_keys(pilot, key_clock, "x", "f2", "tab")  # not an acknowledgement
        await pilot.pause(0.3)
        assert pilot.app.screen is result
        await type_keys(pilot, key_clock, "escape")
        assert isinstance(pilot.app.screen, SaleScreen)
        assert pilot.app.screen.query_one(AmountField).amount == 0


async def test_a_digit_on_the_result_starts_the_next_sale(settings: Settings, make_app,
                                                          key_clock, emulator) -> None:
    async with make_app().run_test(size=(80, 24)) as pilot:
        await charge(pilot, key_clock, emulator, "15000", "an")
        await wait_until(pilot, lambda: isinstance(pilot.app.screen, ResultScreen), what="result")
        await type_keys(pilot, key_clock, "2", "5", "0", "0", "0")
        await wait_until(pilot, lambda: isinstance(pilot.app.screen, SaleScreen), what="sale")
        field = pilot.app.screen.query_one(AmountField)
        await wait_until(pilot, lambda: field.amount == 25_000, what="the whole amount typed")
        assert str(field.render()) == "25.000 ₫"


async def test_a_code_already_charged_is_refused_without_a_request(make_app, key_clock, emulator,
                                                                   checkout: Checkout) -> None:
    async with make_app().run_test(size=(80, 24)) as pilot:
        code = fresh_code(emulator, "an")
        await type_keys(pilot, key_clock, *"15000", "enter")
        await scan_burst(pilot, key_clock, code)
        await wait_until(pilot, lambda: isinstance(pilot.app.screen, ResultScreen), what="paid")
        [first] = checkout.journal.list_payments()
        await type_keys(pilot, key_clock, "space")
        await type_keys(pilot, key_clock, *"15000", "enter")
        await scan_burst(pilot, key_clock, code)  # the customer shows the same screen again
        await wait_until(pilot, lambda: isinstance(pilot.app.screen, ResultScreen)
                         and not pilot.app.screen.outcome.success, what="refused")
        assert pilot.app.screen.outcome.lines == (
            f"This payment code (••••{code[-4:]}) was already charged on this terminal (payment "
            f"{first.app_trans_id}). Ask the customer to show a fresh code in the wallet app.",)
    assert len(ledger(emulator)["charges"]) == 1


async def test_show_qr_order_cancelled_by_the_customer(make_app, key_clock, emulator,
                                                       checkout: Checkout) -> None:
    from pos_terminal.tui.widgets.qr import QrCode

    async with make_app().run_test(size=(80, 24)) as pilot:
        await type_keys(pilot, key_clock, "f5")
        await type_keys(pilot, key_clock, *"0", "enter")
        assert "No amount was given" in text_of(pilot, "#qr-state")
        await type_keys(pilot, key_clock, *"45000", "enter")
        qr = pilot.app.screen.query_one(QrCode)
        await wait_until(pilot, lambda: bool(qr.data), what="the order QR code")
        [row] = checkout.journal.list_payments()
        answer = requests.post(f"{row.order_url}/cancel", allow_redirects=False, timeout=5)
        assert answer.status_code == 303
        await wait_until(pilot, lambda: isinstance(pilot.app.screen, ResultScreen),
                         what="the cancelled order's result")
        assert not pilot.app.screen.outcome.success
        [row] = checkout.journal.list_payments()
        assert row.state is PaymentState.FAILED and row.amount == 45000
        assert pilot.app.screen.outcome.lines[0] == row.message
