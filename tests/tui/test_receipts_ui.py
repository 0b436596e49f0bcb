"""Receipts from the UI: R on the Result screen, P / N in the payment detail, `[printer] auto`.
The printer is a real TCP listener on loopback ("port 9100 style"); the screen says "printed"
only once it took the bytes, and says why not (with the setting to fix) otherwise."""

from __future__ import annotations

import socket
import sqlite3
from collections.abc import Iterator
from pathlib import Path

import pytest

from pos_terminal.checkout import Checkout, RefundState
from pos_terminal.config import Settings
from pos_terminal.journal.cashiers import Cashiers
from pos_terminal.tui.screens.history import PaymentDetailScreen
from pos_terminal.tui.screens.result import ResultScreen
from pos_terminal.tui.screens.supervisor import SupervisorDialog
from tests.conftest import fresh_code
from tests.receipts.test_receipts import CUT, INIT, Listener
from tests.tui.conftest import KeyClock
from tests.tui.helpers import screen_lines, shown, text_of, type_keys, wait_until
from tests.tui.test_cashiers import on_sale, sign_in
from tests.tui.test_flows import charge

pytestmark = pytest.mark.asyncio


@pytest.fixture
def printer() -> Iterator[Listener]:
    listener = Listener()
    yield listener
    listener.close()


def with_printer(settings: Settings, target: str, *, auto: bool = False) -> Settings:
    # The Result screen stays up while the test looks (no auto-dismiss on a slow machine).
    return settings.replace_section("printer", target=target, auto=auto, codepage="CP1258") \
        .replace_section("ui", result_timeout_s=3600)


def closed_port() -> int:
    with socket.socket() as probe:  # a port nobody listens on
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def receipt_line(pilot) -> str:
    return text_of(pilot, "#result-receipt")


async def paid_on_result(pilot, clock: KeyClock, emulator) -> str:
    await charge(pilot, clock, emulator, "50000", "an")
    await wait_until(pilot, lambda: isinstance(pilot.app.screen, ResultScreen), what="result")
    screen = pilot.app.screen
    assert screen.outcome.success and screen.outcome.receipt_id is not None
    return screen.outcome.receipt_id


async def test_r_on_result_prints_the_receipt(settings: Settings, make_app, key_clock, emulator,
                                              checkout: Checkout, printer: Listener) -> None:
    target = f"tcp:127.0.0.1:{printer.port}"
    async with make_app(settings=with_printer(settings, target)).run_test(
            size=(80, 24)) as pilot:
        app_trans_id = await paid_on_result(pilot, key_clock, emulator)
        hint = "R: print the receipt · Enter: next sale · or type the next amount"
        # The Result screen is current before it is drawn: wait for its text, not for a time.
        await wait_until(pilot, lambda: hint in "\n".join(screen_lines(pilot)),
                         what="the Result screen's key hint")
        assert receipt_line(pilot) == ""  # nothing printed, nothing claimed
        await type_keys(pilot, key_clock, "r")
        await wait_until(pilot, lambda: receipt_line(pilot).startswith("Receipt printed"),
                         what="the receipt printed")
        assert receipt_line(pilot) == f"Receipt printed on {target}."
        assert isinstance(pilot.app.screen, ResultScreen)  # R is not "the next sale"
        [job] = printer.wait_jobs(1)
        assert job.startswith(INIT) and job.endswith(CUT)
        assert app_trans_id.encode() in job and "50.000 ₫".encode("cp1258") in job
        assert checkout.journal.receipt_prints("payment", app_trans_id) == 1


async def test_unreachable_printer_says_why_and_claims_nothing(
        settings: Settings, make_app, key_clock, emulator, checkout: Checkout) -> None:
    port = closed_port()
    async with make_app(settings=with_printer(settings, f"tcp:127.0.0.1:{port}")).run_test(
            size=(80, 24)) as pilot:
        app_trans_id = await paid_on_result(pilot, key_clock, emulator)
        await type_keys(pilot, key_clock, "r")
        await wait_until(pilot, lambda: receipt_line(pilot).startswith("No receipt printed"),
                         what="the refusal")
        text = receipt_line(pilot)
        assert text.startswith(f"No receipt printed: cannot reach the network printer "
                               f"127.0.0.1:{port} (")
        assert "check that the printer is on, on the network, and that its address and raw " \
               f"port ({port}) are right" in text
        assert "Receipt printed" not in "\n".join(screen_lines(pilot))
        assert checkout.journal.receipt_prints("payment", app_trans_id) == 0


async def test_a_print_failure_reads_in_the_other_language_after_f8(
        settings: Settings, make_app, key_clock, emulator) -> None:
    """The Result keeps the print's reason, not its sentence: F8 says it again in Vietnamese,
    the printer named and what to check included (issue 21, item 6)."""
    port = closed_port()
    async with make_app(settings=with_printer(settings, f"tcp:127.0.0.1:{port}")).run_test(
            size=(80, 24)) as pilot:
        await paid_on_result(pilot, key_clock, emulator)
        await type_keys(pilot, key_clock, "r")
        await wait_until(pilot, lambda: receipt_line(pilot).startswith("No receipt printed"),
                         what="the refusal in English")
        await type_keys(pilot, key_clock, "f8")  # redrawn, not dismissed
        await wait_until(pilot, lambda: shown(pilot, "#result-receipt").startswith(
            "Chưa in phiếu: "), what="the refusal in Vietnamese")
        text = receipt_line(pilot)
        assert isinstance(pilot.app.screen, ResultScreen)
        assert text.startswith(f"Chưa in phiếu: không kết nối được máy in mạng 127.0.0.1:{port} (")
        assert text.endswith(f"hãy kiểm tra máy in đã bật, đã nối mạng, và địa chỉ cùng cổng in "
                             f"({port}) đã đúng.")
        assert "network printer" not in text and "check that" not in text
        assert "receipt-error" in pilot.app.screen.query_one("#result-receipt").classes


async def test_no_printer_configured_tells_the_cashier_whom_to_ask(
        settings: Settings, make_app, key_clock, emulator) -> None:
    """The cashier's screen names no setting and no file: the supervisor sets up the printer."""
    async with make_app(settings=with_printer(settings, "")).run_test(size=(80, 24)) as pilot:
        await paid_on_result(pilot, key_clock, emulator)
        await type_keys(pilot, key_clock, "r")
        await wait_until(pilot, lambda: receipt_line(pilot).startswith("No receipt printed"),
                         what="the refusal")
        assert receipt_line(pilot) == ("No receipt printed: no receipt printer is set up on "
                                       "this terminal: tell your supervisor.")


async def test_auto_print_after_payment_and_refund(settings: Settings, make_app, key_clock,
                                                   emulator, checkout: Checkout,
                                                   printer: Listener) -> None:
    target = f"tcp:127.0.0.1:{printer.port}"
    async with make_app(settings=with_printer(settings, target, auto=True)).run_test(
            size=(80, 24)) as pilot:
        app_trans_id = await paid_on_result(pilot, key_clock, emulator)
        await wait_until(pilot, lambda: receipt_line(pilot).startswith("Receipt printed"),
                         what="printed by itself")
        [job] = printer.wait_jobs(1)
        assert job.startswith(INIT) and job.endswith(CUT) and app_trans_id.encode() in job

        # A refund from History (no supervisor set up): its receipt prints by itself too.
        await type_keys(pilot, key_clock, "space")
        await pilot.app.push_screen(PaymentDetailScreen(app_trans_id))
        await wait_until(pilot, lambda: isinstance(pilot.app.screen, PaymentDetailScreen)
                         and pilot.app.screen.view is not None, what="the detail")
        await type_keys(pilot, key_clock, "f", *["backspace"] * 5, *"20000", "enter", "y")
        await wait_until(pilot, lambda: len(printer.jobs) == 2, what="the refund receipt")
        [refund] = checkout.journal.refunds(app_trans_id)
        assert refund.state is RefundState.REFUNDED
        assert refund.m_refund_id.encode() in printer.jobs[1]
        assert printer.jobs[1].startswith(INIT) and printer.jobs[1].endswith(CUT)
        await wait_until(pilot, lambda: text_of(pilot, "#detail-receipt") ==
                         f"Receipt printed on {target}.", what="said on the detail")
        assert checkout.journal.receipt_prints("refund", refund.m_refund_id) == 1
        # One auto-print path (the counter's listener): each receipt printed exactly once.
        assert pilot.app.counter.bus.drain(10.0)
        assert len(printer.jobs) == 2
        assert checkout.journal.receipt_prints("payment", app_trans_id) == 1


async def test_detail_reprints_the_payment_receipt(settings: Settings, make_app, key_clock,
                                                   emulator, checkout: Checkout,
                                                   printer: Listener) -> None:
    target = f"tcp:127.0.0.1:{printer.port}"
    view = checkout.pay(40_000, fresh_code(emulator, "an"))
    async with make_app(settings=with_printer(settings, target)).run_test(
            size=(80, 24)) as pilot:
        await pilot.app.push_screen(PaymentDetailScreen(view.app_trans_id))
        await wait_until(pilot, lambda: isinstance(pilot.app.screen, PaymentDetailScreen)
                         and pilot.app.screen.view is not None, what="the detail")
        await type_keys(pilot, key_clock, "p")
        await wait_until(pilot, lambda: text_of(pilot, "#detail-receipt") ==
                         f"Receipt printed on {target}.", what="printed")
        await type_keys(pilot, key_clock, "p")
        await wait_until(pilot, lambda: text_of(pilot, "#detail-receipt") ==
                         f"Reprint of the receipt printed on {target}.", what="reprinted")
        original, reprint = printer.wait_jobs(2)
        assert b"REPRINT" not in original and b"*** REPRINT ***" in reprint
        assert reprint.startswith(INIT) and reprint.endswith(CUT)


def printed_by(journal_path: Path, subject_id: str) -> list[str | None]:
    with sqlite3.connect(journal_path) as db:
        return [row[0] for row in db.execute(
            "SELECT cashier_id FROM receipts_printed WHERE subject_id=? ORDER BY time_ms",
            (subject_id,))]


async def test_auto_print_records_the_signed_in_cashier(settings: Settings, make_app, key_clock,
                                                        emulator, checkout: Checkout,
                                                        printer: Listener) -> None:
    """A refund authorised by a supervisor is printed (once) by the cashier at the counter."""
    cashiers = Cashiers(checkout.journal)
    cashiers.add("lan", "Lan Nguyen", "2468")
    cashiers.add("minh", "Minh Tran", "9753", supervisor=True)
    target = f"tcp:127.0.0.1:{printer.port}"
    async with make_app(settings=with_printer(settings, target, auto=True)).run_test(
            size=(80, 24)) as pilot:
        await sign_in(pilot, key_clock, "lan", "2468")
        await on_sale(pilot)
        app_trans_id = await paid_on_result(pilot, key_clock, emulator)
        await wait_until(pilot, lambda: receipt_line(pilot).startswith("Receipt printed"),
                         what="printed by itself")
        await type_keys(pilot, key_clock, "space")
        await pilot.app.push_screen(PaymentDetailScreen(app_trans_id))
        await wait_until(pilot, lambda: isinstance(pilot.app.screen, PaymentDetailScreen)
                         and pilot.app.screen.view is not None, what="the detail")
        await type_keys(pilot, key_clock, "f", "enter", "y")
        await wait_until(pilot, lambda: isinstance(pilot.app.screen, SupervisorDialog),
                         what="the supervisor dialog")
        await type_keys(pilot, key_clock, *"9753", "enter")
        # Until the dialog has closed the detail's receipt line is not the current screen's.
        await wait_until(pilot, lambda: isinstance(pilot.app.screen, PaymentDetailScreen)
                         and text_of(pilot, "#detail-receipt") == f"Receipt printed on {target}.",
                         what="the refund receipt, said")
        assert pilot.app.counter.bus.drain(10.0)
    [refund] = checkout.journal.refunds(app_trans_id)
    # the refund: asked by the cashier at the counter, authorised by the supervisor
    assert (refund.cashier_id, refund.authorised_by) == ("lan", "minh")
    journal_path = settings.terminal.journal
    assert printed_by(journal_path, app_trans_id) == ["lan"]
    assert printed_by(journal_path, refund.m_refund_id) == ["lan"]  # the print: who is here
    assert len(printer.jobs) == 2
