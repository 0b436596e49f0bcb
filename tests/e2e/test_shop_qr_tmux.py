"""Issue 39, item 4: the shop QR (F5) in a real terminal. The pane is captured with its colours,
drawn as a picture as a person sees it, and read with zxing-cpp: at 80x24 the code on screen is
a whole one that scans (the order's page, which the customer then pays) or none at all; at
80x34 and larger, the VietQR any banking app reads. The footer offers only what applies, Esc
says what became of the order, and the order is journaled with the signed-in cashier."""

from __future__ import annotations

import re
import shutil
import sqlite3
import time
from collections.abc import Callable
from pathlib import Path

import numpy as np
import pytest
import requests
import zxingcpp
from pyzbar import pyzbar
from pyzbar.pyzbar import ZBarSymbol

from pos_terminal.tui.widgets.qr import drawn_size
from tests.e2e.pane_picture import picture
from tests.e2e.test_demo_tmux import Tmux
from tests.processes import cli_command

pytestmark = [pytest.mark.e2e,
              pytest.mark.skipif(shutil.which("tmux") is None, reason="needs tmux")]

CREATE_HINT = "Create order"
BODY_ROWS_AT_24 = 22  # under the header, above the footer


def demo_at(tmp_path: Path, width: int, height: int) -> Tmux:
    return Tmux(cli_command("demo", "--language", "en", "--folder", str(tmp_path / "demo")),
                width=width, height=height)


def words(screen: str) -> str:
    """The screen's text without the code's blocks, its lines joined (wrapped text whole)."""
    return " ".join(re.sub("[▀▄█]", " ", screen).split())


def notice_of(screen: str) -> str:
    """The notification's text, drawn over the screen's right side behind a "▌" edge."""
    return " ".join(line.split("▌", 1)[1].strip() for line in screen.splitlines()
                    if "▌" in line)


def wait_for_words(session: Tmux, said: Callable[[str], bool], what: str,
                   timeout: float = 30.0) -> str:
    """The screen's words (see `words`) once `said` holds for them."""
    deadline = time.monotonic() + timeout
    while not said(shown := words(session.screen())):
        if time.monotonic() > deadline:
            raise AssertionError(f"the screen does not say {what}:\n{session.screen()}")
        time.sleep(0.2)
    return shown


def wait_for_notice(session: Tmux, text: str, timeout: float = 30.0) -> str:
    deadline = time.monotonic() + timeout
    while text not in (notice := notice_of(session.screen())):
        if time.monotonic() > deadline:
            raise AssertionError(f"no notice says {text!r}; the screen:\n{session.screen()}")
        time.sleep(0.2)
    return notice


def order_row(tmp_path: Path) -> sqlite3.Row:
    [journal] = (tmp_path / "demo").glob("*/journal.sqlite3")
    with sqlite3.connect(f"file:{journal}?mode=ro", uri=True) as db:
        db.row_factory = sqlite3.Row
        [row] = db.execute("SELECT app_trans_id, state, kind, amount, order_url, qr_code, "
                           "cashier_id FROM payments").fetchall()
    return row


def codes_on_screen(session: Tmux) -> list[str]:
    """What a phone reads off the pane: every QR code in its picture, read by both of the
    project's decoders (which must agree)."""
    image = picture(session.styled_screen()).convert("L")
    found = [code.text for code in zxingcpp.read_barcodes(
        np.asarray(image), formats=zxingcpp.BarcodeFormat.QRCode)]
    by_zbar = [code.data.decode() for code in pyzbar.decode(image, symbols=[ZBarSymbol.QRCODE])]
    assert by_zbar == found
    return found


def show_an_order(session: Tmux, amount: str) -> str:
    """F5, the amount, Enter: the screen once the order is shown."""
    session.wait_for("service ok")
    session.keys("F5")
    screen = session.wait_for(CREATE_HINT)
    assert "Amount for the customer to pay by phone" in screen
    for digit in amount:
        session.keys(digit)
        time.sleep(0.1)  # a person typing
    session.keys("Enter")
    # drawn with the code, or with no code: the sentence beside it says which
    wait_for_words(session, lambda said: bool(re.search(r"can scan it|No QR code here", said)),
                   "an order shown")
    return session.screen()


def test_at_80x24_the_code_on_screen_scans_and_the_customer_pays_it(tmp_path: Path) -> None:
    session = demo_at(tmp_path, 80, 24)
    try:
        screen = show_an_order(session, "99000")
        row = order_row(tmp_path)
        assert row["kind"] == "gateway" and row["amount"] == 99_000
        vietqr = drawn_size(row["qr_code"])
        if vietqr.height <= BODY_ROWS_AT_24:  # a rare order id makes it version 6 (22 rows)
            assert codes_on_screen(session) == [row["qr_code"]]
            assert "ZaloPay or any banking app can scan it." in words(screen)
        else:
            # The VietQR (mostly version 7: 24 rows with its quiet zone) does not fit the 22
            # rows under the header: the order's page is drawn instead, whole, and the screen
            # says where the other one is.
            assert codes_on_screen(session) == [row["order_url"]]
            assert "ZaloPay can scan it (the order's page)" in words(screen)
            assert (f"needs a window of at least 80×{24 + vietqr.height - BODY_ROWS_AT_24}"
                    in words(screen))
        assert row["cashier_id"] == "lan"  # the demo's signed-in cashier
        assert CREATE_HINT not in screen  # the order is made: Enter makes no other
        # the customer's phone opens the order's page and pays there
        answer = requests.post(f"{row['order_url']}/pay", data={
            "wallet": "an", "bankcode": "zalopayapp"}, allow_redirects=False, timeout=10)
        assert answer.status_code == 303
        session.wait_for("PAID")
        assert order_row(tmp_path)["state"] == "succeeded"
        session.keys("C-q")
    finally:
        session.close()


@pytest.mark.parametrize("width,height", [(80, 34), (120, 40)])
def test_larger_windows_show_the_vietqr_and_esc_says_the_order_is_still_open(
        tmp_path: Path, width: int, height: int) -> None:
    session = demo_at(tmp_path, width, height)
    try:
        screen = show_an_order(session, "45000")
        row = order_row(tmp_path)
        assert codes_on_screen(session) == [row["qr_code"]]
        assert row["qr_code"].startswith("000201010212")
        assert "ZaloPay or any banking app can scan it." in words(screen)
        assert CREATE_HINT not in screen and row["cashier_id"] == "lan"
        session.keys("Escape")
        notice = wait_for_notice(session, "is still open")
        assert f"Order {row['app_trans_id']} (45.000 ₫) is still open" in notice
        assert "the customer can still pay it until about" in notice
        session.wait_for("Amount (type digits")  # back on Sale
        assert order_row(tmp_path)["state"] == "processing"  # still payable, as said
        session.keys("C-q")
    finally:
        session.close()
