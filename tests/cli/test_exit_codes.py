"""Issue 22 item 5 (part): one exit-code table for every command, one meaning a number."""

from __future__ import annotations

import importlib
import pkgutil
import re
from pathlib import Path

import pos_terminal.cli
from pos_terminal.base.errors import ExitCode

DOCS = Path(__file__).resolve().parents[2] / "docs" / "commands.md"


def test_every_exit_constant_of_every_command_is_the_one_table() -> None:
    seen: dict[str, int] = {}
    for info in pkgutil.iter_modules(pos_terminal.cli.__path__):
        if info.name == "__main__":
            continue
        module = importlib.import_module(f"pos_terminal.cli.{info.name}")
        for name, value in vars(module).items():
            if re.fullmatch(r"EXIT_[A-Z_]+", name) and isinstance(value, int):
                assert isinstance(value, ExitCode), f"{info.name}.{name} = {value!r}"
                seen[f"{info.name}.{name}"] = value
    assert seen["fleet_cmds.EXIT_UNREACHABLE"] == seen["cashier_cmds.EXIT_PRINTER"] == (
        ExitCode.UNREACHABLE)  # one meaning: a printer or the ledger did not answer
    assert len({int(c) for c in ExitCode}) == len(ExitCode) == 6


def test_the_table_is_documented() -> None:
    text = DOCS.read_text(encoding="utf-8")
    for code in ExitCode:
        assert f"| {int(code)} | `{code.name}` |" in text
