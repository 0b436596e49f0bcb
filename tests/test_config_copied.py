"""config/default.toml copied to another folder works as it is (the emulator's key is built in;
a relative path is read from the file's own folder), and a path that names no file is one
sentence naming the file and the key, exit 2, for every command that reads it."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest
import requests

from tests.processes import REPO, child_env, cli_command


def copied(tmp_path: Path, extra: str = "") -> Path:
    folder = tmp_path / "elsewhere"
    folder.mkdir()
    config = folder / "pos.toml"
    shutil.copyfile(REPO / "config" / "default.toml", config)
    text = config.read_text("utf-8").replace(
        "~/.local/share/pos-terminal/journal.sqlite3", "journal.sqlite3")
    config.write_text(text + extra, "utf-8")
    config.chmod(0o600)
    return config


def test_a_copy_of_the_default_profile_serves_the_emulator(tmp_path: Path) -> None:
    config = copied(tmp_path)
    proc = subprocess.Popen(cli_command("--config", str(config), "emulator", "--port", "0"),
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            env=child_env(), cwd=tmp_path)
    try:
        assert proc.stdout is not None
        line = proc.stdout.readline()
        assert line.startswith("wallet emulator listening on "), (line, proc.stderr)
        base = line.split()[-1]
        wallets = requests.get(base + "/_emulator/wallets", timeout=10).json()["wallets"]
        assert wallets
    finally:
        proc.terminate()
        proc.wait(30)


def test_a_copy_reads_a_relative_journal_from_its_own_folder(tmp_path: Path) -> None:
    config = copied(tmp_path)
    listed = subprocess.run(cli_command("--config", str(config), "journal", "list"),
                            capture_output=True, text=True, env=child_env(), cwd=REPO,
                            timeout=60)
    assert listed.returncode == 0, listed.stderr
    assert (config.parent / "journal.sqlite3").exists()


@pytest.mark.parametrize("command", [("emulator", "--port", "0"), ("banks",),
                                     ("demo", "--folder", "DEMO")])
def test_a_private_key_that_is_not_there_is_one_sentence(tmp_path: Path,
                                                         command: tuple[str, ...]) -> None:
    config = copied(tmp_path, '\n[emulator]\nprivate_key = "keys/emulator.pem"\n')
    args = [str(tmp_path / "demo") if a == "DEMO" else a for a in command]
    proc = subprocess.run(cli_command("--config", str(config), *args), capture_output=True,
                          text=True, env=child_env(), cwd=REPO, timeout=60,
                          stdin=subprocess.DEVNULL)
    assert proc.returncode == 2
    assert "Traceback" not in proc.stderr
    assert proc.stderr.count("\n") == 1, proc.stderr
    assert proc.stderr.startswith(f"error: {config}: [emulator] private_key: "
                                  f"{config.parent / 'keys' / 'emulator.pem'} is not a file")
