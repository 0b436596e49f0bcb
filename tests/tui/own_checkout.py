"""An app whose counter runs on a Checkout of its own settings (a short deadline, a probed
service), instead of the test's shared checkout fixture."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager

from pos_terminal.checkout import Checkout
from pos_terminal.config import Settings
from pos_terminal.counter import Counter, open_checkout
from pos_terminal.tui.app import PosApp


def polling(settings: Settings, deadline_s: float) -> Settings:
    """`settings` whose checkout polls every 0.1 s and gives up waiting after `deadline_s`."""
    return settings.replace_section("checkout", poll_deadline_s=deadline_s,
                                    poll_intervals_s=(0.1,))


@contextmanager
def app_on_own_checkout(make_app: Callable[..., PosApp],
                        settings: Settings) -> Iterator[tuple[PosApp, Checkout]]:
    """The app (from the make_app fixture) and its Checkout, both on `settings`; the Checkout
    is closed on leaving."""
    with open_checkout(settings) as engine:
        app = make_app(settings=settings)
        app.counter = Counter(settings, engine)
        yield app, engine
