"""Running the real `pos-terminal` in a child process from a checkout test: its command line
(the environment is tests.processes.child_env's)."""

from __future__ import annotations

import sys
from pathlib import Path

from tests.processes import child_env as child_env  # where checkout tests have imported it


def cli(config: Path, *args: str) -> list[str]:
    return [sys.executable, "-m", "pos_terminal.cli", *args, "--config", str(config)]
