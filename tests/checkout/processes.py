"""Running the real `pos-terminal` in a child process from a test: its command line and
environment (this checkout first on the import path, whatever is installed)."""

from __future__ import annotations

import os
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]


def child_env(**extra: str) -> dict[str, str]:
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(REPO), env.get("PYTHONPATH")]))
    env.update(extra)
    return env


def cli(config: Path, *args: str) -> list[str]:
    return [sys.executable, "-m", "pos_terminal.cli", *args, "--config", str(config)]
