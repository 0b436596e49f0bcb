"""F10 names the customer display served beside the UI (the demo, `[api] with_ui`), and says
plainly when there is none."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from pos_terminal.tui.app import PosApp
from tests.tui.helpers import wait_until

pytestmark = pytest.mark.asyncio

URL = "http://127.0.0.1:41234/display"


async def notified_after_f10(app: PosApp) -> list[str]:
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("f10")
        await wait_until(pilot, lambda: bool(pilot.app._notifications), what="a notification")
        return [n.message for n in pilot.app._notifications]


async def test_f10_names_the_display_served_beside_the_ui(
        make_app: Callable[..., PosApp]) -> None:
    [message] = await notified_after_f10(make_app(display_url=URL))
    assert URL in message


async def test_f10_without_a_display_says_so(make_app: Callable[..., PosApp]) -> None:
    [message] = await notified_after_f10(make_app())
    assert message.startswith("No customer display here")
