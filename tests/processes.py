"""Every process a test starts (the CLI, the app, a tmux server and its panes, PostgreSQL) gets
its environment from `child_env()`: built from nothing, not copied from the test run's.

The test run's own environment depends on who runs it and where: a terminal's `LINES` and
`COLUMNS` (pytest imports `readline`, which writes the calling terminal's size into
`os.environ`; an app inheriting them draws 160 columns into an 80-column tmux pane), `TERM`, the
user's locale, proxies, `PG*` variables, `POS_*` secrets. None of it may change what a test
sees, so only the few variables a process needs to run at all pass through, and the rest is set
on purpose here.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]

#: What passes through from the test run: where programs are, whose home, where temporary
#: files go, and the run's mark (tests/reaper.py: what the run started is stopped with it).
#: Nothing about the terminal, the locale or the configuration.
PASSED_THROUGH = ("PATH", "HOME", "USER", "LOGNAME", "TMPDIR", "POS_TESTS_RUN")

#: Set on purpose for every child: English messages in UTF-8 (tests that want another language
#: or locale pass it), a terminal type every tmux and terminfo knows, this checkout first on the
#: import path whatever is installed.
EXPLICIT = {
    "LANG": "C.UTF-8",
    "LC_ALL": "C.UTF-8",
    "TERM": "xterm-256color",
    "PYTHONPATH": str(REPO),
}


def child_env(**extra: str) -> dict[str, str]:
    """The environment of a child process: PASSED_THROUGH, EXPLICIT, then `extra`."""
    env = {name: os.environ[name] for name in PASSED_THROUGH if name in os.environ}
    env.setdefault("PATH", "/usr/local/bin:/usr/bin:/bin")
    env.update(EXPLICIT)
    env.update(extra)
    return env


def with_child_env(argv: list[str], **extra: str) -> list[str]:
    """`argv` run with exactly child_env(**extra), whatever environment starts it (a tmux pane's
    command inherits the tmux server's): `env -i NAME=VALUE... ARGV`."""
    return ["env", "-i", *(f"{k}={v}" for k, v in child_env(**extra).items()), *argv]


def cli_command(*args: str) -> list[str]:
    """`pos-terminal ARGS...` from this checkout, run by the test run's Python."""
    return [sys.executable, "-m", "pos_terminal.cli", *args]


def cli(config: Path, *args: str) -> list[str]:
    """`pos-terminal ARGS... --config CONFIG`."""
    return cli_command(*args, "--config", str(config))
