"""SIGTERM at the very end of a `pay --json` that was refused before it started (a bad --code):
the answer is out, and a signal while the interpreter shuts down must not turn its exit 2 into a
death by signal. The program is run as `python -m pos_terminal.cli` would run it (runpy, the
handlers installed by the package's own import); the exit functions are then run exactly as the
interpreter runs them, and the handler left for its shutdown is read."""

from __future__ import annotations

import json
import subprocess
import sys

from tests.processes import child_env

DRIVER = """
import atexit, runpy, signal, sys
sys.argv = ["-m", "pay", "--amount", "1000", "--code", "not-a-code", "--json"]
try:
    runpy.run_module("pos_terminal.cli", run_name="__main__", alter_sys=True)
except SystemExit as exc:
    code = exc.code
atexit._run_exitfuncs()
left = signal.getsignal(signal.SIGTERM)
print("SIGTERM at shutdown:", "ignored" if left == signal.SIG_IGN else repr(left),
      file=sys.stderr)
sys.exit(code)
"""


def test_a_pay_refused_before_it_started_ignores_sigterm_once_answered() -> None:
    done = subprocess.run([sys.executable, "-c", DRIVER], capture_output=True, text=True,
                          timeout=120, check=False, env=child_env())
    answer = json.loads(done.stdout)
    assert (answer["exit_code"], answer["field"], done.returncode) == (2, "code", 2)
    assert "SIGTERM at shutdown: ignored" in done.stderr, done.stderr


def test_a_pay_refused_before_it_started_survives_a_real_sigterm_at_shutdown() -> None:
    # The same refusal; then what CPython does while it shuts down (a Python-level handler
    # becomes the default, an ignored signal stays ignored) and a real SIGTERM: still exit 2.
    driver = DRIVER.replace("sys.exit(code)", "signal.signal(signal.SIGTERM, left if left == "
                            "signal.SIG_IGN else signal.SIG_DFL)\n"
                            "import os; os.kill(os.getpid(), signal.SIGTERM)\nsys.exit(code)")
    done = subprocess.run([sys.executable, "-c", driver], capture_output=True, text=True,
                          timeout=120, check=False, env=child_env())
    assert json.loads(done.stdout)["exit_code"] == 2
    assert done.returncode == 2, (done.returncode, done.stderr)
