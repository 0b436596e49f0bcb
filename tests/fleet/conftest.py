"""A real PostgreSQL server for the fleet tests (started once per test session and worker),
a fresh database per test, and terminals (settings + journal) paying against the emulator.

PostgreSQL missing is an error, not a skip: `make test` installs it (TEST_DEBS)."""

from __future__ import annotations

import secrets
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import psycopg
import pytest

from pos_terminal.config import Settings
from tests.conftest import _pointed_at
from tests.fleet.pgserver import PgServer


@pytest.fixture(scope="session")
def pg() -> Iterator[PgServer]:
    server = PgServer(fsync=False)  # PostgresMissing fails the tests with what to install
    server.start()
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture
def ledger_dsn(pg: PgServer) -> str:
    """A fresh, empty database on the session's server; its DSN (with the password)."""
    name = f"ledger_{secrets.token_hex(4)}"
    with psycopg.connect(pg.dsn, autocommit=True) as conn:
        conn.execute(f"CREATE DATABASE {name}")
    return pg.dsn.replace("/postgres?", f"/{name}?")


def terminal(base_settings: Settings, emulator: Any, tmp_path: Path, terminal_id: str,
             dsn: str, **ledger: Any) -> Settings:
    """Settings of one counter: its own journal, its terminal id, the test ledger."""
    folder = tmp_path / terminal_id
    folder.mkdir(exist_ok=True)
    settings = _pointed_at(base_settings, emulator, folder, "v2")
    settings = settings.replace_section("terminal", terminal_id=terminal_id,
                                        app_user=f"cashier-{terminal_id.lower()}")
    settings = settings.model_copy(update={"terminal_id_set": True})
    return settings.replace_section("ledger", dsn=dsn, **ledger)


@pytest.fixture
def make_terminal(base_settings: Settings, emulator: Any, tmp_path: Path,
                  ledger_dsn: str) -> Any:
    def make(terminal_id: str, **ledger: Any) -> Settings:
        return terminal(base_settings, emulator, tmp_path, terminal_id, ledger_dsn, **ledger)

    return make
