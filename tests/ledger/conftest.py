"""A real PostgreSQL server for the fleet tests (started once per test session and worker,
TLS verified against a CA the tests make), a fresh database per test migrated by its owner, and
terminals (settings + journal + their own ledger login) paying against the emulator.

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
from tests.ledger.logins import counter_login, migrate
from tests.ledger.pgserver import PgServer


@pytest.fixture(scope="session")
def pg() -> Iterator[PgServer]:
    with PgServer(fsync=False, in_memory=True) as server:  # PostgresMissing: what to install
        yield server


@pytest.fixture
def empty_ledger_dsn(pg: PgServer) -> str:
    """A fresh, empty database on the session's server; its owner's DSN (with the password)."""
    name = f"ledger_{secrets.token_hex(4)}"
    with psycopg.connect(pg.dsn, autocommit=True) as conn:
        conn.execute(f"CREATE DATABASE {name}")
    return pg.dsn.replace("/postgres?", f"/{name}?")


@pytest.fixture
def ledger_dsn(empty_ledger_dsn: str) -> str:
    """That database migrated by its owner (`fleet migrate`); the owner's DSN: head office's
    login."""
    migrate(empty_ledger_dsn)
    return empty_ledger_dsn


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
def make_terminal(base_settings: Settings, emulator: Any, tmp_path: Path, ledger_dsn: str,
                  pg: PgServer) -> Any:
    """A counter with its own ledger login (made once per terminal id) and the test CA."""
    logins: dict[str, str] = {}

    def make(terminal_id: str, **ledger: Any) -> Settings:
        if terminal_id not in logins:
            logins[terminal_id] = counter_login(ledger_dsn, terminal_id)
        return terminal(base_settings, emulator, tmp_path, terminal_id, logins[terminal_id],
                        **{"ca_file": pg.ca_file, **ledger})

    return make
