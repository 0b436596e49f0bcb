"""What every screen shares: the status header on top, the key hints at the bottom."""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, cast

from textual import events
from textual.app import ComposeResult
from textual.screen import Screen
from textual.widget import Widget
from textual.widgets import Footer

from pos_terminal.tui.widgets.header import StatusHeader

if TYPE_CHECKING:
    from pos_terminal.tui.app import PosApp


COMPACT_FOOTER_BELOW = 100  # columns: narrower terminals (80x24) get the compact footer


class PosScreen(Screen[None]):
    def compose(self) -> ComposeResult:
        settings = self.pos.settings
        yield StatusHeader(settings.service.environment, settings.terminal.terminal_id)
        yield from self.body()
        yield Footer(compact=self.app.size.width < COMPACT_FOOTER_BELOW)

    def on_resize(self, event: events.Resize) -> None:
        # Every key hint, Quit included, must fit on one line at 80 columns.
        for footer in self.query(Footer):
            footer.compact = event.size.width < COMPACT_FOOTER_BELOW

    def body(self) -> Iterable[Widget]:
        return ()

    @property
    def pos(self) -> PosApp:
        return cast("PosApp", self.app)

