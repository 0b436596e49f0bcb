"""The suite passes from whatever terminal it is run in, not only from none or an 80x24 one: a
tmux test is run from a 160x50 pseudo-terminal whose environment says so (`LINES`, `COLUMNS`,
`TERM`), as a newcomer's terminal window does. One test is enough: they share the harness
(the Tmux class of tests/e2e/test_demo_tmux.py), which must not take the size of the terminal
it is started from; CI runs the whole suite from a 160x50 terminal (.ci/run)."""

from __future__ import annotations

import fcntl
import os
import pty
import shlex
import shutil
import struct
import subprocess
import sys
import termios

import pytest

from tests.processes import REPO

pytestmark = [pytest.mark.e2e,
              pytest.mark.skipif(shutil.which("tmux") is None, reason="needs tmux")]

COLUMNS, ROWS = 160, 50


def run_in_terminal(command: str, env: dict[str, str]) -> tuple[int, str]:
    """`sh -c command` with a COLUMNS x ROWS pseudo-terminal as its stdin, stdout and stderr;
    its exit status and everything it wrote."""
    main_fd, follower = pty.openpty()
    fcntl.ioctl(follower, termios.TIOCSWINSZ, struct.pack("HHHH", ROWS, COLUMNS, 0, 0))
    proc = subprocess.Popen(["sh", "-c", command], stdin=follower, stdout=follower,
                            stderr=follower, env=env, cwd=REPO, start_new_session=True)
    os.close(follower)
    chunks: list[bytes] = []
    try:
        while True:
            try:
                chunk = os.read(main_fd, 65536)
            except OSError:  # EIO: every process holding the terminal has closed it
                break
            if not chunk:
                break
            chunks.append(chunk)
    finally:
        os.close(main_fd)
    return proc.wait(timeout=60), b"".join(chunks).decode(errors="replace")


@pytest.mark.timeout(300)
def test_a_tmux_test_passes_from_a_160x50_terminal() -> None:
    env = {name: value for name, value in os.environ.items()
           if not name.startswith(("PYTEST_", "COV_"))}
    env.update(LINES=str(ROWS), COLUMNS=str(COLUMNS), TERM="xterm-256color")
    pytest_run = shlex.join([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider",
                             "-p", "no:xdist",
                             "tests/e2e/test_demo_tmux.py::test_demo_takes_a_payment_by_keyboard_alone"])
    status, output = run_in_terminal(f"stty size; exec {pytest_run}", env)
    assert output.startswith(f"{ROWS} {COLUMNS}"), output
    assert status == 0, output
    assert "1 passed" in output and "skipped" not in output, output
