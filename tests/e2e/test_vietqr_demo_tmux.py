"""Issue 41: a VietQR sale in `./pos demo`, as a newcomer follows the README. F5, F6 to payOS's
VietQR, an amount, Enter: the code on the screen (read from a picture of the pane) is the
request's VietQR; the screen names the bank app page where the demo's customer pays it; part of
the money arriving is shown as such (never PAID), the rest arriving makes it PAID. Esc on a QR
nobody paid cancels it at payOS: NOT PAID; a transfer after that reaches the counter through
the demo's webhook and is a late payment for the cashier."""

from __future__ import annotations

import re
import shutil
import sqlite3
import time
from pathlib import Path

import pytest
import requests

from tests.e2e.test_demo_tmux import Tmux
from tests.e2e.test_shop_qr_tmux import (
    CREATE_HINT,
    codes_on_screen,
    demo_at,
    notice_of,
    wait_for_words,
    words,
)

pytestmark = [pytest.mark.e2e,
              pytest.mark.skipif(shutil.which("tmux") is None, reason="needs tmux")]

BANK_PAGE = r"http://127\.0\.0\.1:\d+/payos/bank"


def payos_row(tmp_path: Path) -> sqlite3.Row:
    [journal] = (tmp_path / "demo").glob("*/journal.sqlite3")
    with sqlite3.connect(f"file:{journal}?mode=ro", uri=True) as db:
        db.row_factory = sqlite3.Row
        [row] = db.execute("SELECT app_trans_id, state, provider, amount, qr_code FROM payments"
                           ).fetchall()
    return row


def late_row(tmp_path: Path) -> sqlite3.Row | None:
    [journal] = (tmp_path / "demo").glob("*/journal.sqlite3")
    with sqlite3.connect(f"file:{journal}?mode=ro", uri=True) as db:
        db.row_factory = sqlite3.Row
        found: sqlite3.Row | None = db.execute(
            "SELECT state, late, needs_review FROM payments WHERE late = 1").fetchone()
    return found


def show_vietqr(session: Tmux, amount: str) -> str:
    """F5, F6 to payOS, the amount, Enter: the bank app page the screen names."""
    session.wait_for("service ok")
    session.keys("F5")
    session.wait_for(CREATE_HINT)
    session.keys("F6")
    session.wait_for("QR of payOS (VietQR)")
    for digit in amount:
        session.keys(digit)
        time.sleep(0.1)  # a person typing
    session.keys("Enter")
    deadline = time.monotonic() + 30
    # whole on one line of the notice, as a person reads it off the screen
    while not (found := re.search(BANK_PAGE, notice_of(session.screen()))):
        if time.monotonic() > deadline:
            raise AssertionError(f"no bank app page named; the screen:\n{session.screen()}")
        time.sleep(0.2)
    return found[0]


def test_a_vietqr_sale_paid_in_part_then_in_full_on_the_bank_app_page(tmp_path: Path) -> None:
    session = demo_at(tmp_path, 100, 40)
    try:
        page = show_vietqr(session, "120000")
        row = payos_row(tmp_path)
        assert row["provider"] == "payos" and row["amount"] == 120_000
        assert codes_on_screen(session) == [row["qr_code"]]  # what a bank app reads off it
        assert row["qr_code"].startswith("000201010212")
        assert "Any banking app can scan it." in words(session.screen())
        bank = requests.get(page, timeout=10)
        assert bank.status_code == 200 and row["app_trans_id"] in bank.text
        base = page.removesuffix("/payos/bank")
        pay = f"{base}/_emulator/payos/requests/{row['app_trans_id']}/pay"
        requests.post(pay, json={"amount": 50_000}, timeout=10).raise_for_status()
        said = wait_for_words(session, lambda said: "is missing" in said, "what is missing")
        assert "50.000 ₫ arrived of 120.000 ₫; 70.000 ₫ is missing" in said
        assert "PAID" not in said
        assert payos_row(tmp_path)["state"] != "succeeded"
        requests.post(pay, json={}, timeout=10).raise_for_status()  # the rest
        session.wait_for("PAID")
        assert payos_row(tmp_path)["state"] == "succeeded"
        session.keys("C-q")
    finally:
        session.close()


def test_esc_on_a_vietqr_nobody_paid_cancels_it_not_paid(tmp_path: Path) -> None:
    session = demo_at(tmp_path, 100, 40)
    try:
        page = show_vietqr(session, "30000")
        wait_for_words(session, lambda said: "Esc cancels the QR" in said, "Esc cancels it")
        session.keys("Escape")
        session.wait_for("NOT PAID")
        row = payos_row(tmp_path)
        assert row["state"] == "failed"
        base = page.removesuffix("/payos/bank")
        [request] = requests.get(f"{base}/_emulator/payos/requests", timeout=10).json()[
            "requests"]
        assert request["status"] == "CANCELLED" and str(request["orderCode"]) == row[
            "app_trans_id"]
        # the customer's transfer lands after all: the demo's webhook tells the counter, which
        # asks payOS and finds a late payment for the cashier (never "not paid")
        requests.post(f"{base}/_emulator/payos/requests/{row['app_trans_id']}/pay", json={},
                      timeout=10).raise_for_status()
        deadline = time.monotonic() + 30
        while (found := late_row(tmp_path)) is None:
            if time.monotonic() > deadline:
                raise AssertionError(f"the late transfer was not found: {payos_row(tmp_path)}")
            time.sleep(0.2)
        assert found["state"] == "succeeded" and found["needs_review"] == 1
        hooks = requests.get(f"{base}/_emulator/payos/webhooks", timeout=10).json()
        assert hooks["url"].endswith("/v1/webhooks/payos")
        assert [d["status"] for d in hooks["deliveries"]][-1] == 200, hooks
        session.keys("C-q")
    finally:
        session.close()
