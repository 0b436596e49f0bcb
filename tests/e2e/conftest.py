"""End-to-end: the real `pos-terminal` process (stdin/stdout, or a terminal in tmux) against
the in-process emulator of tests/conftest.py, configured through a real TOML file."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest

from pos_terminal.config import Settings

REPO = Path(__file__).resolve().parents[2]


def _toml(value: object) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int | float):
        return repr(value)
    if isinstance(value, tuple | list):
        return "[" + ", ".join(_toml(v) for v in value) + "]"
    return '"' + str(value).replace("\\", "\\\\").replace('"', '\\"') + '"'


def write_config(settings: Settings, path: Path, **checkout: object) -> Path:
    """A configuration file equal to `settings` (the fields a file may set)."""
    service = settings.service.model_dump()
    sections = {
        "service": service,
        "terminal": {"journal": str(settings.terminal.journal),
                     "app_user": settings.terminal.app_user},
        "checkout": {**settings.checkout.model_dump(), **checkout},
        "scanner": settings.scanner.model_dump(),
        "emulator": {**settings.emulator.model_dump(),
                     "private_key": str(settings.emulator.private_key)},
        "ui": settings.ui.model_dump(),
    }
    lines: list[str] = []
    for name, values in sections.items():
        lines.append(f"[{name}]")
        lines += [f"{key} = {_toml(value)}" for key, value in values.items() if value != ""]
        lines.append("")
    path.write_text("\n".join(lines), encoding="utf-8")
    path.chmod(0o600)
    return path


def cli_command(*args: str) -> list[str]:
    return [sys.executable, "-m", "pos_terminal.cli", *args]


def cli_env() -> dict[str, str]:
    env = dict(os.environ)
    env["PYTHONPATH"] = str(REPO) + os.pathsep + env.get("PYTHONPATH", "")
    env.pop("POS_KEY1", None)
    env.pop("POS_KEY2", None)
    env.pop("POS_RSA_PUBLIC_KEY", None)
    return env


@pytest.fixture
def config_file(settings: Settings, tmp_path: Path) -> Path:
    return write_config(settings, tmp_path / "pos.toml")
