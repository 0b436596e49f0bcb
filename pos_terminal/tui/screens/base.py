"""What every screen shares: the status header on top, the key hints at the bottom."""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, cast

from textual.app import ComposeResult
from textual.screen import Screen
from textual.widget import Widget
from textual.widgets import Footer

from pos_terminal.tui.widgets.header import StatusHeader

if TYPE_CHECKING:
    from pos_terminal.tui.app import PosApp


class PosScreen(Screen[None]):
    def compose(self) -> ComposeResult:
        settings = self.pos.settings
        yield StatusHeader(settings.service.environment, settings.terminal.terminal_id)
        yield from self.body()
        yield Footer()

    def body(self) -> Iterable[Widget]:
        return ()

    @property
    def pos(self) -> PosApp:
        return cast("PosApp", self.app)

