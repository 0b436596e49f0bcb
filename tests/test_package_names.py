"""`./pos` and `scripts/ensure-debs` give apt-get package names, never options (issue 20 item 11).

apt-get and dpkg-query are stand-ins on PATH that record how they were called (a test installs
no system package); `./pos` and `ensure-debs` themselves run for real, with the lists they read.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

from tests.processes import child_env

REPO = Path(__file__).resolve().parent.parent
OPTION = "-oDpkg::Pre-Invoke::=touch /tmp/pwned"
BAD_NAMES = [OPTION, "--allow-unauthenticated", "Libzbar0", "a;reboot", "x"]


def recording_tools(folder: Path) -> tuple[Path, Path]:
    """apt-get, dpkg-query and sudo that append their arguments to a log; dpkg-query says
    nothing is installed (so every valid name would be handed to apt-get)."""
    bin_dir, log = folder / "bin", folder / "calls.log"
    bin_dir.mkdir()
    for tool, status in (("apt-get", 0), ("dpkg-query", 1), ("sudo", 0)):
        script = bin_dir / tool
        run_rest = 'exec "$@"' if tool == "sudo" else f"exit {status}"
        script.write_text(f'#!/bin/sh\nprintf "%s\\n" "{tool} $*" >> "{log}"\n{run_rest}\n')
        script.chmod(0o755)
    return bin_dir, log


def env_with(bin_dir: Path) -> dict[str, str]:
    return child_env(PATH=f"{bin_dir}{os.pathsep}{os.environ['PATH']}")


@pytest.mark.parametrize("bad", BAD_NAMES)
def test_ensure_debs_refuses_what_is_not_a_package_name(tmp_path: Path, bad: str) -> None:
    bin_dir, log = recording_tools(tmp_path)
    done = subprocess.run([str(REPO / "scripts" / "ensure-debs"), "libzbar0", bad],
                          capture_output=True, text=True, env=env_with(bin_dir), timeout=60,
                          check=False)
    assert done.returncode == 2
    assert f"'{bad}' is not a Debian package name" in done.stderr
    assert "apt-get" not in (log.read_text() if log.exists() else "")


def test_ensure_debs_still_installs_real_names(tmp_path: Path) -> None:
    bin_dir, log = recording_tools(tmp_path)
    done = subprocess.run([str(REPO / "scripts" / "ensure-debs"), "libzbar0", "g++",
                           "python3.11-venv"], capture_output=True, text=True,
                          env=env_with(bin_dir), timeout=60, check=False)
    calls = log.read_text()
    if os.geteuid() == 0:
        assert done.returncode == 0, done.stderr
        assert "--no-install-recommends libzbar0 g++ python3.11-venv" in calls
    else:
        assert done.returncode == 1
        assert "apt-get install --no-install-recommends libzbar0 g++ python3.11-venv" in (
            done.stderr)


@pytest.mark.parametrize("bad", BAD_NAMES)
def test_pos_refuses_a_makefile_list_with_an_option(tmp_path: Path, bad: str) -> None:
    bin_dir, log = recording_tools(tmp_path)
    checkout = tmp_path / "checkout"
    (checkout / "scripts").mkdir(parents=True)
    for name in ("pos", "scripts/ensure-debs", "scripts/logged"):
        if (REPO / name).exists():
            shutil.copy2(REPO / name, checkout / name)
    (checkout / "Makefile").write_text(f"RUNTIME_DEBS := libzbar0 {bad}\n")
    done = subprocess.run(["sh", str(checkout / "pos"), "setup"], capture_output=True, text=True,
                          env=env_with(bin_dir), timeout=60, check=False)
    assert done.returncode != 0
    assert "is not a Debian package name" in done.stderr
    calls = log.read_text() if log.exists() else ""
    assert "apt-get" not in calls
    assert bad not in calls  # not even dpkg-query was given it
