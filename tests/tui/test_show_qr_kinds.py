"""F5 (Show QR) offers every shop-QR kind the counter takes: with ZaloPay's gateway order and
payOS's VietQR both configured, F6 picks payOS and the order is payOS's, shown with its VietQR
(real app, real emulator over HTTP)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import requests

from pos_terminal.config import Settings
from pos_terminal.tui.screens.show_qr import ShowQrScreen
from tests.tui.helpers import text_of, wait_until
from tests.tui.scenes import scene_app
from tests.wallets.payos_help import shown, with_payos

pytestmark = pytest.mark.asyncio


async def _show_vietqr(pilot: Any, screen: ShowQrScreen) -> None:
    """F5's screen: F6 from ZaloPay's gateway order to payOS's VietQR, Enter, the order made."""
    await pilot.app.push_screen(screen)
    await wait_until(pilot, lambda: "ZaloPay" in text_of(pilot, "#qr-kind"),
                     what="the first kind")
    await pilot.press("f6")
    await wait_until(pilot, lambda: "payOS" in text_of(pilot, "#qr-kind"), what="payOS chosen")
    await pilot.press("enter")
    await wait_until(pilot, lambda: screen.view is not None, what="the order")


async def test_f6_picks_the_vietqr_and_the_order_is_payos(
        settings: Settings, emulator: Any, tmp_path: Path) -> None:
    app = scene_app(with_payos(settings, emulator), tmp_path / "journal.sqlite3")
    try:
        async with app.run_test(size=(100, 40)) as pilot:
            screen = ShowQrScreen(52_000)
            await _show_vietqr(pilot, screen)
            assert screen.view is not None and screen.view.provider == "payos"
            assert (screen.view.qr_code or "").startswith("000201")
            assert [r["amount"] for r in shown(emulator)] == [52_000]
            # payOS has no app of its own: the words beside its VietQR name none (they named
            # ZaloPay's before)
            await wait_until(pilot, lambda: "banking app" in text_of(pilot, "#qr-url"),
                             what="where to scan it")
            said = " ".join(text_of(pilot, "#qr-url").split())
            assert "Any banking app can scan it." in said and "ZaloPay" not in said, said
    finally:
        app.counter.checkout.close()


@pytest.mark.parametrize("arrived", [0, 20_000])
async def test_esc_cancels_the_vietqr_at_payos_then_its_status_decides(
        settings: Settings, emulator: Any, tmp_path: Path, arrived: int) -> None:
    """Esc on a shown VietQR closes the request at payOS (no more money is asked for); nothing
    arrived: not paid; part of it arrived: still open for the cashier, never "not paid"."""
    app = scene_app(with_payos(settings, emulator), tmp_path / "journal.sqlite3")
    try:
        async with app.run_test(size=(100, 40)) as pilot:
            screen = ShowQrScreen(50_000)
            await _show_vietqr(pilot, screen)
            assert screen.view is not None
            await wait_until(pilot, lambda: "Esc cancels the QR" in text_of(pilot, "#qr-state"),
                             what="the cashier told Esc cancels it")
            if arrived:
                code = shown(emulator)[0]["orderCode"]
                requests.post(f"{emulator.base_url}/_emulator/payos/requests/{code}/pay",
                              json={"amount": arrived}, timeout=30).raise_for_status()
            await pilot.press("escape")
            await wait_until(pilot, lambda: screen.gone, what="Esc settled")
            assert shown(emulator)[0]["status"] == "CANCELLED"
            row = app.counter.payments.get(screen.view.app_trans_id)
            assert row.state.value == ("processing" if arrived else "failed"), row
    finally:
        app.counter.checkout.close()


async def test_a_vietqr_whose_create_answer_was_lost_is_closed_and_not_paid(
        settings: Settings, emulator: Any, tmp_path: Path) -> None:
    """payOS made the request but its answer (with the QR) was lost: nothing to show, so
    nobody can pay it; it is cancelled at once and the result says not paid (no wait of
    minutes for a payment that cannot come)."""
    emulator.control.add_fault(endpoint="payos_create", mode="drop_after_commit")
    app = scene_app(with_payos(settings, emulator), tmp_path / "journal.sqlite3")
    try:
        async with app.run_test(size=(100, 40)) as pilot:
            screen = ShowQrScreen(41_000)
            await _show_vietqr(pilot, screen)
            await wait_until(pilot, lambda: screen.concluded, what="the result")
            assert screen.view is not None and screen.view.state.value == "failed"
            [request] = shown(emulator)
            assert request["status"] == "CANCELLED" and request["amountPaid"] == 0
    finally:
        app.counter.checkout.close()
