"""Cashiers in the UI: sign-in (PIN masked, wrong PINs counted, lock-out), the cashier on every
payment, sign-out closing the shift, and a supervisor's PIN before a refund or an override
reaches the wallet. Real journal, real emulator, real keys."""

from __future__ import annotations

import re

import pytest
from textual.widgets import Input

from pos_terminal.checkout import Checkout, PaymentState
from pos_terminal.config import Settings
from pos_terminal.journal.cashiers import Cashiers
from pos_terminal.receipts.service import build_receipt
from pos_terminal.tui.screens.history import PaymentDetailScreen
from pos_terminal.tui.screens.progress import ProgressScreen
from pos_terminal.tui.screens.result import ResultScreen
from pos_terminal.tui.screens.sale import SaleScreen
from pos_terminal.tui.screens.shift import ShiftDialog
from pos_terminal.tui.screens.signin import NewPinDialog, SignInScreen
from pos_terminal.tui.screens.supervisor import SupervisorDialog
from tests.conftest import ProcessingHold, fresh_code
from tests.tui.conftest import KeyClock, ledger
from tests.tui.helpers import (
    screen_lines,
    screen_text,
    text_of,
    type_ahead,
    type_keys,
    wait_until,
)
from tests.tui.test_flows import charge

pytestmark = pytest.mark.asyncio

NO_SUPERVISOR = ("No supervisor set up: anyone can refund or override. Ask the shop owner to "
                 "add a supervisor.")


def book(checkout: Checkout, max_attempts: int = 5) -> Cashiers:
    return Cashiers(checkout.journal, max_attempts=max_attempts)


async def sign_in(pilot, clock: KeyClock, cashier_id: str, pin: str) -> None:
    await wait_until(pilot, lambda: isinstance(pilot.app.screen, SignInScreen)
                     and bool(pilot.app.screen.query("#signin-id")), what="the sign-in screen")
    field = pilot.app.screen.query_one("#signin-id", Input)
    field.value = ""
    field.focus()
    await type_keys(pilot, clock, *cashier_id, "enter", *pin, "enter")


async def on_sale(pilot) -> None:
    """The Sale screen is up and drawn (a switch to it is current before it is mounted)."""
    await wait_until(pilot, lambda: isinstance(pilot.app.screen, SaleScreen)
                     and bool(pilot.app.screen.query("#sale-message"))
                     and bool(screen_lines(pilot)), what="the sale screen")


def message(pilot) -> str:
    return text_of(pilot, "#signin-message")


async def test_sign_in_pays_as_the_cashier_and_sign_out_closes_the_shift(
        make_app, key_clock, emulator, checkout: Checkout) -> None:
    book(checkout).add("lan", "Lan Nguyen", "2468")
    async with make_app().run_test(size=(80, 24)) as pilot:
        await sign_in(pilot, key_clock, "lan", "2468")
        await on_sale(pilot)
        assert "counter1 · Lan Nguyen (F12 sign out)" in screen_lines(pilot)[0]
        assert all("2468" not in line for line in screen_lines(pilot))
        shift = book(checkout).open_shift_of("lan")
        assert shift is not None
        # No supervisor yet: said once on the sale screen.
        await wait_until(pilot, lambda: text_of(pilot, "#sale-message") == NO_SUPERVISOR,
                         what="the no-supervisor notice")

        await charge(pilot, key_clock, emulator, "50000", "an")
        await wait_until(pilot, lambda: isinstance(pilot.app.screen, ResultScreen), what="result")
        [row] = checkout.journal.list_payments()
        assert (row.state, row.cashier_id) == (PaymentState.SUCCEEDED, "lan")
        await type_keys(pilot, key_clock, "space")
        await on_sale(pilot)

        await type_keys(pilot, key_clock, "f12")  # the shift's totals, and the question
        await wait_until(pilot, lambda: isinstance(pilot.app.screen, ShiftDialog),
                         what="the shift's totals")
        shown = text_of(pilot, "#shift-totals")
        assert re.search(r"Cashier +Lan Nguyen \(lan\)", shown), shown
        assert re.search(r"Wallet \(code scanned\) +1 +50\.000 ₫", shown), shown
        assert re.search(r"Net +50\.000 ₫", shown), shown
        assert text_of(pilot, "#shift-question") == "Close Lan Nguyen's shift and sign out?"
        await type_keys(pilot, key_clock, "n")  # not yet: still signed in, shift open
        await on_sale(pilot)
        assert book(checkout).open_shift_of("lan") is not None
        await type_keys(pilot, key_clock, "ctrl+q")  # leaving with the shift open: asked too
        await wait_until(pilot, lambda: isinstance(pilot.app.screen, ShiftDialog),
                         what="the question before quitting")
        assert text_of(pilot, "#shift-question") == (
            "Close the terminal? Lan Nguyen's shift stays open (F12 closes it).")
        await type_keys(pilot, key_clock, "escape")
        await on_sale(pilot)
        assert pilot.app.is_running
        await type_keys(pilot, key_clock, "f12", "y")
        await wait_until(pilot, lambda: isinstance(pilot.app.screen, SignInScreen)
                         and bool(pilot.app.screen.query("#signin-id"))
                         and "pos-terminal · counter1" in (screen_lines(pilot) or [""])[0],
                         what="back on sign-in, nobody in the header")
        assert pilot.app.cashier_id is None
        assert book(checkout).open_shift_of("lan") is None
        assert [s.closed_ms is not None for s in book(checkout).shifts()] == [True]


async def test_no_sign_out_while_a_payment_is_in_flight(
        make_app, key_clock, emulator, checkout: Checkout,
        hold_processing: ProcessingHold) -> None:
    book(checkout).add("lan", "Lan Nguyen", "2468")
    async with make_app().run_test(size=(80, 24)) as pilot:
        await sign_in(pilot, key_clock, "lan", "2468")
        await on_sale(pilot)
        await charge(pilot, key_clock, emulator, "30000", "binh")  # stays processing
        await wait_until(pilot, lambda: isinstance(pilot.app.screen, ProgressScreen),
                         what="the payment in progress")
        await type_keys(pilot, key_clock, "f12")
        await wait_until(pilot, lambda: bool(pilot.app._notifications), what="the refusal")
        assert [n.message for n in pilot.app._notifications] == [
            "A payment or refund is in progress: wait for its result before signing out."]
        assert isinstance(pilot.app.screen, ProgressScreen) and pilot.app.cashier_id == "lan"
        assert book(checkout).open_shift_of("lan") is not None
        hold_processing.release()
        await wait_until(pilot, lambda: isinstance(pilot.app.screen, ResultScreen), what="paid")
    [row] = checkout.journal.list_payments()
    assert (row.state, row.cashier_id) == (PaymentState.SUCCEEDED, "lan")


async def test_wrong_pin_counts_down_then_locks(settings: Settings, make_app, key_clock,
                                               checkout: Checkout) -> None:
    strict = settings.replace_section("cashiers", max_attempts=3)
    book(checkout).add("lan", "Lan Nguyen", "2468")
    async with make_app(settings=strict).run_test(size=(80, 24)) as pilot:
        await sign_in(pilot, key_clock, "lan", "1111")
        await wait_until(pilot, lambda: message(pilot).startswith("Wrong"), what="refusal")
        assert message(pilot) == "Wrong PIN for lan. Tries left before it is locked: 2."
        assert pilot.app.screen.query_one("#signin-pin", Input).value == ""
        await type_keys(pilot, key_clock, *"2222", "enter")
        await wait_until(pilot, lambda: message(pilot).endswith(": 1."), what="1 left")
        await type_keys(pilot, key_clock, *"3333", "enter")
        await wait_until(pilot, lambda: "locked until" in message(pilot), what="locked")
        locked = book(checkout).get("lan").locked_until_ms
        assert locked is not None
        assert message(pilot).startswith("lan is locked until ")
        assert message(pilot).endswith("after too many wrong PINs. A supervisor can unlock it "
                                       "now: Ctrl+U.")
        # The right PIN does not open a locked id (the id field has the focus again).
        assert pilot.app.screen.query_one("#signin-id", Input).has_focus
        pilot.app.screen.query_one("#signin-message").update("")
        await sign_in(pilot, key_clock, "lan", "2468")
        await wait_until(pilot, lambda: "locked until" in message(pilot), what="still locked")
        assert isinstance(pilot.app.screen, SignInScreen) and pilot.app.cashier_id is None
        await sign_in(pilot, key_clock, "nobody", "2468")
        await wait_until(pilot, lambda: "no active cashier" in message(pilot), what="unknown")
        assert message(pilot) == ("There is no active cashier nobody: check the id, or ask "
                                  "your supervisor for yours.")


async def test_without_cashiers_the_sale_screen_opens_and_says_so_once(make_app) -> None:
    async with make_app().run_test(size=(80, 24)) as pilot:
        await on_sale(pilot)
        assert text_of(pilot, "#sale-message") == NO_SUPERVISOR
        assert pilot.app.cashier_id is None


def _paid(checkout: Checkout, emulator, cashier_id: str | None = None) -> str:
    view = checkout.pay(40_000, fresh_code(emulator, "an"), cashier_id=cashier_id)
    assert view.state is PaymentState.SUCCEEDED
    return view.app_trans_id


async def _open_detail(pilot, app_trans_id: str) -> None:
    await pilot.app.push_screen(PaymentDetailScreen(app_trans_id))
    await wait_until(pilot, lambda: isinstance(pilot.app.screen, PaymentDetailScreen)
                     and pilot.app.screen.view is not None, what="the payment detail")


def dialog_message(pilot) -> str:
    return text_of(pilot, "#supervisor-message")


async def test_refund_needs_the_supervisor_pin(make_app, key_clock, emulator,
                                               checkout: Checkout) -> None:
    cashiers = book(checkout)
    cashiers.add("lan", "Lan Nguyen", "2468")
    cashiers.add("minh", "Minh Tran", "9753", supervisor=True)
    app_trans_id = _paid(checkout, emulator, "lan")
    async with make_app().run_test(size=(80, 24)) as pilot:
        await sign_in(pilot, key_clock, "lan", "2468")
        await on_sale(pilot)
        assert text_of(pilot, "#sale-message") == ""  # a supervisor exists: nothing to say
        await _open_detail(pilot, app_trans_id)
        await type_keys(pilot, key_clock, "f", "enter", "y")
        await wait_until(pilot, lambda: isinstance(pilot.app.screen, SupervisorDialog),
                         what="the supervisor dialog")
        text = screen_text(pilot)
        assert "A supervisor must authorise: refund 40.000 ₫ of " + app_trans_id in text
        assert "Supervisor: Minh Tran (minh)" in text  # the only one: just the PIN
        await type_keys(pilot, key_clock, *"1111", "enter")
        await wait_until(pilot, lambda: dialog_message(pilot).startswith("Wrong"), what="no")
        assert dialog_message(pilot) == ("Wrong PIN for minh. Tries left before it is "
                                         "locked: 4. Nothing was sent.")
        assert isinstance(pilot.app.screen, SupervisorDialog)
        await type_keys(pilot, key_clock, "escape")
        await wait_until(pilot, lambda: isinstance(pilot.app.screen, PaymentDetailScreen),
                         what="back on the detail")
        assert ledger(emulator)["refunds"] == []
        assert checkout.journal.refunds(app_trans_id) == []

        await type_keys(pilot, key_clock, "f", "enter", "y")
        await wait_until(pilot, lambda: isinstance(pilot.app.screen, SupervisorDialog),
                         what="the supervisor dialog")
        await type_keys(pilot, key_clock, *"9753", "enter")
        await wait_until(pilot, lambda: checkout.journal.get(app_trans_id).refunded_amount
                         == 40_000, what="the refund in the journal")
    [refund] = checkout.journal.refunds(app_trans_id)
    # asked by the cashier at the counter, authorised by the supervisor: both journaled, the
    # report counts it for the cashier (issue 21, defect 5) and the slip names both
    assert (refund.cashier_id, refund.authorised_by) == ("lan", "minh")
    [lan] = checkout.journal.grouped_report("cashier")
    assert (lan.key, lan.sales_amount, lan.refunds_amount, lan.net_amount) == (
        "lan", 40_000, 40_000, 0)
    slip = build_receipt(checkout.journal, checkout.settings, refund.m_refund_id).text
    assert "Lan Nguyen (lan)" in slip and "Authorised by" in slip and "Minh Tran (minh)" in slip
    assert [r["amount"] for r in ledger(emulator)["refunds"]] == [40_000]


async def test_a_cashier_is_not_a_supervisor(make_app, key_clock, emulator,
                                             checkout: Checkout) -> None:
    cashiers = book(checkout)
    cashiers.add("lan", "Lan Nguyen", "2468")
    cashiers.add("minh", "Minh Tran", "9753", supervisor=True)
    cashiers.add("hoa", "Hoa Le", "8642", supervisor=True)
    app_trans_id = _paid(checkout, emulator)
    async with make_app().run_test(size=(80, 24)) as pilot:
        await sign_in(pilot, key_clock, "lan", "2468")
        await on_sale(pilot)
        await _open_detail(pilot, app_trans_id)
        await type_keys(pilot, key_clock, "f", "enter", "y")
        await wait_until(pilot, lambda: isinstance(pilot.app.screen, SupervisorDialog),
                         what="the supervisor dialog")
        # Two supervisors: the id is asked for. The cashier's own id and PIN do not do.
        await type_keys(pilot, key_clock, *"lan", "enter", *"2468", "enter")
        await wait_until(pilot, lambda: "not a supervisor" in dialog_message(pilot), what="no")
        assert dialog_message(pilot) == ("lan is not a supervisor: a supervisor must type "
                                         "their own id and PIN. Nothing was sent.")
        await type_keys(pilot, key_clock, "escape")
    assert ledger(emulator)["refunds"] == []
    assert checkout.journal.refunds(app_trans_id) == []


async def test_override_is_journaled_with_the_supervisor(
        settings: Settings, make_app, key_clock, emulator, checkout: Checkout) -> None:
    cashiers = book(checkout)
    cashiers.add("minh", "Minh Tran", "9753", supervisor=True)
    checkout.journal.record_intent(app_trans_id="261121_counter1_x1", amount=32_000,
                                   generation="v2", description="", payment_code="8" * 18,
                                   payload_hash="0" * 64, message="Sending the payment.")
    checkout.journal.transition("261121_counter1_x1", PaymentState.UNKNOWN,
                                message="No answer.")
    async with make_app().run_test(size=(80, 24)) as pilot:
        await sign_in(pilot, key_clock, "minh", "9753")
        await on_sale(pilot)
        await _open_detail(pilot, "261121_counter1_x1")
        await type_keys(pilot, key_clock, "o", "ctrl+f", *"portal says no", "enter")
        await wait_until(pilot, lambda: isinstance(pilot.app.screen, SupervisorDialog),
                         what="the supervisor dialog")
        await type_keys(pilot, key_clock, *"9753", "enter")
        await wait_until(pilot, lambda: checkout.journal.get("261121_counter1_x1").state
                         is PaymentState.FAILED, what="the override")
    override = [e for e in checkout.journal.events("261121_counter1_x1")
                if e.kind == "override"]
    assert [(e.who, e.reason, e.cashier_id) for e in override] == [
        ("minh", "portal says no", "minh")]


async def test_keys_typed_ahead_wait_for_the_dialog_they_open(make_app, key_clock, emulator,
                                                              checkout: Checkout) -> None:
    """F, Enter, Y read before the refund dialog is composed: each key waits until the screen
    it goes to is mounted and focused (issue 34), so Enter and Y reach the dialog's own field
    and question, never the screen half built or the detail under it."""
    cashiers = book(checkout)
    cashiers.add("lan", "Lan Nguyen", "2468")
    cashiers.add("minh", "Minh Tran", "9753", supervisor=True)
    app_trans_id = _paid(checkout, emulator, "lan")
    async with make_app().run_test(size=(80, 24)) as pilot:
        await sign_in(pilot, key_clock, "lan", "2468")
        await on_sale(pilot)
        await _open_detail(pilot, app_trans_id)
        await type_ahead(pilot, key_clock, "f", "enter", "y")
        await wait_until(pilot, lambda: isinstance(pilot.app.screen, SupervisorDialog),
                         what="the supervisor dialog")
        await type_ahead(pilot, key_clock, *"9753", "enter")
        await wait_until(pilot, lambda: checkout.journal.get(app_trans_id).refunded_amount
                         == 40_000, what="the refund in the journal")


async def test_the_settlement_slip_prints(settings: Settings, make_app, key_clock, emulator,
                                          checkout: Checkout, tmp_path) -> None:
    target = tmp_path / "printer.bin"
    printing = settings.replace_section("printer", target=f"file:{target}")
    book(checkout).add("lan", "Lan Nguyen", "2468")
    async with make_app(settings=printing).run_test(size=(80, 24)) as pilot:
        await sign_in(pilot, key_clock, "lan", "2468")
        await on_sale(pilot)
        await type_keys(pilot, key_clock, "f12", "p")
        await wait_until(pilot, lambda: text_of(pilot, "#shift-print").startswith("Printed on"),
                         what="the slip printed")
        assert target.stat().st_size > 0
        assert isinstance(pilot.app.screen, ShiftDialog)  # printing answers nothing


async def test_a_supervisor_unlocks_and_gives_a_new_pin_at_the_counter(
        settings: Settings, make_app, key_clock, checkout: Checkout) -> None:
    strict = settings.replace_section("cashiers", max_attempts=2)
    book(checkout).add("lan", "Lan Nguyen", "2468")
    book(checkout).add("minh", "Minh Tran", "9753", supervisor=True)
    async with make_app(settings=strict).run_test(size=(80, 24)) as pilot:
        await sign_in(pilot, key_clock, "lan", "1111")
        await wait_until(pilot, lambda: message(pilot).startswith("Wrong"), what="refusal")
        await type_keys(pilot, key_clock, *"2222", "enter")
        await wait_until(pilot, lambda: "locked until" in message(pilot), what="locked")
        await type_keys(pilot, key_clock, "ctrl+u")  # the supervisor's PIN first
        await wait_until(pilot, lambda: isinstance(pilot.app.screen, SupervisorDialog),
                         what="the supervisor's PIN")
        await type_keys(pilot, key_clock, *"9753", "enter")
        await wait_until(pilot, lambda: isinstance(pilot.app.screen, SignInScreen)
                         and message(pilot) == "lan is unlocked: type the PIN, Enter.",
                         what="unlocked")
        assert book(checkout).get("lan").locked_until_ms is None

        await type_keys(pilot, key_clock, "ctrl+n")  # lan forgot it: a new one
        await wait_until(pilot, lambda: isinstance(pilot.app.screen, SupervisorDialog),
                         what="the supervisor's PIN again")
        await type_keys(pilot, key_clock, *"9753", "enter")
        await wait_until(pilot, lambda: isinstance(pilot.app.screen, NewPinDialog),
                         what="the new PIN")
        await type_keys(pilot, key_clock, *"1357", "enter", *"1358", "enter")
        await wait_until(pilot, lambda: "differ" in text_of(pilot, "#new-pin-message"),
                         what="the two PINs differ")
        await type_keys(pilot, key_clock, *"1357", "enter", *"1357", "enter")
        await wait_until(pilot, lambda: isinstance(pilot.app.screen, SignInScreen)
                         and message(pilot) == "lan has a new PIN: sign in with it.",
                         what="the new PIN set")
        assert all("1357" not in line for line in screen_lines(pilot))
        await sign_in(pilot, key_clock, "lan", "1357")
        await on_sale(pilot)
        assert pilot.app.cashier_id == "lan"
