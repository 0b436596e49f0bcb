"""Issue 14, a UI that never misleads: the header says "service ok" only after a signed call
succeeded; Ctrl+Q during a payment asks and explains; a missing scanner is said at once."""

from __future__ import annotations

import pytest

from pos_terminal.checkout import PaymentState
from pos_terminal.config import Settings
from pos_terminal.tui.screens.progress import ProgressScreen
from pos_terminal.tui.widgets.header import StatusHeader
from tests.conftest import ProcessingHold
from tests.listeners import closed_port
from tests.tui.conftest import ledger
from tests.tui.helpers import screen_text, wait_until
from tests.tui.own_checkout import app_on_own_checkout, polling
from tests.tui.test_flows import ask_to_quit, charge_held_processing

pytestmark = pytest.mark.asyncio


async def test_header_says_checking_before_the_signed_call() -> None:
    assert StatusHeader._reach(None) == ("checking…", "reach")


@pytest.mark.parametrize(("change", "shown"), [
    ({}, "service ok"),
    ({"key1": "not-this-apps-key1"}, "credentials WRONG"),
    ({"base_url": "http://127.0.0.1:{port}"}, "service UNREACHABLE"),
])
async def test_header_tells_the_truth_about_the_service(
        settings: Settings, emulator, make_app, change: dict[str, str], shown: str) -> None:
    changed = {k: v.format(port=closed_port()) for k, v in change.items()}
    probed = settings.replace_service(**changed, connect_timeout_s=0.5, timeout_s=1.0)
    with app_on_own_checkout(make_app, probed) as (app, _engine):
        async with app.run_test(size=(80, 24)) as pilot:
            await wait_until(pilot, lambda: pilot.app.header_state["service"] is not None,
                             what="the signed check")
            assert shown in screen_text(pilot)
            others = {"service ok", "credentials WRONG", "service UNREACHABLE"} - {shown}
            assert not any(o in screen_text(pilot) for o in others)
            notes = [n.message for n in pilot.app._notifications]
            if "key1" in change:
                assert notes == [
                    "The wallet service refuses this terminal's credentials (code -402: "
                    "invalid app or signature: mac): payments will be refused. Tell your "
                    "supervisor: the terminal's wallet settings need fixing."]
    assert ledger(emulator)["charges"] == []


async def test_ctrl_q_during_a_payment_asks_and_explains(
        settings: Settings, emulator, key_clock, make_app,
        hold_processing: ProcessingHold) -> None:
    with app_on_own_checkout(make_app, polling(settings, 60.0)) as (app, engine):
        async with app.run_test(size=(80, 24)) as pilot:
            tid = await charge_held_processing(pilot, key_clock, emulator, "binh")
            await ask_to_quit(pilot)
            assert pilot.app.screen.question == (
                f"A payment of 30.000 ₫ is still waiting for the wallet (order {tid}). If you "
                "close the terminal now, the payment is kept and checked again when the "
                "terminal starts: do not charge the customer again. If the wallet charges it "
                "after you close, the money is returned to the customer automatically. Close the "
                "terminal anyway?")
            await pilot.press("n")  # no: back to the payment, still followed
            await wait_until(pilot, lambda: isinstance(pilot.app.screen, ProgressScreen),
                             what="back on Progress")
            assert pilot.app.is_running
            await ask_to_quit(pilot, "the question again")
            await pilot.press("y")
            await wait_until(pilot, lambda: not pilot.app.is_running, what="the app to quit")
        view = engine.journal.get(tid)
        assert (view.state, view.abandoned) == (PaymentState.PROCESSING, True)


async def test_ctrl_q_without_a_payment_quits_at_once(make_app) -> None:
    async with make_app().run_test(size=(80, 24)) as pilot:
        await pilot.press("ctrl+q")
        await wait_until(pilot, lambda: not pilot.app.is_running, what="the app to quit")


async def test_a_missing_scanner_is_said_at_once(settings: Settings, make_app) -> None:
    from pos_terminal.cli.ui_cmds import source_factory

    spec = "evdev:/dev/input/event-pos-terminal-test-missing"
    app = make_app(source_factory=source_factory(settings, spec))
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_until(pilot, lambda: bool(pilot.app._notifications), what="the notice")
        assert next(n.message for n in pilot.app._notifications) == (
            f"Scanner {spec} not available: the scanner is not connected: check its USB cable. "
            "Tell your supervisor; until it is fixed, a USB scanner that types like a keyboard "
            "still works.")


async def test_a_missing_scanner_is_said_in_the_cashiers_words_in_vietnamese(
        settings: Settings, make_app) -> None:
    """No shell command and no English from the hardware layer on a Vietnamese screen."""
    from pos_terminal.cli.ui_cmds import source_factory

    spec = "evdev:/dev/input/event-pos-terminal-test-missing"
    vietnamese = settings.replace_section("terminal", language="vi")
    app = make_app(settings=vietnamese, source_factory=source_factory(vietnamese, spec))
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_until(pilot, lambda: bool(pilot.app._notifications), what="the notice")
        notice = next(n.message for n in pilot.app._notifications)
        assert "chưa kết nối máy quét: hãy kiểm tra dây cáp USB" in notice
        assert "/dev/input/by-id" not in notice and "does not exist" not in notice
