"""Issue 32, item 7: F8 works in every dialog (refund amount, supervisor PIN, Z confirmation,
shift close, quit, a new PIN) and draws it again in the other language, keeping what was typed
(a PIN excepted); the screen under it follows when it comes back. Banks too."""

from __future__ import annotations

import pytest
from textual.widgets import Input

from pos_terminal.checkout import Checkout
from pos_terminal.tui.screens.dialogs import ConfirmDialog, RefundDialog
from pos_terminal.tui.screens.history import HistoryScreen, PaymentDetailScreen
from pos_terminal.tui.screens.result import ResultScreen
from pos_terminal.tui.screens.shift import ShiftDialog
from pos_terminal.tui.screens.signin import NewPinDialog, SignInScreen
from pos_terminal.tui.screens.supervisor import SupervisorDialog
from tests.tui.helpers import screen_text, shown, type_keys, wait_until
from tests.tui.test_cashiers import book, on_sale, sign_in
from tests.tui.test_flows import charge

pytestmark = pytest.mark.asyncio


async def f8_to(pilot, key_clock, words: str) -> None:
    await type_keys(pilot, key_clock, "f8")
    await wait_until(pilot, lambda: words in screen_text(pilot), what=words)


async def test_f8_redraws_every_dialog_in_the_other_language(
        make_app, key_clock, emulator, checkout: Checkout) -> None:
    book(checkout).add("boss", "Minh Tran", "9753", supervisor=True)
    book(checkout).add("lan", "Lan Nguyen", "2468")
    async with make_app().run_test(size=(80, 24)) as pilot:
        await sign_in(pilot, key_clock, "lan", "2468")
        await on_sale(pilot)
        await charge(pilot, key_clock, emulator, "50000", "an")
        await wait_until(pilot, lambda: isinstance(pilot.app.screen, ResultScreen), what="PAID")
        await type_keys(pilot, key_clock, "space")
        await on_sale(pilot)

        # the refund amount: typed, then F8 keeps it
        await type_keys(pilot, key_clock, "f2")
        await wait_until(pilot, lambda: isinstance(pilot.app.screen, HistoryScreen)
                         and pilot.app.screen.rows, what="history")
        await type_keys(pilot, key_clock, "enter")
        await wait_until(pilot, lambda: isinstance(pilot.app.screen, PaymentDetailScreen)
                         and pilot.app.screen.view is not None, what="detail")
        await type_keys(pilot, key_clock, "f")
        await wait_until(pilot, lambda: isinstance(pilot.app.screen, RefundDialog), what="refund")
        await type_keys(pilot, key_clock, *["backspace"] * 5, *"20000")
        await f8_to(pilot, key_clock, "Hoàn tiền giao dịch")
        assert pilot.app.screen.query_one("#refund-amount", Input).value == "20000"
        await type_keys(pilot, key_clock, "enter")
        await wait_until(pilot, lambda: "Hoàn 20.000 ₫ vào ví" in shown(pilot, "#refund-message"),
                         what="the question in Vietnamese")
        await f8_to(pilot, key_clock, "Refund payment")
        assert "Refund 20.000 ₫ to the customer's wallet?" in shown(pilot, "#refund-message")

        # the supervisor's PIN
        await type_keys(pilot, key_clock, "y")
        await wait_until(pilot, lambda: isinstance(pilot.app.screen, SupervisorDialog),
                         what="the supervisor")
        await f8_to(pilot, key_clock, "Cần quản lý cho phép: hoàn tiền 20.000 ₫")
        await type_keys(pilot, key_clock, "escape")
        await wait_until(pilot, lambda: isinstance(pilot.app.screen, PaymentDetailScreen),
                         what="back on the detail")
        await wait_until(pilot, lambda: pilot.app.screen.language == "vi",
                         what="the detail redrawn when it came back")
        await type_keys(pilot, key_clock, "escape", "escape")
        await on_sale(pilot)

        # the Z question
        await type_keys(pilot, key_clock, "f3")
        await wait_until(pilot, lambda: "Báo cáo X" in shown(pilot, "#report-text"), what="X")
        await type_keys(pilot, key_clock, "z")
        await wait_until(pilot, lambda: isinstance(pilot.app.screen, ConfirmDialog), what="Z?")
        await f8_to(pilot, key_clock, "Close the day with a Z report?")
        await type_keys(pilot, key_clock, "n")
        await wait_until(pilot, lambda: "X report" in shown(pilot, "#report-text"),
                         what="Reports in English again")
        await type_keys(pilot, key_clock, "escape")
        await on_sale(pilot)

        # closing the shift, then quitting
        await type_keys(pilot, key_clock, "f12")
        await wait_until(pilot, lambda: isinstance(pilot.app.screen, ShiftDialog), what="shift")
        await f8_to(pilot, key_clock, "Kết ca của Lan Nguyen và đăng xuất?")
        assert "KẾT CA" in screen_text(pilot)
        await type_keys(pilot, key_clock, "n")
        await on_sale(pilot)
        await type_keys(pilot, key_clock, "ctrl+q")
        await wait_until(pilot, lambda: isinstance(pilot.app.screen, ShiftDialog), what="quit?")
        await f8_to(pilot, key_clock, "Close the terminal? Lan Nguyen's shift stays open")
        await type_keys(pilot, key_clock, "n")
        await on_sale(pilot)

        # a new PIN, from the sign-in screen
        await type_keys(pilot, key_clock, "f12")
        await wait_until(pilot, lambda: isinstance(pilot.app.screen, ShiftDialog), what="shift")
        await type_keys(pilot, key_clock, "y")
        await wait_until(pilot, lambda: isinstance(pilot.app.screen, SignInScreen), what="sign in")
        await type_keys(pilot, key_clock, *"lan", "ctrl+n")
        await wait_until(pilot, lambda: isinstance(pilot.app.screen, SupervisorDialog),
                         what="the supervisor for a new PIN")
        await type_keys(pilot, key_clock, *"9753", "enter")
        await wait_until(pilot, lambda: isinstance(pilot.app.screen, NewPinDialog),
                         what="the new PIN")
        await f8_to(pilot, key_clock, "PIN mới cho lan")

