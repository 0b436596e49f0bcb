"""The money commands are thin modules by resource (issue 22 item 4): each parses its options,
calls a counter service and renders; none is a god module."""

from __future__ import annotations

import importlib.util
import inspect
from pathlib import Path

import click

from pos_terminal import cli
from pos_terminal.cli import main

EXPECTED = {
    "pay": "pos_terminal.cli.pay_cmd",
    "status": "pos_terminal.cli.status_cmds",
    "reconcile": "pos_terminal.cli.status_cmds",
    "refund": "pos_terminal.cli.refund_cmds",
    "override": "pos_terminal.cli.refund_cmds",
    "journal": "pos_terminal.cli.journal_cmds",
    "report": "pos_terminal.cli.report_cmds",
}
MOST_LINES = 300


def _module_of(command: click.Command) -> str:
    if isinstance(command, click.Group):
        return next(_module_of(c) for name, c in command.commands.items()
                    if name not in ("info", "compact"))
    assert command.callback is not None
    return inspect.unwrap(command.callback).__module__


def test_each_money_command_lives_in_the_module_of_its_resource() -> None:
    assert {name: _module_of(main.commands[name]) for name in EXPECTED} == EXPECTED
    assert importlib.util.find_spec("pos_terminal.cli.payment_cmds") is None


def test_no_command_module_is_a_god_module() -> None:
    folder = Path(cli.__file__).parent
    sizes = {f.name: len(f.read_text(encoding="utf-8").splitlines())
             for f in folder.glob("*.py") if f.stem in {m.rsplit(".", 1)[1]
                                                       for m in EXPECTED.values()}}
    assert len(sizes) == 5 and max(sizes.values()) <= MOST_LINES, sizes
