"""The Terminal API for real: uvicorn on a free loopback port over a counter whose journal is a
real SQLite file, charging the test emulator over HTTP."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

import pytest
import requests

from pos_terminal.api.server import ApiServer, Binding, open_terminal
from pos_terminal.config import Settings
from pos_terminal.counter import Counter, Scanner, open_counter, source_factory
from pos_terminal.counter.admin import ApiTokens
from tests.checkout.conftest import wait_until
from tests.conftest import fresh_code
from tests.e2e.conftest import config_file

__all__ = ["Api", "config_file", "start_api", "wait_until"]


@dataclass
class Api:
    url: str
    token: str
    counter: Counter
    emulator: Any
    server: ApiServer

    @property
    def auth(self) -> dict[str, str]:
        return {"Authorization": f"Bearer {self.token}"}

    def post(self, path: str, body: object, **kwargs: Any) -> requests.Response:
        kwargs.setdefault("timeout", 30)
        return requests.post(self.url + path, json=body, headers=self.auth, **kwargs)

    def get(self, path: str, **kwargs: Any) -> requests.Response:
        kwargs.setdefault("timeout", 30)
        return requests.get(self.url + path, headers=self.auth, **kwargs)

    def add_token(self, name: str, *scopes: str, authorised_by: str | None = None) -> str:
        token, _row = ApiTokens(self.counter.journal).add(
            name, scopes or ("pay", "refund", "reports"), authorised_by=authorised_by)
        return token

    def charges(self) -> int:
        """Quick-pay orders the wallet service has seen (each one a charge attempt)."""
        books = self.emulator.control.books
        with books.lock:
            return len(books.orders)

    def wallet_code(self, wallet: str = "an") -> str:
        """A fresh payment code of an emulator wallet (what the customer's app shows)."""
        return fresh_code(self.emulator, wallet)


def start_api(settings: Settings, emulator: object, scanner_spec: str | None = None,
              token_name: str = "pos") -> tuple[Api, Callable[[], None]]:
    """A server over a fresh counter (with the scanner of `scanner_spec`, if any)."""
    counter = open_counter(settings)
    token, _row = ApiTokens(counter.journal).add(token_name)
    scanner = None
    if scanner_spec is not None:
        source = source_factory(settings, scanner_spec)()
        assert source is not None
        scanner = Scanner(source, counter)
        scanner.start(paused=True)
    server = ApiServer(open_terminal(counter, scanner, scan_timeout_s=20),
                       Binding("127.0.0.1", 0)).start()

    def stop() -> None:
        server.stop()
        if scanner is not None:
            scanner.stop()
        counter.close()

    return Api(server.url, token, counter, emulator, server), stop


@pytest.fixture
def api(settings: Settings, emulator: object) -> Iterator[Api]:
    running, stop = start_api(settings, emulator)
    try:
        yield running
    finally:
        stop()
