"""End-to-end: the real `pos-terminal` process (stdin/stdout, or a terminal in tmux) against
the in-process emulator of tests/conftest.py, configured through a real TOML file."""

from __future__ import annotations

from pathlib import Path

import pytest
from pydantic import SecretStr

from pos_terminal.config import Settings


def _toml(value: object) -> str:
    if isinstance(value, SecretStr):
        value = value.get_secret_value()
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
                     "app_user": settings.terminal.app_user,
                     "journal_wait_s": settings.terminal.journal_wait_s},
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


@pytest.fixture
def config_file(settings: Settings, tmp_path: Path) -> Path:
    return write_config(settings, tmp_path / "pos.toml")
