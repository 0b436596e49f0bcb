"""The CLI run in this process (click's runner) over a configuration file of the test's."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner, Result

from pos_terminal.cli import main
from pos_terminal.config import Settings
from tests.checkout.conftest import write_config

Run = Callable[..., Result]


def runner_for(config: Path) -> Run:
    """`run(*args, stdin=None)`: `pos-terminal ARGS... --config CONFIG`, its Result."""
    runner = CliRunner()

    def run(*args: str, stdin: str | None = None) -> Result:
        return runner.invoke(main, [*args, "--config", str(config)], input=stdin,
                             catch_exceptions=False)

    return run


@pytest.fixture
def cli(settings: Settings, tmp_path: Path) -> Any:
    """Every command, over `settings` written to a file."""
    return runner_for(write_config(settings, tmp_path / "pos.toml"))
