"""Issue 32, item 11: every command the program suggests can be run as written. The hints a
refused `cashier add` prints are followed to the letter; every `pos-terminal ...` command named
in a message (the catalogs' msgids and the code's own texts) parses: its options exist."""

from __future__ import annotations

import re
import shlex
from pathlib import Path
from typing import Any

import click
import pytest
from babel.messages.pofile import read_po

from pos_terminal.cli import main

REPO = Path(__file__).resolve().parents[2]
COMMAND = re.compile(r"`(pos-terminal [^`]+)`")
#: what a placeholder in a hint stands for when it is followed
EXAMPLES = {"ID": "c9", "NAME": "Chi", "BOSS": "boss"}


def _suggested_commands() -> set[str]:
    found: set[str] = set()
    for catalog in (REPO / "pos_terminal/locale/vi/LC_MESSAGES").glob("*.po"):
        with catalog.open("rb") as handle:
            for message in read_po(handle):
                for text in (message.id if isinstance(message.id, tuple) else (message.id,)):
                    found.update(COMMAND.findall(text or ""))
    for source in (REPO / "pos_terminal").rglob("*.py"):  # texts not translated (yet)
        found.update(hint for hint in COMMAND.findall(source.read_text("utf-8"))
                     if not set(hint) & set('"|\n') and "..." not in hint)
    return found


def _args(hint: str) -> list[str]:
    words = shlex.split(re.sub(r"\{[a-z_]+\}", "x1", hint))[1:]
    return [EXAMPLES.get(word, word) for word in words if word != "..."]


def _parse(args: list[str]) -> click.Command:
    """What click does with `args` before running anything: unknown options, missing
    arguments and extra ones are refused here (click.UsageError)."""
    command: click.Command = main
    context = command.make_context("pos-terminal", list(args))
    while isinstance(command, click.Group):
        name, sub, rest = command.resolve_command(context, [*context._protected_args,
                                                            *context.args])
        assert sub is not None and name is not None
        context = sub.make_context(name, rest, parent=context)
        command = sub
    return command


def test_the_program_suggests_commands() -> None:
    assert "pos-terminal cashier add ID --name NAME --supervisor" in _suggested_commands()


@pytest.mark.parametrize("hint", sorted(_suggested_commands()))
def test_every_suggested_command_parses(hint: str) -> None:
    try:
        _parse(_args(hint))
    except click.MissingParameter as exc:
        # a message that names a command (`pos-terminal status` lists them) gives no argument
        if not isinstance(exc.param, click.Argument) or len(_args(hint)) > 2:
            pytest.fail(f"`{hint}` does not run: {exc.format_message()}")
    except click.UsageError as exc:
        pytest.fail(f"`{hint}` does not run: {exc.format_message()}")


def test_the_hints_of_a_refused_cashier_add_are_followed_as_written(cli: Any) -> None:
    """No supervisor yet: the warning names the command that adds one; then a supervisor is
    needed, and the refusal names the option to give (`--by ID`: `--supervisor` is the flag
    that makes the new one a supervisor)."""
    first = cli("cashier", "add", "lan", "--name", "Lan", "--pin-stdin", stdin="2468\n")
    assert first.exit_code == 0, first.stderr
    suggested = COMMAND.search(first.stderr)
    assert suggested is not None, first.stderr
    add_boss = _args(suggested.group(1).replace("ID", "boss"))
    assert add_boss[:2] == ["cashier", "add"]
    done = cli(*add_boss, "--pin-stdin", stdin="9753\n")
    assert done.exit_code == 0, done.stderr

    refused = cli("cashier", "add", "ann", "--name", "Ann", "--pin-stdin", stdin="1357\n")
    assert refused.exit_code == 2
    option = re.search(r"add (--[a-z-]+) ID", refused.stderr)
    assert option is not None, refused.stderr
    followed = cli("cashier", "add", "ann", "--name", "Ann", option.group(1), "boss",
                   "--pin-stdin", stdin="9753\n1357\n")
    assert followed.exit_code == 0, followed.stderr
    assert "added cashier ann (Ann)" in followed.stdout


def test_the_refusal_of_a_refund_names_its_own_option(cli: Any) -> None:
    assert cli("cashier", "add", "boss", "--name", "Boss", "--supervisor", "--pin-stdin",
               stdin="9753\n").exit_code == 0
    refused = cli("refund", "261128_counter1_x", "--pin-stdin", stdin="9753\n")
    assert refused.exit_code == 2
    assert "add --supervisor ID" in refused.stderr
