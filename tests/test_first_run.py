"""The first run installs what it is for: `./pos demo` (and any program command) the program's
own dependencies, `./pos test` and `./pos lint` the test tools over them (issue 43).

`make -n` prints the Makefile's real recipes without running them; `./pos` runs for real with
stand-ins for make, dpkg-query and the program on PATH that record how they were called."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

from tests.processes import REPO, child_env

TEST_TOOLS = ("ruff", "mypy", "pytest", "playwright", "hypothesis")


def dry_run(tmp_path: Path, target: str) -> str:
    """What `make TARGET` would run in a fresh clone (no .venv yet)."""
    checkout = tmp_path / "clone"
    checkout.mkdir(exist_ok=True)
    for name in ("Makefile", "pyproject.toml"):
        shutil.copy2(REPO / name, checkout / name)
    done = subprocess.run(["make", "-n", "--no-print-directory", target], cwd=checkout,
                          capture_output=True, text=True, env=child_env(), timeout=60,
                          check=True)
    return done.stdout


def test_the_demo_installs_the_program_alone(tmp_path: Path) -> None:
    recipe = dry_run(tmp_path, "demo")
    assert "pip install --progress-bar off -e .\n" in recipe
    assert ".[dev]" not in recipe


@pytest.mark.parametrize("target", ["lint", "unit"])
def test_the_tests_and_linters_add_the_test_tools(tmp_path: Path, target: str) -> None:
    recipe = dry_run(tmp_path, target)
    assert "pip install --progress-bar off -e .\n" in recipe
    assert "pip install --progress-bar off -e '.[dev]'" in recipe


def test_the_test_tools_are_the_dev_extra_only() -> None:
    import tomllib

    project = tomllib.loads((REPO / "pyproject.toml").read_text("utf-8"))["project"]
    runtime = " ".join(project["dependencies"]).lower()
    dev = " ".join(project["optional-dependencies"]["dev"]).lower()
    for tool in TEST_TOOLS:
        assert tool not in runtime and tool in dev, tool


def recording_checkout(tmp_path: Path) -> tuple[Path, Path, dict[str, str]]:
    checkout, bin_dir, log = tmp_path / "checkout", tmp_path / "bin", tmp_path / "calls.log"
    (checkout / "scripts").mkdir(parents=True)
    (checkout / ".venv" / "bin").mkdir(parents=True)
    bin_dir.mkdir()
    for name in ("pos", "scripts/ensure-debs", "scripts/logged", "Makefile"):
        shutil.copy2(REPO / name, checkout / name)
    record = f'printf "%s\\n" "$(basename "$0") $*" >> "{log}"\n'
    tools = {bin_dir / "make": "exit 0", bin_dir / "apt-get": "exit 0",
             bin_dir / "dpkg-query": 'printf "install ok installed"',
             checkout / ".venv" / "bin" / "pos-terminal": "exit 0"}
    for path, rest in tools.items():
        path.write_text(f"#!/bin/sh\n{record}{rest}\n")
        path.chmod(0o755)
    return checkout, log, child_env(PATH=f"{bin_dir}{os.pathsep}{os.environ['PATH']}")


@pytest.mark.parametrize(("words", "stamp"), [
    (("demo",), ".venv/.installed"), (("banks",), ".venv/.installed"),
    (("setup",), ".venv/.installed"), (("setup", "test"), ".venv/.installed-dev"),
    (("test",), ".venv/.installed-dev"), (("lint",), ".venv/.installed-dev"),
])
def test_pos_asks_make_for_what_the_command_needs(tmp_path: Path, words: tuple[str, ...],
                                                  stamp: str) -> None:
    checkout, log, env = recording_checkout(tmp_path)
    done = subprocess.run(["sh", str(checkout / "pos"), *words], capture_output=True,
                          text=True, env=env, timeout=60, check=False)
    assert done.returncode == 0, done.stderr
    asked = [line.split()[-1] for line in log.read_text().splitlines()
             if line.startswith("make -q")]
    assert asked == [stamp]
