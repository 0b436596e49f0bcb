"""Issue 43's leftovers: the dialogs (questions, PINs, the override, their errors), the shift's
question, sign-in, the banks' line and the other screens' sentences (Sale's notice, the
receipt's line, Show QR's state...), at 80x24 and at 120x40, in Vietnamese and in English.
Read as a person sees them (the screen's lines, each sentence's region): every sentence whole,
nothing cut off, and its lines broken between phrases, never inside a Vietnamese word
("đánh / số", "Chưa / có gì")."""

from __future__ import annotations

import re
from collections.abc import Awaitable, Callable
from pathlib import Path

import pytest
from textual.pilot import Pilot

from pos_terminal.base.i18n import _
from pos_terminal.checkout.providers import WalletChoiceNeeded
from pos_terminal.config import Settings
from pos_terminal.journal.cashiers import Cashiers
from pos_terminal.sentences.labels import wallet_name
from pos_terminal.tui.app import quit_question
from pos_terminal.tui.payment import PaymentRun
from pos_terminal.tui.sales import Sale
from pos_terminal.tui.screens.banks import BanksScreen
from pos_terminal.tui.screens.dialogs import (
    ConfirmDialog,
    OverrideDialog,
    RefundDialog,
    WalletDialog,
)
from pos_terminal.tui.screens.reports import ReportsScreen
from pos_terminal.tui.screens.sale import SaleScreen
from pos_terminal.tui.screens.shift import ShiftDialog
from pos_terminal.tui.screens.signin import NewPinDialog, SignInScreen
from pos_terminal.tui.widgets.line import Line
from tests.tui.conftest import KeyClock
from tests.tui.helpers import (
    broken_inside_a_phrase,
    said_by,
    scan_burst,
    shown,
    type_keys,
    visible_lines,
    wait_for_phrases,
    wait_for_tables,
    wait_until,
)
from tests.tui.scenes import SCENES, processing_view
from tests.tui.test_fit import PROCESSING_ID, SUCCEEDED_ID, scene_pilot

pytestmark = pytest.mark.asyncio

Step = Callable[[Pilot, KeyClock], Awaitable[None]]


def squash(text: str) -> str:
    return re.sub(r"\s+", " ", text).strip()


def sentences(pilot: Pilot) -> list[Line]:
    """The lines of words on the screen on top: a dialog's own, or the screen's body (not its
    header, nor the window-too-small notice while hidden)."""
    screen = pilot.app.screen
    return [line for line in screen.query(Line)
            if line.display and line.id != "too-small" and "status-header" not in {
                c for node in line.ancestors for c in getattr(node, "classes", ())}
            and str(line.render()).strip()]


def unbroken(pilot: Pilot, where: str) -> list[str]:
    """What is wrong with the sentences on screen: a sentence not whole on screen (cut off, or
    a line of it missing), or broken inside a phrase."""
    return [problem for line in sentences(pilot) for problem in line_problems(pilot, line, where)]


def line_problems(pilot: Pilot, line: Line, where: str) -> list[str]:
    """`line`'s sentence not whole on screen, or its lines broken inside a phrase."""
    drawn = visible_lines(pilot, line)
    found = []
    if squash(" ".join(drawn)) != squash(said_by(line)):
        found.append(f"{where}: {said_by(line)!r} is drawn as {drawn}")
    return found + [f"{where}: {pair}" for pair in broken_inside_a_phrase(drawn)]


async def on_top(pilot: Pilot, kind: type, what: str) -> None:
    await wait_until(pilot, lambda: isinstance(pilot.app.screen, kind)
                     and pilot.app.screen.is_mounted, what=what)
    await pilot.pause()


async def said(pilot: Pilot, selector: str, words: str) -> None:
    await wait_until(pilot, lambda: squash(shown(pilot, selector)) == squash(words), what=words)
    await pilot.pause()


async def back_to_sale(pilot: Pilot) -> None:
    while not isinstance(pilot.app.screen, SaleScreen):
        await pilot.app.pop_screen()
    await pilot.pause()


# ---- the states looked at, each reached as the cashier reaches it (keys) where it can be ----

async def z_question(pilot: Pilot, clock: KeyClock) -> None:
    await pilot.app.push_screen(ReportsScreen())
    await wait_until(pilot, lambda: bool(shown(pilot, "#report-text")), what="the X report")
    await type_keys(pilot, clock, "z")
    await on_top(pilot, ConfirmDialog, "the Z question")


async def quit_while_charging(pilot: Pilot, clock: KeyClock) -> None:
    """The question Ctrl+Q asks while a payment waits for the wallet (its longest)."""
    run = PaymentRun(Sale(120_000, "", ()), "7913", "camera:0")
    run.view = processing_view()
    counter = pilot.app.counter
    await pilot.app.push_screen(ConfirmDialog(lambda: quit_question(run, counter)))
    await on_top(pilot, ConfirmDialog, "the quit question")


async def refund_too_much(pilot: Pilot, clock: KeyClock) -> None:
    journal = pilot.app.counter.checkout.journal
    await pilot.app.push_screen(RefundDialog(journal.get(SUCCEEDED_ID)))
    await on_top(pilot, RefundDialog, "the refund dialog")
    await type_keys(pilot, clock, "end", "9", "enter")  # 1.250.009 ₫: more than was paid
    await said(pilot, "#refund-message", _("Type an amount between {low} and {high}, then "
                                           "Enter.").format(low="1 ₫", high="125.000 ₫"))


async def refund_asked(pilot: Pilot, clock: KeyClock) -> None:
    await type_keys(pilot, clock, "backspace", "enter")
    await said(pilot, "#refund-message", _("Refund {amount} to the customer's wallet? Y: yes, "
                                           "refund · Esc: no").format(amount="125.000 ₫"))


async def override_without_a_state(pilot: Pilot, clock: KeyClock) -> None:
    journal = pilot.app.counter.checkout.journal
    await pilot.app.push_screen(OverrideDialog(journal.get(PROCESSING_ID)))
    await on_top(pilot, OverrideDialog, "the override dialog")
    await type_keys(pilot, clock, "enter")
    await said(pilot, "#override-message",
               _("Choose the state first: Ctrl+S paid, Ctrl+F not paid."))


async def override_without_a_reason(pilot: Pilot, clock: KeyClock) -> None:
    await type_keys(pilot, clock, "ctrl+f", "enter")
    await said(pilot, "#override-message",
               _("Type the reason (what you checked, e.g. the portal reference)."))


async def supervisor_refused(pilot: Pilot, clock: KeyClock) -> None:
    await SCENES["supervisor"](pilot)  # two supervisors, a wrong PIN said


async def new_pins_differ(pilot: Pilot, clock: KeyClock) -> None:
    await pilot.app.push_screen(NewPinDialog("lan"))
    await on_top(pilot, NewPinDialog, "the new PIN")
    await type_keys(pilot, clock, *"2468", "enter", *"8642", "enter")
    await said(pilot, "#new-pin-message", _("The two PINs differ: type the new PIN twice."))


async def which_wallet(pilot: Pilot, clock: KeyClock) -> None:
    why = WalletChoiceNeeded("8123456789012345678", ("zalopay", "momo"), ())
    await pilot.app.push_screen(WalletDialog(why.message, [(w, wallet_name(w))
                                                           for w in why.candidates]))
    await on_top(pilot, WalletDialog, "the wallet question")


def signed_in_lan(pilot: Pilot) -> None:
    """Lan at the counter, her shift open (as the sign-in screen leaves it)."""
    counter = pilot.app.counter
    if not counter.cashiers.book().any_active():
        Cashiers(counter.checkout.journal).add("lan", "Nguyễn Thị Lan", "2468")
    pilot.app.shifts.signed_in = counter.cashiers.sign_in("lan", "2468")


async def sign_out_question(pilot: Pilot, clock: KeyClock) -> None:
    signed_in_lan(pilot)
    await type_keys(pilot, clock, "f12")
    await on_top(pilot, ShiftDialog, "the shift's question")
    await type_keys(pilot, clock, "p")  # no printer here: said under the question
    await wait_until(pilot, lambda: bool(shown(pilot, "#shift-print").strip(" …"))
                     and shown(pilot, "#shift-print") != _("Printing the settlement slip…"),
                     what="how the printing went")


async def quit_question_with_the_shift(pilot: Pilot, clock: KeyClock) -> None:
    signed_in_lan(pilot)
    await type_keys(pilot, clock, "ctrl+q")
    await on_top(pilot, ShiftDialog, "the question before closing the terminal")


async def sign_in_refusals(pilot: Pilot, clock: KeyClock) -> None:
    await pilot.app.push_screen(SignInScreen())
    await on_top(pilot, SignInScreen, "sign-in")
    await type_keys(pilot, clock, "ctrl+u")
    await said(pilot, "#signin-message", _("Type the cashier id first, then Ctrl+U (unlock) or "
                                           "Ctrl+N (new PIN)."))


async def sign_in_code_read(pilot: Pilot, clock: KeyClock) -> None:
    await scan_burst(pilot, clock, "812345678901234567")
    await said(pilot, "#signin-message", _("A payment code was read, but nobody is signed in: "
                                           "sign in first."))


async def banks(pilot: Pilot, clock: KeyClock) -> None:
    await pilot.app.push_screen(BanksScreen())
    await wait_until(pilot, lambda: "(" in shown(pilot, "#banks-state"), what="the bank list")
    await wait_for_tables(pilot)


#: Each state, then whether the Sale screen comes back before the next one.
STATES: list[tuple[str, Step, bool]] = [
    ("the Z question", z_question, True),
    ("Ctrl+Q while a payment waits", quit_while_charging, True),
    ("a refund too large", refund_too_much, False),
    ("a refund asked", refund_asked, True),
    ("an override without a state", override_without_a_state, False),
    ("an override without a reason", override_without_a_reason, True),
    ("a supervisor's PIN refused", supervisor_refused, True),
    ("two new PINs differ", new_pins_differ, True),
    ("which wallet", which_wallet, True),
    ("sign-out with the shift's totals", sign_out_question, True),
    ("Ctrl+Q with the shift open", quit_question_with_the_shift, True),
    ("sign-in: no id typed", sign_in_refusals, False),
    ("sign-in: a code read", sign_in_code_read, True),
    ("banks", banks, True),
]


@pytest.mark.parametrize("size", [(80, 24), (120, 40)], ids=["80x24", "120x40"])
@pytest.mark.parametrize("language", ["vi", "en"])
async def test_dialogs_shift_sign_in_and_banks_break_between_phrases(
        settings: Settings, tmp_path: Path, key_clock: KeyClock, language: str,
        size: tuple[int, int]) -> None:
    chosen = settings.replace_section("terminal", language=language)
    problems: list[str] = []
    async with scene_pilot(chosen, tmp_path, width=size[0], height=size[1]) as pilot:
        await SCENES["sale"](pilot)
        for where, step, then_sale in STATES:
            await step(pilot, key_clock)
            await wait_for_phrases(pilot)
            problems += unbroken(pilot, where)
            if then_sale:
                pilot.app.shifts.signed_in = None  # the next state starts with nobody in
                await back_to_sale(pilot)
    assert problems == [], "\n".join(problems)



#: The sentence lines of the other screens (tests/tui/scenes.py), each in its fixed state.
SCENE_SENTENCES = {
    "sale": ["#sale-message"],  # "Hãy nhờ chủ cửa / hàng thêm quản lý."
    "pay": ["#scanner-state"],
    "progress": ["#progress-state", "#progress-code"],
    "progress-deadline": ["#progress-state", "#progress-choice"],
    "result-receipt": ["#result-receipt"],  # "(timed out): hãy / kiểm tra"
    "show-qr": ["#qr-state"],  # "ví và thanh / toán."
    "signin": ["#signin-message"],
}


@pytest.mark.parametrize("size", [(80, 24), (120, 40)], ids=["80x24", "120x40"])
@pytest.mark.parametrize("language", ["vi", "en"])
async def test_the_other_screens_sentences_break_between_phrases(
        settings: Settings, tmp_path: Path, language: str, size: tuple[int, int]) -> None:
    chosen = settings.replace_section("terminal", language=language)
    problems: list[str] = []
    for scene, selectors in SCENE_SENTENCES.items():
        async with scene_pilot(chosen, tmp_path / scene, width=size[0],
                               height=size[1]) as pilot:
            await SCENES[scene](pilot)
            await wait_for_phrases(pilot)
            for selector in selectors:
                problems += line_problems(pilot, pilot.app.screen.query_one(selector, Line),
                                          scene)
    assert problems == [], "\n".join(problems)
