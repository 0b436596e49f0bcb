"""Shared fixtures: a real emulator on loopback and settings pointed at it.

Every test that touches the wallet service talks HTTP to this emulator; nothing is mocked.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import requests

from pos_terminal import sentences  # the renderer, as every front end installs it
from pos_terminal.base import i18n
from pos_terminal.config import Settings, load_settings
from tests.reaper import pytest_configure  # noqa: F401  (the run's mark and watchdog)
from tests.scanners import SerialScanner

# Subprocesses (the CLI, headless mode, the demo in tmux) take their default language from the
# locale: English for the suite, whatever the machine says.
for _name in ("LC_ALL", "LC_MESSAGES", "LANG", "LANGUAGE"):
    os.environ.pop(_name, None)
os.environ["LC_ALL"] = "C.UTF-8"

REPO = Path(__file__).resolve().parent.parent
DEFAULT_CONFIG = REPO / "config" / "default.toml"

# Fast enough for a test suite, slow enough that "processing" is observable by a poller.
EMULATOR_PROCESSING_S = 0.6


@pytest.fixture(autouse=True)
def _english_unless_asked() -> Iterator[None]:
    """Every test starts in English whatever the machine's locale; a test that wants Vietnamese
    sets it (or loads a config with language = "vi")."""
    i18n.set_language("en")
    sentences.use_front_end("screen")  # the CLI's commands run in-process in some tests
    yield
    i18n.set_language("en")
    sentences.use_front_end("screen")


@pytest.fixture(scope="session")
def base_settings() -> Settings:
    """config/default.toml as shipped (the emulator profile)."""
    return load_settings(DEFAULT_CONFIG, env={})


@pytest.fixture(scope="module")
def _emulator_server(base_settings: Settings) -> Iterator[object]:
    from pos_terminal.emulator import start_emulator

    settings = base_settings.replace_section("emulator", processing_s=EMULATOR_PROCESSING_S)
    with start_emulator(settings, host="127.0.0.1", port=0) as server:
        yield server


def reset_emulator(server: Any) -> Any:
    """`server` (a running emulator) back to fresh wallets, no faults, no orders."""
    # a bound for a machine loaded far past its cores (5 s ran out once), not a timing claim
    requests.post(f"{server.base_url}/_emulator/reset", json={}, timeout=60).raise_for_status()
    return server


@pytest.fixture
def scanner() -> Iterator[SerialScanner]:
    """A serial scanner on a pty (`serial:{scanner.path}`), unplugged at the end."""
    device = SerialScanner()
    yield device
    device.close()


@pytest.fixture
def emulator(_emulator_server: object) -> object:
    """The running emulator (base_url, control API), reset to fresh wallets and no faults."""
    return reset_emulator(_emulator_server)


class ProcessingHold:
    """While held, a "processing" payment (wallets binh and chi) or refund stays processing
    until `release()`: a test that must see it still processing (the progress screen, the
    deadline choice, a status query, a process killed while polling) does not race the
    emulator's clock, however loaded the machine is."""

    HELD_S = 3600.0

    def __init__(self, emulator: object) -> None:
        self.books = emulator.control.books  # type: ignore[attr-defined]
        self.books.processing_s = self.HELD_S

    def release(self) -> None:
        """Everything processing settles at the next request; later ones take the usual time."""
        books = self.books
        with books.lock:
            books.processing_s = EMULATOR_PROCESSING_S
            now = books.clock()
            for item in [*books.orders.values(), *books.refunds.values()]:
                if item.state == "processing" and item.resolve_at is not None:
                    item.resolve_at = min(item.resolve_at, now)


@pytest.fixture
def hold_processing(emulator: object) -> Iterator[ProcessingHold]:
    hold = ProcessingHold(emulator)
    try:
        yield hold
    finally:
        hold.books.processing_s = EMULATOR_PROCESSING_S


def _pointed_at(settings: Settings, emulator: object, tmp_path: Path, generation: str) -> Settings:
    base_url = emulator.base_url  # type: ignore[attr-defined]
    settings = settings.replace_service(
        base_url=base_url, gateway_url=base_url, generation=generation, timeout_s=3.0,
        connect_timeout_s=1.0)
    settings = settings.replace_section("terminal", journal=tmp_path / "journal.sqlite3")
    return settings.replace_section(
        "checkout", poll_intervals_s=(0.1, 0.2, 0.3), poll_deadline_s=10.0,
        not_found_grace_s=0.0)


@pytest.fixture
def settings(base_settings: Settings, emulator: object, tmp_path: Path) -> Settings:
    """Current-generation (v2) settings against the test emulator, journal in tmp_path."""
    return _pointed_at(base_settings, emulator, tmp_path, "v2")


@pytest.fixture
def settings_v001(base_settings: Settings, emulator: object, tmp_path: Path) -> Settings:
    """Legacy-generation (v001) settings against the test emulator, journal in tmp_path."""
    return _pointed_at(base_settings, emulator, tmp_path, "v001")


@pytest.fixture(params=["v2", "v001"])
def any_settings(request: pytest.FixtureRequest, base_settings: Settings, emulator: object,
                 tmp_path: Path) -> Settings:
    """Both generations, one test run each."""
    return _pointed_at(base_settings, emulator, tmp_path, request.param)


def with_momo(settings: Settings, emulator: object, **changes: Any) -> Settings:
    """`settings` taking MoMo too: [providers.momo] pointed at the emulator's demo merchant
    (its public key is the emulator's pair, as ZaloPay's is)."""
    from pos_terminal.emulator.momo import service as emulated

    return settings.replace_section(
        "providers.momo", base_url=emulator.base_url,  # type: ignore[attr-defined]
        partner_code=emulated.DEMO_PARTNER_CODE, access_key=emulated.DEMO_ACCESS_KEY,
        secret_key=emulated.DEMO_SECRET_KEY, public_key=settings.service.rsa_public_key,
        store_id="S01", store_name="Cửa hàng thử", connect_timeout_s=1.0, **changes)


@pytest.fixture
def both_settings(settings: Settings, emulator: object) -> Settings:
    """A counter taking ZaloPay and MoMo, both against the test emulator."""
    return with_momo(settings, emulator)


def fresh_code(emulator: object, wallet: str) -> str:
    """A fresh payment code of an emulator wallet (rotated first, as the customer's app shows a
    new one), read from the emulator's control API."""
    base = emulator.base_url  # type: ignore[attr-defined]
    requests.post(f"{base}/_emulator/wallets/{wallet}/rotate", json={},
                  timeout=5).raise_for_status()
    wallets = requests.get(f"{base}/_emulator/wallets", timeout=5).json()["wallets"]
    return next(str(w["code"]) for w in wallets if w["id"] == wallet)
