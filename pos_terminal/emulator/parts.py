"""A wallet's part of the emulator, mounted from the wallet's declaration (wallet_registry):
the server builds no wallet by hand.

A part is an `EmulatorPart`: given the application and what every part shares (the emulator's
options, the fault book), `mount` adds its routes and returns its `PartService` (its demo
customers' codes, its reset). The mounted services are kept under `PARTS_KEY`, by wallet name:
the control API, the pages and the tests reach each wallet's state there.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Protocol

from aiohttp import web

from pos_terminal import wallet_registry
from pos_terminal.emulator.faults import FaultBook
from pos_terminal.emulator.options import EmulatorOptions

JSON = dict[str, Any]


class PartService(Protocol):
    """A mounted part's state, as the emulator's control API and pages use it."""

    def issue_code(self, customer_id: str) -> str: ...
    def customers_json(self) -> list[JSON]: ...
    def reset(self) -> None: ...


@dataclass(frozen=True)
class PartContext:
    """What every part is mounted with."""

    options: EmulatorOptions
    faults: FaultBook


class EmulatorPart(Protocol):
    def mount(self, app: web.Application, context: PartContext) -> PartService: ...


PARTS_KEY: web.AppKey[dict[str, PartService]] = web.AppKey("wallet_parts", dict)


def mount_all(app: web.Application, context: PartContext) -> Mapping[str, PartService]:
    """Mount every registered wallet's part (the registry's order) and keep its service."""
    mounted: dict[str, PartService] = {}
    for name, declared in wallet_registry.wallets().items():
        if declared.emulator is not None:
            part: EmulatorPart = wallet_registry.resolve(declared.emulator)
            mounted[name] = part.mount(app, context)
    app[PARTS_KEY] = mounted
    return mounted
