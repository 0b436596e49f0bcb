"""Issue 43, what a cashier met in the first hour (README, tmux 80x24): each screen says what
it does, in the reader's language, whole at 80 columns; checked on the real App (Pilot) as the
terminal draws it."""

from __future__ import annotations

import colorsys

import pytest
from rich.segment import Segment
from textual.color import Color
from textual.pilot import Pilot

from tests.tui.helpers import wait_until

pytestmark = pytest.mark.asyncio


def drawn_background(pilot: Pilot, text: str) -> tuple[int, int, int]:
    """The background colour the terminal is sent for the first cell of `text` on screen: the
    screen's lines through the App's own line filters (its ANSI theme), as the driver writes
    them."""
    app = pilot.app
    background = Color.parse("black")
    for strip in app.screen._compositor.render_strips():
        for line_filter in app.get_line_filters():
            strip = strip.apply_filter(line_filter, background)
        segments: list[Segment] = list(strip)
        for segment in segments:
            if text in segment.text and segment.style and segment.style.bgcolor:
                triplet = segment.style.bgcolor.get_truecolor()
                return triplet.red, triplet.green, triplet.blue
    raise AssertionError(f"{text!r} is not on screen")


def hue_degrees(rgb: tuple[int, int, int]) -> float:
    hue, _light, _saturation = colorsys.rgb_to_hls(*(c / 255 for c in rgb))
    return hue * 360


async def test_the_emulator_badge_is_blue_as_the_readme_says(make_app) -> None:
    """README: "the header shows a blue EMULATOR badge"; Textual's own theme drew ansi_blue
    purple (157, 101, 255)."""
    async with make_app().run_test(size=(80, 24)) as pilot:
        await wait_until(pilot, lambda: bool(pilot.app.screen.query(".badge")), what="header")
        await pilot.pause()
        rgb = drawn_background(pilot, "EMULATOR")
        assert 200 <= hue_degrees(rgb) <= 230, rgb  # blue, not violet (~260) nor cyan (~180)
