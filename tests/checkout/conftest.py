"""Helpers for checkout tests: the emulator's control API over HTTP, and a tiny real tmpfs."""

from __future__ import annotations

import sqlite3
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
import requests
from pydantic import SecretStr

from pos_terminal import wallet_registry
from pos_terminal.journal import Journal
from tests.tmpfs import TinyTmpfs

# Starting balances of the emulator's wallets (stable: the demo and the tests rely on them).
BALANCES = {"an": 50_000_000, "binh": 20_000_000, "chi": 20_000_000, "dung": 0}


def base(emulator: Any) -> str:
    return str(emulator.base_url)


def wallet_code(emulator: Any, wallet: str) -> str:
    wallets = requests.get(f"{base(emulator)}/_emulator/wallets", timeout=5).json()["wallets"]
    return next(w["code"] for w in wallets if w["id"] == wallet)


def ledger(emulator: Any) -> dict[str, Any]:
    answer = requests.get(f"{base(emulator)}/_emulator/ledger", timeout=5)
    answer.raise_for_status()
    data: dict[str, Any] = answer.json()
    return data


def charged(emulator: Any, app_trans_id: str) -> list[dict[str, Any]]:
    """The emulator's successful charges for one order (what "charged once" is proven by)."""
    return [c for c in ledger(emulator)["charges"]
            if c["app_trans_id"] == app_trans_id and c["state"] == "succeeded"]


def add_fault(emulator: Any, **rule: Any) -> None:
    answer = requests.post(f"{base(emulator)}/_emulator/faults", json=rule, timeout=5)
    assert answer.status_code == 200, answer.text


def quick_pay_requests(emulator: Any) -> int:
    return int(ledger(emulator)["requests"].get("quick_pay", 0))


def journal_and_holder(settings: Any) -> tuple[Journal, sqlite3.Connection]:
    """The test's journal opened with a short busy timeout, and a second connection to the same
    file (usable from another thread) that can lock it with BEGIN EXCLUSIVE mid-payment."""
    journal = Journal.open(settings.terminal.journal, busy_timeout_s=0.2)
    holder = sqlite3.connect(settings.terminal.journal, isolation_level=None,
                             check_same_thread=False)
    return journal, holder


@pytest.fixture
def tiny_tmpfs(tmp_path: Path) -> Iterator[TinyTmpfs]:
    """A real 512 KiB tmpfs, for any user: in a mount namespace of its own (tests/tmpfs.py), so
    the programs that use it are started through its `command()`."""
    mount = tmp_path / "tmpfs"
    mount.mkdir()
    try:
        tmpfs = TinyTmpfs(mount)
    except OSError as exc:
        pytest.skip(str(exc))
    try:
        yield tmpfs
    finally:
        tmpfs.close()


def write_config(settings: Any, path: Path, **checkout: Any) -> Path:
    """A TOML file for a subprocess or a CLI run, carrying what `settings` points at."""
    sv, term, co = settings.service, settings.terminal, settings.checkout
    values = {
        "poll_intervals_s": list(co.poll_intervals_s),
        "poll_deadline_s": co.poll_deadline_s,
        "not_found_grace_s": co.not_found_grace_s,
        **checkout,
    }

    def toml(value: Any) -> str:
        if isinstance(value, str | Path):
            return '"' + str(value).replace("\\", "\\\\").replace('"', '\\"') + '"'
        if isinstance(value, list):
            return "[" + ", ".join(toml(v) for v in value) + "]"
        return str(value).lower() if isinstance(value, bool) else str(value)

    lines = [
        "[service]",
        f"generation = {toml(sv.generation)}",
        f"base_url = {toml(sv.base_url)}",
        f"gateway_url = {toml(sv.gateway_url)}",
        f"app_id = {sv.app_id}",
        f"key1 = {toml(sv.key1.get_secret_value())}",
        f"key2 = {toml(sv.key2.get_secret_value())}",
        f"rsa_public_key = {toml(sv.rsa_public_key)}",
        f"timeout_s = {sv.timeout_s}",
        f"connect_timeout_s = {sv.connect_timeout_s}",
        'environment = "emulator"',
        "",
        "[terminal]",
        f"journal = {toml(term.journal)}",
        f"app_user = {toml(term.app_user)}",
        "",
        "[checkout]",
        *(f"{key} = {toml(value)}" for key, value in values.items()),
        "",
        "[emulator]",
        f"private_key = {toml(settings.emulator.private_key)}",
        "",
    ]
    for declared in wallet_registry.wallets().values():  # a counter taking other wallets too
        key = declared.providers_key
        table = getattr(settings.providers, key) if key is not None else None
        if table is not None:
            lines += [f"[providers.{key}]", *(
                f"{name} = {toml(_revealed(getattr(table, name)))}"
                for name, value in table.model_dump().items() if value is not None), ""]
    path.write_text("\n".join(lines), encoding="utf-8")
    return path


def _revealed(value: object) -> object:
    return value.get_secret_value() if isinstance(value, SecretStr) else value


def wait_until(what: str, check: Callable[[], object], timeout_s: float = 30) -> None:
    """Poll `check` until it is true; fail naming `what` after `timeout_s`."""
    end = time.monotonic() + timeout_s
    while not check():
        if time.monotonic() > end:
            raise AssertionError(f"timed out waiting for {what}")
        time.sleep(0.05)
