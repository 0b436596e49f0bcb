"""What the API's handlers share: the counter, its sale desk, the event feed, the tokens."""

from __future__ import annotations

from dataclasses import dataclass

from fastapi import Request

from pos_terminal.api.events import EventFeed
from pos_terminal.config import Settings
from pos_terminal.counter import Counter
from pos_terminal.counter.admin import ApiTokens
from pos_terminal.counter.sales import SaleDesk


@dataclass
class Terminal:
    counter: Counter
    desk: SaleDesk
    feed: EventFeed
    tokens: ApiTokens

    @property
    def settings(self) -> Settings:
        return self.counter.settings


def terminal_of(request: Request) -> Terminal:
    terminal = request.app.state.terminal
    assert isinstance(terminal, Terminal)
    return terminal
