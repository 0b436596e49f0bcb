"""`pos-terminal` run many times without paying for Python's start and imports each time.

A server process imports the CLI once, then forks a child for each command it is sent: the
child runs `python -m pos_terminal.cli`'s own `__main__` with the command's arguments, stdin
/dev/null, stdout and stderr in files, and exits as that command exits (a traceback, if any, is
printed by the interpreter and exits 1, as in a fresh process). What a child does is what a fresh
`pos-terminal` does once its modules are imported; a command costs tens of milliseconds instead
of a second of CPU. Started through a wrapper (tests/tmpfs.py's `command()`), every child runs in
that wrapper's namespaces.

    ForkingCli(wrap) -> .run(*args) -> CompletedProcess (returncode, stdout, stderr); .close()
"""

from __future__ import annotations

import json
import os
import runpy
import subprocess
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent


def _child(argv: list[str], out_fd: int, err_fd: int) -> None:
    devnull = os.open(os.devnull, os.O_RDONLY)
    os.dup2(devnull, 0)
    os.dup2(out_fd, 1)
    os.dup2(err_fd, 2)
    sys.stdin = open(0, encoding="utf-8", closefd=False)  # noqa: SIM115 (the process's own)
    sys.argv = ["pos-terminal", *argv]
    runpy.run_module("pos_terminal.cli", run_name="__main__", alter_sys=True)
    raise SystemExit(0)


def serve() -> None:
    import pos_terminal.cli  # noqa: F401 (what every child shares)

    for line in sys.stdin:
        argv = json.loads(line)
        with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
            sys.stdout.flush()
            sys.stderr.flush()
            pid = os.fork()
            if pid == 0:
                _child(argv, out.fileno(), err.fileno())  # never returns
            _, status = os.waitpid(pid, 0)
            out.seek(0)
            err.seek(0)
            answer = {"returncode": os.waitstatus_to_exitcode(status),
                      "stdout": out.read().decode("utf-8", "replace"),
                      "stderr": err.read().decode("utf-8", "replace")}
        sys.stdout.write(json.dumps(answer) + "\n")
        sys.stdout.flush()


class ForkingCli:
    """The client: one server, started through `wrap` (the identity, or a namespace's)."""

    def __init__(self, env: dict[str, str],
                 wrap: Callable[[list[str]], list[str]] = lambda argv: argv) -> None:
        self._server = subprocess.Popen(
            wrap([sys.executable, str(Path(__file__)), "serve"]), stdin=subprocess.PIPE,
            stdout=subprocess.PIPE, text=True, env=env, cwd=REPO)

    def run(self, *args: str) -> subprocess.CompletedProcess[str]:
        assert self._server.stdin is not None and self._server.stdout is not None
        self._server.stdin.write(json.dumps(list(args)) + "\n")
        self._server.stdin.flush()
        line = self._server.stdout.readline()
        if not line:
            raise RuntimeError(f"the forking CLI server ended (exit {self._server.wait()})")
        answer = json.loads(line)
        return subprocess.CompletedProcess(["pos-terminal", *args], answer["returncode"],
                                           answer["stdout"], answer["stderr"])

    def close(self) -> None:
        if self._server.stdin is not None:
            self._server.stdin.close()
        try:
            self._server.wait(timeout=30)
        except subprocess.TimeoutExpired:
            self._server.kill()
            self._server.wait()
        if self._server.stdout is not None:
            self._server.stdout.close()


if __name__ == "__main__" and sys.argv[1:] == ["serve"]:
    sys.path.insert(0, str(REPO))
    serve()
