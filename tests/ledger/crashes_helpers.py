"""Config files and `pos-terminal` subprocesses for the fleet tests."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from pos_terminal.config import Settings
from tests.conftest import DEFAULT_CONFIG
from tests.processes import child_env


def write_config(settings: Settings, path: Path, *, dsn: str | None) -> Path:
    """A config file for a `pos-terminal` subprocess: the emulator profile's [service], this
    counter's [terminal] and, unless the DSN comes from the environment, [ledger] dsn."""
    service = DEFAULT_CONFIG.read_text("utf-8").split("[terminal]")[0]
    text = (f"{service}\n[terminal]\njournal = \"{settings.terminal.journal}\"\n"
            f"app_user = \"{settings.terminal.app_user}\"\n"
            f"terminal_id = \"{settings.terminal.terminal_id}\"\n\n[ledger]\n"
            f"batch_size = {settings.ledger.batch_size}\n")
    if settings.ledger.ca_file is not None:
        text += f"ca_file = \"{settings.ledger.ca_file}\"\n"
    if dsn is not None:
        text += f"dsn = \"{dsn}\"\n"
    path.write_text(text, encoding="utf-8")
    path.chmod(0o600)
    return path


def run_sync(config: Path, env: dict[str, str] | None = None,
             timeout: float = 60) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "pos_terminal", "sync", "--config", str(config)],
                          env=child_env(**(env or {})), capture_output=True, text=True,
                          timeout=timeout, check=False)


def run_cli(command: str, config: Path, *args: str, env: dict[str, str] | None = None,
            timeout: float = 60) -> subprocess.CompletedProcess[str]:
    """`pos-terminal COMMAND --config FILE ARGS...` (e.g. "fleet", config, "report")."""
    return subprocess.run([sys.executable, "-m", "pos_terminal", command, "--config",
                           str(config), *args], env=child_env(**(env or {})),
                          capture_output=True, text=True, timeout=timeout, check=False)
