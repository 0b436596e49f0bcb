"""Issue 34, item 3: a test run that is interrupted (SIGTERM from CI to the main pytest process,
Ctrl+C in the terminal) leaves no PostgreSQL server behind, nor its data directory.

A real run of pytest with two xdist workers, on a test that starts the suite's PostgreSQL
(tests/ledger/pgserver.py) and then waits to be interrupted; the run's watchdog
(tests/reaper.py) is loaded as the suite loads it."""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.processes import child_env
from tests.reaper import marked

HOLDS_A_SERVER = '''
import json
import os
import time
from pathlib import Path

from tests.ledger.pgserver import PgServer
from tests.reaper import run_mark


def test_holds_a_server():
    server = PgServer(in_memory=True).start()  # as the suite's own
    postmaster = int((server.data / "postmaster.pid").read_text().split()[0])
    ready = Path(os.environ["READY_FILE"])
    ready.with_suffix(".tmp").write_text(json.dumps(
        {"mark": run_mark(), "postmaster": postmaster, "root": str(server.root)}))
    ready.with_suffix(".tmp").rename(ready)
    while True:  # until the run is interrupted
        time.sleep(3600)
'''


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    stat = Path(f"/proc/{pid}/stat").read_text()
    return stat.rsplit(")", 1)[1].split()[0] != "Z"


def _wait(what: str, condition: object, proc: subprocess.Popen[str] | None = None,
          bound_s: float = 120.0) -> None:
    """Until `condition()` holds (an upper bound for a loaded machine, not a timing claim)."""
    deadline = time.monotonic() + bound_s
    while not condition():  # type: ignore[operator]
        if proc is not None and proc.poll() is not None:
            raise AssertionError(f"the run ended before {what}: {proc.communicate()[0]}")
        if time.monotonic() > deadline:
            raise AssertionError(f"no {what} after {bound_s:.0f} s")
        time.sleep(0.1)


def _processes(token: str) -> str:
    """Each process carrying the run's mark: pid, state and command line (what a hang shows)."""
    lines = []
    for pid in marked(token):
        try:
            state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
        except OSError:
            state = "gone"
        command = _cmdline(pid).replace(b"\0", b" ").decode(errors="replace")
        lines.append(f"{pid} {state} {command[:200]}")
    return "\n".join(lines)


def _as_a_terminal_job() -> None:
    """Ctrl+C reaches the run as it reaches a terminal's foreground job, however this suite was
    started: a suite started in the background of a shell without job control (`cmd &` in a
    script, `nohup`) inherits SIGINT ignored, and so would the run, which then never stops on
    Ctrl+C (what made this test hang in a loaded CI loop started that way)."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


# The run under test starts three Pythons and a PostgreSQL: on a loaded machine that alone is
# tens of seconds, more than the suite's 120 s bound allows for a whole test.
@pytest.mark.timeout(400)
@pytest.mark.parametrize("how", ["SIGTERM to pytest", "Ctrl+C"])
def test_an_interrupted_run_leaves_no_server_behind(tmp_path: Path, how: str) -> None:
    (tmp_path / "test_holds.py").write_text(HOLDS_A_SERVER, encoding="utf-8")
    ready = tmp_path / "ready.json"
    output = tmp_path / "run.log"
    with output.open("w") as log:  # a file, not a pipe: its end is not every child's exit
        run = subprocess.Popen(
            [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-p",
             "tests.reaper", "-n", "2", "--rootdir", str(tmp_path),
             str(tmp_path / "test_holds.py")],
            cwd=tmp_path, env=child_env(READY_FILE=str(ready)), stdout=log,
            stderr=subprocess.STDOUT, start_new_session=True, preexec_fn=_as_a_terminal_job)
    try:
        _wait("server started", ready.exists, run)
        started = json.loads(ready.read_text())
        assert started["mark"] and _alive(started["postmaster"])
        if how == "Ctrl+C":
            os.killpg(run.pid, signal.SIGINT)  # the terminal signals its whole foreground group
        else:
            run.send_signal(signal.SIGTERM)  # CI's timeout: the main process alone
        try:
            run.wait(timeout=120)
        except subprocess.TimeoutExpired:
            raise AssertionError(
                f"the run did not end 120 s after {how}; its processes:\n"
                f"{_processes(started['mark'])}\nits output:\n{output.read_text()}") from None
    finally:
        if run.poll() is None:
            os.killpg(run.pid, signal.SIGKILL)
            run.wait()
    # The watchdog carries the mark too: when no process does, it has done its work and gone.
    _wait("end of the run's processes", lambda: not marked(started["mark"]))
    assert not _alive(started["postmaster"])
    assert not Path(started["root"]).exists()
    leftovers = [pid for pid in map(int, filter(str.isdigit, os.listdir("/proc")))
                 if started["root"].encode() in _cmdline(pid)]
    assert leftovers == []


def _cmdline(pid: int) -> bytes:
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes()
    except OSError:
        return b""



def test_a_run_removes_what_an_earlier_run_killed_with_its_watchdog_left(tmp_path: Path) -> None:
    """A run killed whole (its watchdog too: a machine shut down, a CI job SIGKILLed) leaves
    its servers' data behind; the next run removes it, never a live run's nor a fresh one."""
    import secrets
    import tempfile

    from tests.reaper import RUN_MARK, sweep_stale

    def marked_dir(token: str, age_s: float) -> Path:
        path = Path(tempfile.mkdtemp(prefix=f"pos-ledger-pg-{token}-"))
        (path / "data").mkdir()
        (path / "data" / "PG_VERSION").write_text("15\n")
        stamp = time.time() - age_s
        os.utime(path, (stamp, stamp))
        return path

    dead, live = (f"{n}-{secrets.token_hex(6)}" for n in (999999, 999998))
    # The live run's process first: another worker's sweep may run at any moment and must
    # never find its directory unowned.
    holder = subprocess.Popen(["sleep", "60"], env=child_env(**{RUN_MARK: live}))
    try:
        left, running, fresh = marked_dir(dead, 600), marked_dir(live, 600), marked_dir(dead, 0)
        sweep_stale()
        # removed by this sweep or by another worker's, which may have come first
        assert not left.exists()
        assert running.exists() and fresh.exists()
    finally:
        holder.kill()
        holder.wait()
    for path in (running, fresh):
        shutil.rmtree(path)
