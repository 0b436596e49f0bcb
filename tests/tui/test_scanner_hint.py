"""The Pay screen's scanner status line carries the camera loop's frame-quality hint, in the
words the cashier repeats to the customer. A fake capture device feeds real frames."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from hardware import ReadAcceptor, make_decoder
from hardware.camera_loop import CameraSource
from hardware.render import cluttered_background
from pos_terminal.checkout import Checkout
from pos_terminal.config import Settings
from pos_terminal.counter import Counter
from pos_terminal.tui.app import PosApp
from pos_terminal.tui.screens.pay import PayScreen
from tests.hardware.helpers import StillCamera
from tests.tui.helpers import text_of, type_keys, wait_until

pytestmark = pytest.mark.asyncio


class DarkCamera(StillCamera):
    """A webcam at a dark counter: the same real (dim) frame, 20 times a second, forever."""

    def __init__(self) -> None:
        counter = cluttered_background(np.random.default_rng(5), 640, 480)
        super().__init__((cv2.cvtColor(counter, cv2.COLOR_BGR2GRAY) * 0.15).astype(np.uint8),
                         "camera 0", 20.0)


async def test_pay_screen_tells_the_cashier_the_frames_are_too_dark(
        settings: Settings, checkout: Checkout, key_clock) -> None:
    source = CameraSource("camera:0", DarkCamera(), make_decoder(), ReadAcceptor())
    app = PosApp(settings, Counter(settings, checkout), lambda: source, background=False)
    try:
        async with app.run_test(size=(100, 30)) as pilot:
            await type_keys(pilot, key_clock, *"25000", "enter")
            await wait_until(pilot, lambda: isinstance(pilot.app.screen, PayScreen),
                             what="Pay screen")
            await wait_until(pilot, lambda: text_of(pilot, "#scanner-state").startswith(
                "Too dark: turn up the phone's screen brightness · camera 0: running"),
                what="the too-dark hint on the scanner line")
    finally:
        source.stop()


async def test_the_scanner_line_writes_decimals_the_vietnamese_way(
        settings: Settings, checkout: Checkout, key_clock) -> None:
    """Issue 21, item 7: "giải mã 6,3 ms" in Vietnamese (a decimal comma), not "6.3"."""
    import re

    settings = settings.replace_section("terminal", language="vi")
    source = CameraSource("camera:0", DarkCamera(), make_decoder(), ReadAcceptor())
    app = PosApp(settings, Counter(settings, checkout), lambda: source, background=False)
    try:
        async with app.run_test(size=(100, 30)) as pilot:
            await type_keys(pilot, key_clock, *"25000", "enter")
            await wait_until(pilot, lambda: isinstance(pilot.app.screen, PayScreen),
                             what="Pay screen")
            await wait_until(pilot, lambda: "giải mã" in text_of(pilot, "#scanner-state"),
                             what="the decode time on the scanner line")
            line = text_of(pilot, "#scanner-state")
            assert re.search(r"giải mã \d+,\d ms", line), line
            assert not re.search(r"\d\.\d", line), line
    finally:
        source.stop()
