"""Every `pos-terminal` command against a journal that is damaged, read-only, locked by another
program, or on a full disk: a sentence that names the journal and the next step, a documented
exit code, never a traceback. Commands come from the click app itself, so a new command must be
classified here before this test passes."""

from __future__ import annotations

import contextlib
import os
import shutil
import sqlite3
import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import click
import pytest

from pos_terminal.cli import main
from pos_terminal.cli.common import EXIT_USAGE
from pos_terminal.config import Settings
from pos_terminal.journal import Journal
from tests.e2e.conftest import write_config
from tests.forking_cli import ForkingCli
from tests.processes import child_env, cli_command
from tests.tmpfs import TinyTmpfs

pytestmark = pytest.mark.e2e

TID = "261123_pos_0000000001"
CODE = "123456789012345678"

#: How each command that opens the configured journal is run ("" is `pos-terminal` alone, the UI).
JOURNAL_COMMANDS: dict[str, tuple[str, ...]] = {
    "": (),
    "pay": ("--amount", "1000", "--code", CODE),
    "status": (TID,),
    "reconcile": (),
    "refund": (TID,),
    "override": (TID, "--mark", "failed", "--reason", "portal shows nothing"),
    "journal list": (),
    "journal show": (TID,),
    "journal export": (),
    "journal info": (),
    "journal compact": (),
    "report x": (),
    "report z": (),
    "headless": ("--scanner", "wedge"),
    "receipt": (TID,),
    "cashier add": ("ann", "--name", "Ann", "--pin-stdin"),
    "cashier list": (),
    "cashier remove": ("ann",),
    "cashier unlock": ("ann",),
    "cashier set-pin": ("ann", "--pin-stdin"),
    "cashier events": ("ann",),
    "shift open": ("ann", "--pin-stdin"),
    "shift close": ("ann",),
    "shift list": (),
    "serve": ("--port", "0"),
    "api-token add": ("kassa",),
    "api-token list": (),
    "api-token remove": ("kassa",),
}
#: Commands that read only the cashier or token tables (early pages of the file): damaged
#: payment rows do not stop them (they are checked for no traceback there), every other
#: condition does.
CASHIER_BOOK = {"cashier add", "cashier list", "cashier remove", "cashier unlock",
                "cashier set-pin", "cashier events", "shift open", "shift close", "shift list",
                "api-token add", "api-token list", "api-token remove"}
#: Commands that never open the configured journal (demo uses a temporary one).
NO_JOURNAL = {"demo", "emulator", "banks", "verify-redirect", "verify-callback",
              "register-webhook", "scan-image", "scan"}

#: The next step each condition's message gives.
NEXT_STEP = {
    "damaged": "Move it aside and keep it for inspection",
    "damaged-inside": "Move it aside and keep it for inspection",
    "read-only": "Make the file and its folder writable, then try again",
    "locked": "Close the other pos-terminal (or whatever holds the file) and try again",
    "full": "Free some space, then try again",
}


def _commands(group: click.Group, prefix: str = "") -> list[str]:
    names: list[str] = []
    for name, command in sorted(group.commands.items()):
        path = f"{prefix}{name}"
        if isinstance(command, click.Group):
            names += _commands(command, f"{path} ")
        else:
            names.append(path)
    return names


#: Commands that first need a fleet ledger ([ledger] dsn), which these tests do not configure:
#: without one they stop with "no ledger configured" (exit 2) before reading the journal.
NEEDS_A_LEDGER = {"sync", "fleet disagreements", "fleet migrate", "fleet open", "fleet report",
                  "fleet add-counter", "fleet remove-counter"}


def test_every_command_is_classified() -> None:
    commands = set(_commands(main)) | {""}
    assert commands == set(JOURNAL_COMMANDS) | NO_JOURNAL | NEEDS_A_LEDGER, (
        "classify the new command: add it to JOURNAL_COMMANDS (with arguments), NO_JOURNAL "
        "or NEEDS_A_LEDGER")


def _journal_with_a_payment(path: Path) -> None:
    with Journal.open(path) as journal:
        journal.record_intent(app_trans_id=TID, amount=1000, generation="v2",
                              payment_code=CODE)


def _damaged_inside(path: Path) -> None:
    """A journal whose first pages (the header, the schema, the settings) are intact and whose
    last pages (payment rows) are garbage: it opens, and a read of the rows fails."""
    with Journal.open(path) as journal:
        for n in range(300):
            journal.record_intent(app_trans_id=f"261123_pos_{n:010d}", amount=1000 + n,
                                  generation="v2", description="x" * 200)
    with sqlite3.connect(path) as db:
        db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        page = db.execute("PRAGMA page_size").fetchone()[0]
    data = bytearray(path.read_bytes())
    half = len(data) // page // 2 * page
    data[half:] = os.urandom(len(data) - half)
    path.write_bytes(bytes(data))


#: A condition: its kind, the journal's path, and the CLI run where that path exists (the
#: read-only and full journals are on a tmpfs of another mount namespace: tests/tmpfs.py). One
#: per condition and test module: its commands are forked by one server (tests/forking_cli.py),
#: each as a fresh `pos-terminal` process after its imports, instead of 140 Python starts.
Condition = tuple[str, Path, ForkingCli]


@pytest.fixture(scope="module",
                params=["damaged", "damaged-inside", "read-only", "locked", "full"])
def condition(request: pytest.FixtureRequest,
              tmp_path_factory: pytest.TempPathFactory) -> Iterator[Condition]:
    kind = request.param
    folder = tmp_path_factory.mktemp(kind)
    path = folder / "journal.sqlite3"
    with contextlib.ExitStack() as stack:
        if kind == "damaged":
            path.write_bytes(b"SQLite format 3\x00" + os.urandom(8192))
        elif kind == "damaged-inside":
            _damaged_inside(path)
        elif kind == "locked":
            _journal_with_a_payment(path)
            holder = sqlite3.connect(path, isolation_level=None)
            stack.callback(holder.close)
            holder.execute("PRAGMA locking_mode=EXCLUSIVE")
            holder.execute("BEGIN EXCLUSIVE")  # no reader or writer gets in until it ends
            stack.callback(holder.execute, "ROLLBACK")
        else:
            (folder / "tmpfs").mkdir()
            try:
                tmpfs = TinyTmpfs(folder / "tmpfs")
            except OSError as exc:
                pytest.skip(str(exc))
            stack.callback(tmpfs.close)
            made = folder / "made.sqlite3"
            _journal_with_a_payment(made)
            path = tmpfs.path / "journal.sqlite3"
            shutil.copyfile(made, tmpfs.reach(path))
            if kind == "read-only":
                tmpfs.read_only()
            else:
                tmpfs.fill()
            runner = ForkingCli(child_env(), tmpfs.command)
            stack.callback(runner.close)
            yield kind, path, runner
            return
        runner = ForkingCli(child_env())
        stack.callback(runner.close)
        yield kind, path, runner


@pytest.mark.parametrize("command", sorted(JOURNAL_COMMANDS))
def test_a_journal_problem_is_a_sentence_and_an_exit_code(
        command: str, condition: Condition, settings: Settings, emulator: Any,
        tmp_path: Path) -> None:
    kind, journal, cli = condition
    # A locked journal is waited for journal_wait_s (5 s by default) before the sentence: the
    # shortest wait allowed here, the default's own wait in the test below.
    config = write_config(settings.replace_section("terminal", journal=journal,
                                                   journal_wait_s=0.1), tmp_path / "pos.toml")
    done = cli.run("--config", str(config), *command.split(), *JOURNAL_COMMANDS[command])
    output = done.stdout + done.stderr
    assert "Traceback" not in output, output
    if kind == "damaged-inside" and command in CASHIER_BOOK:
        assert done.returncode in (0, EXIT_USAGE), output
        return
    assert done.returncode == EXIT_USAGE, output
    assert str(journal) in done.stderr, output
    assert NEXT_STEP[kind] in done.stderr, output


@pytest.mark.parametrize("argv", [("journal", "list", "--json"), ("report", "x", "--json"),
                                  ("journal", "show", TID, "--json")])
def test_with_json_a_journal_problem_is_also_one_json_object(
        argv: tuple[str, ...], settings: Settings, tmp_path: Path) -> None:
    """A journal that opens but whose rows are garbage: the error surfaces mid-command."""
    import json

    journal = tmp_path / "journal.sqlite3"
    _damaged_inside(journal)
    config = write_config(settings.replace_section("terminal", journal=journal),
                          tmp_path / "pos.toml")
    done = subprocess.run(cli_command("--config", str(config), *argv), capture_output=True,
                          text=True, env=child_env(), timeout=90, check=False)
    assert done.returncode == EXIT_USAGE, done.stderr
    assert "Traceback" not in done.stderr
    data = json.loads(done.stdout)
    assert str(journal) in data["error"] and data["reason"] == "damaged"


def test_a_journal_held_for_a_moment_is_waited_for(settings: Settings, tmp_path: Path) -> None:
    """Another program holding the journal for two seconds (a backup): a command waits for it
    (journal_wait_s, 5 s by default) and then runs, rather than saying it is locked."""
    import threading

    journal = tmp_path / "journal.sqlite3"
    _journal_with_a_payment(journal)
    config = write_config(settings.replace_section("terminal", journal=journal),
                          tmp_path / "pos.toml")
    holder = sqlite3.connect(journal, isolation_level=None, check_same_thread=False)
    holder.execute("PRAGMA locking_mode=EXCLUSIVE")
    holder.execute("BEGIN EXCLUSIVE")
    released = threading.Timer(2.0, lambda: (holder.execute("ROLLBACK"), holder.close()))
    released.start()
    try:
        done = subprocess.run(cli_command("--config", str(config), "journal", "list"),
                              capture_output=True, text=True, env=child_env(), timeout=90,
                              stdin=subprocess.DEVNULL, check=False)
    finally:
        released.join()
    assert done.returncode == 0, done.stderr
    assert TID in done.stdout
