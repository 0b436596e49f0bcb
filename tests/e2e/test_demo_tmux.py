"""`pos-terminal demo` in a real terminal (tmux): type an amount, Enter, the synthetic camera
shows the demo wallet's code, and the screen says PAID. Keyboard only, as a newcomer does it."""

from __future__ import annotations

import re
import shlex
import shutil
import subprocess
import time
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.processes import REPO, child_env, cli_command, with_child_env

pytestmark = [pytest.mark.e2e,
              pytest.mark.skipif(shutil.which("tmux") is None, reason="needs tmux")]


class Tmux:
    """A tmux server of its own (no ~/.tmux.conf, no other session's environment) running
    `command` in one width x height pane, in an environment written out in full: the pane shows
    the same screen whoever runs the suite, from whatever terminal."""

    def __init__(self, command: list[str], width: int = 80, height: int = 24) -> None:
        self.socket = f"pos-e2e-{uuid.uuid4().hex[:8]}"
        pane = with_child_env(command, TERM="tmux-256color")
        started = self._tmux("new-session", "-d", "-x", str(width), "-y", str(height),
                             "-c", str(REPO), shlex.join(pane))
        if started.returncode != 0:
            raise RuntimeError(f"tmux would not start a session: {started.stderr}")

    def _tmux(self, *args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(["tmux", "-L", self.socket, "-f", "/dev/null", *args],
                              env=child_env(), capture_output=True, text=True, check=False)

    def keys(self, *keys: str) -> None:
        self._tmux("send-keys", *keys).check_returncode()

    def screen(self) -> str:
        return self._tmux("capture-pane", "-p").stdout

    def styled_screen(self) -> str:
        """The pane with its colours, as SGR escape sequences (tests/e2e/pane_picture.py)."""
        return self._tmux("capture-pane", "-p", "-e").stdout

    def wait_for(self, text: str, timeout: float = 30.0) -> str:
        deadline = time.monotonic() + timeout
        while True:
            screen = self.screen()
            if text in screen:
                return screen
            if time.monotonic() > deadline:
                raise AssertionError(f"{text!r} never appeared; the screen:\n{screen}")
            time.sleep(0.2)

    def wait_for_match(self, pattern: str, timeout: float = 30.0) -> str:
        """The screen once `pattern` matches it (a notification may cover a line for a while)."""
        deadline = time.monotonic() + timeout
        while True:
            screen = self.screen()
            if re.search(pattern, screen):
                return screen
            if time.monotonic() > deadline:
                raise AssertionError(f"{pattern!r} never matched; the screen:\n{screen}")
            time.sleep(0.2)

    def close(self) -> None:
        self._tmux("kill-server")


@pytest.fixture
def demo(tmp_path: Path) -> Iterator[Tmux]:
    # English: without --language the demo follows the locale, Vietnamese when it names none
    session = Tmux(cli_command("demo", "--language", "en", "--folder", str(tmp_path / "demo")))
    try:
        yield session
    finally:
        session.close()


def test_demo_takes_a_payment_by_keyboard_alone(demo: Tmux) -> None:
    demo.wait_for("service ok")
    demo.wait_for("Demo: the customer is An Nguyen")
    for digit in "125000":
        demo.keys(digit)
        time.sleep(0.1)  # a person typing (a burst would be taken for a scanner)
    demo.wait_for("125.000 ₫")
    demo.keys("Enter")
    demo.wait_for("Scan the customer's payment code")
    # the whole result: a capture may fall between the result's lines being drawn
    screen = demo.wait_for_match(r"(?s)PAID.*Transaction: |Transaction: .*PAID")
    assert "NOT PAID" not in screen
    demo.wait_for("125.000 ₫")  # the amount, on the result as drawn
    demo.keys("Space")
    demo.wait_for("Amount (type digits")

    # An insufficient-balance wallet: the failure is shown with its cashier sentence.
    for key in ("F9", "F9", "F9"):
        demo.keys(key)
        time.sleep(0.1)
    demo.wait_for("Dung Pham")
    for digit in "9000":
        demo.keys(digit)
        time.sleep(0.1)
    demo.keys("Enter")
    screen = demo.wait_for("NOT PAID")
    assert "9.000 ₫" in screen
    demo.keys("C-q")


def test_the_next_amount_typed_in_one_burst_on_the_result_keeps_every_digit(
        demo: Tmux) -> None:
    """Issue 32, item 4: `send-keys 234567` is one write, the keys less than 20 ms apart as a
    keypad's rollover sends them; the next sale's amount has every digit."""
    demo.wait_for("service ok")
    for digit in "15000":
        demo.keys(digit)
        time.sleep(0.1)
    demo.wait_for("15.000 ₫")
    demo.keys("Enter")
    demo.wait_for("PAID")
    demo.keys("234567")
    demo.wait_for("234.567 ₫")
    demo.keys("Enter")
    demo.wait_for("PAID")
    demo.keys("98765")
    screen = demo.wait_for("98.765 ₫")
    assert "9.765 ₫" not in screen.replace("98.765 ₫", "")


def test_the_cashiers_day_in_the_demo_alone(demo: Tmux, tmp_path: Path) -> None:
    """Issue 32, item 10: the README's "A cashier's day" in `./pos demo` alone. It opens on Sale
    signed in as the demo cashier; R prints (a picture of the slip named on screen); a refund
    asks the demo supervisor's PIN; the CSV export and the slips stay after the demo; F12 closes
    the shift and the sign-in screen names the demo's ids and PINs."""
    screen = demo.wait_for("service ok")
    assert "Nguyễn Thị Lan (F12 sign out)" in screen and "Amount (type digits" in screen
    for digit in "50000":
        demo.keys(digit)
        time.sleep(0.1)
    demo.wait_for("50.000 ₫")
    demo.keys("Enter")
    demo.wait_for("PAID")
    demo.keys("r")
    screen = demo.wait_for("its picture:")
    [picture] = (tmp_path / "demo").glob("*/slips/0001-*.png")
    assert picture.name in screen.replace("\n", "")
    demo.keys("Enter")
    demo.wait_for("Since the last Z: 1 payment")

    demo.keys("F2")
    demo.wait_for("cashier lan")
    demo.keys("Enter")
    demo.wait_for("f Refund")
    demo.keys("f")
    demo.wait_for("can be refunded")
    demo.keys("Enter")
    demo.wait_for("Y: yes, refund")
    demo.keys("y")
    demo.wait_for("Supervisor: Trần Văn Minh (minh)")
    for digit in "9999":
        demo.keys(digit)
        time.sleep(0.1)
    demo.keys("Enter")
    demo.wait_for("50.000 ₫ refunded")
    demo.keys("Escape")
    demo.wait_for("e Export CSV")
    demo.keys("e")
    demo.wait_for("Exported 1 payment")

    demo.keys("Escape")
    demo.wait_for("Since the last Z")
    demo.keys("F3")
    demo.wait_for("X report (day still open)")
    demo.keys("z")
    demo.wait_for("Close the day with a Z report?")
    demo.keys("y")
    demo.wait_for("Z report #1 (day closed)")
    demo.keys("p")
    demo.wait_for("z-1.png")
    demo.keys("Escape")
    demo.wait_for("Since the last Z: 0 payments")

    demo.keys("F12")
    demo.wait_for("SHIFT SETTLEMENT")
    # paid 50.000, refunded 50.000: across the Z (the export's notification may still cover the
    # slip's lines for a few seconds: wait until the line shows)
    screen = demo.wait_for_match(r"Net +0 ₫")
    demo.keys("y")
    screen = demo.wait_for("Sign in to take payments")
    assert "Demo: cashier lan PIN 1111 · supervisor minh PIN 9999" in screen
    demo.keys("C-q")
    deadline = time.monotonic() + 30
    while "Sign in" in demo.screen() and time.monotonic() < deadline:  # until the demo ended
        time.sleep(0.2)
    [run] = (tmp_path / "demo").iterdir()
    assert [p.name for p in sorted(run.glob("*.csv"))] == [
        "payments-" + run.name[:10] + ".csv", "refunds-" + run.name[:10] + ".csv"]
    assert len(list(run.glob("slips/*.png"))) == 2


def test_ui_with_a_usb_scanner_typing_into_the_terminal(config_file: Path,
                                                        emulator: object) -> None:
    """`pos-terminal` (no command, wedge scanner): the code arrives as a burst of keys through
    the real terminal, as a USB scanner in keyboard mode types it."""
    import requests

    session = Tmux(cli_command("--config", str(config_file), "--language", "en"))
    try:
        session.wait_for("service ok")
        for digit in "42000":
            session.keys(digit)
            time.sleep(0.1)
        session.wait_for("42.000 ₫")
        session.keys("Enter")
        session.wait_for("USB scanner ready")
        base = emulator.base_url  # type: ignore[attr-defined]
        requests.post(f"{base}/_emulator/wallets/an/rotate", json={}, timeout=5).raise_for_status()
        wallets = requests.get(f"{base}/_emulator/wallets", timeout=5).json()["wallets"]
        code = next(str(w["code"]) for w in wallets if w["id"] == "an")
        session.keys(code, "Enter")  # one write: the keys arrive as a burst
        screen = session.wait_for("PAID")
        assert "NOT PAID" not in screen and "42.000 ₫" in screen
        charges = requests.get(f"{base}/_emulator/ledger", timeout=5).json()["charges"]
        assert [(c["wallet"], c["amount"]) for c in charges] == [("an", 42000)]
        assert code not in session.screen()
    finally:
        session.close()
