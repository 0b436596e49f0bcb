"""Listeners of counter events: each is one module with `register(counter)`, which subscribes
its handlers on `counter.bus`. LISTENERS is the wiring: a listener every counter gets is one
line here (docs/architecture.md, "The counter layer")."""

from __future__ import annotations

import importlib
from collections.abc import Iterable
from typing import TYPE_CHECKING, Protocol, cast

if TYPE_CHECKING:
    from pos_terminal.counter.session import Counter

LISTENERS: tuple[str, ...] = (
    "pos_terminal.counter.listeners.receipt_printer",
    "pos_terminal.counter.listeners.speaker",
)


class ListenerModule(Protocol):
    def register(self, counter: Counter) -> None: ...


def attach(counter: Counter, modules: Iterable[str] = LISTENERS) -> None:
    """Import each listener module and let it subscribe."""
    for name in modules:
        cast(ListenerModule, importlib.import_module(name)).register(counter)
