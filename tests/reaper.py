"""Nothing a test run started outlives it, however the run ends: passed, failed, timed out,
Ctrl+C, SIGTERM from CI, even SIGKILL.

A test's own clean-up (a fixture's finaliser: `pg_ctl stop`, `tmux kill-server`) runs only when
the process that started the thing lives to run it. A pytest-xdist worker does not: SIGTERM to
the main pytest process kills it (Python's default), and the main process then kills its
workers; PostgreSQL and tmux servers are daemons (`pg_ctl start`, `tmux new-session -d`)
that were never the test process's children to begin with.

So the main pytest process (`pytest_configure` below, a hook of tests/conftest.py; another
run loads it with `-p tests.reaper`) marks the run: a token in
the environment variable RUN_MARK, inherited by its workers and passed on by `child_env()` to
every process a test starts (and by those to theirs: PostgreSQL's backends, a tmux server's
panes). Then it starts this file as a watchdog, in a session of its own (Ctrl+C in the terminal
does not reach it), reading a pipe whose only writer is the main process. The pipe closes when
that process ends, whatever ends it; the watchdog then stops every process whose environment
carries the run's mark (PostgreSQL with SIGQUIT, its immediate shutdown; the rest with SIGTERM;
SIGKILL for whatever still runs 10 s later), removes the temporary directories named with the
mark (the test servers' data) and exits.
"""

from __future__ import annotations

import contextlib
import glob
import os
import re
import secrets
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

RUN_MARK = "POS_TESTS_RUN"

_watchdog: subprocess.Popen[bytes] | None = None


#: A tmpfs most Linux machines have: the test servers' throwaway data goes there when it can.
MEMORY_DIR = "/dev/shm"


def temp_places() -> list[str]:
    """Where a run's temporary directories may be: the usual one, and the tmpfs when usable."""
    places = [tempfile.gettempdir()]
    if os.path.isdir(MEMORY_DIR) and os.access(MEMORY_DIR, os.W_OK | os.X_OK):
        places.append(MEMORY_DIR)
    return places


def run_mark() -> str:
    """This run's token ("" outside a marked run): names the temporary directories the watchdog
    removes."""
    return os.environ.get(RUN_MARK, "")


def mark_run_and_watch() -> str:
    """In the main pytest process: mark the run (a fresh token, also when this run was itself
    started by a marked run) and start its watchdog. The token."""
    global _watchdog
    token = f"{os.getpid()}-{secrets.token_hex(6)}"
    os.environ[RUN_MARK] = token
    _watchdog = subprocess.Popen([sys.executable, __file__, token], stdin=subprocess.PIPE,
                                 stdout=subprocess.DEVNULL, start_new_session=True,
                                 env={**os.environ})
    return token


def pytest_configure(config: object) -> None:
    """The main pytest process (not an xdist worker: workers inherit its mark) marks the run
    and starts its watchdog; SIGTERM stops it as Ctrl+C does (the report of what ran, the
    finalisers of its fixtures), a second SIGTERM at once."""
    if not os.environ.get("PYTEST_XDIST_WORKER"):
        sweep_stale()
        mark_run_and_watch()
        signal.signal(signal.SIGTERM, _interrupt)


def _interrupt(signum: int, frame: object) -> None:
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    raise KeyboardInterrupt(f"stopped by {signal.Signals(signum).name}")


_MARKED_DIR = re.compile(r"^pos-.+?-(\d+-[0-9a-f]{12})-")


def sweep_stale(min_age_s: float = 60.0) -> list[str]:
    """Remove the temporary directories of this user's (root: anyone's) earlier runs that no
    process carries the mark of any more: a run killed together with its watchdog (a machine
    shut down, a whole CI job killed with SIGKILL) could not remove them itself. The ones
    removed."""
    live = _live_marks()
    removed = []
    for place in temp_places():
        for path in glob.glob(os.path.join(place, "pos-*")):
            found = _MARKED_DIR.match(os.path.basename(path))
            try:
                info = os.stat(path)
            except OSError:
                continue
            if (found is None or found.group(1) in live
                    or os.geteuid() not in (0, info.st_uid)
                    or time.time() - info.st_mtime < min_age_s):
                continue
            shutil.rmtree(path, ignore_errors=True)
            removed.append(path)
    return removed


def _live_marks() -> set[str]:
    prefix = f"{RUN_MARK}=".encode()
    marks: set[str] = set()
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                environ = Path(f"/proc/{entry}/environ").read_bytes()
            except OSError:
                continue
            marks.update(v[len(prefix):].decode(errors="replace")
                         for v in environ.split(b"\0") if v.startswith(prefix))
    return marks


def marked(token: str) -> list[int]:
    """The processes whose environment carries RUN_MARK=token (this one aside)."""
    wanted = f"{RUN_MARK}={token}".encode()
    found = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit() or int(entry) == os.getpid():
            continue
        try:
            environ = Path(f"/proc/{entry}/environ").read_bytes()
        except OSError:  # gone, or another user's (not ours to stop)
            continue
        if wanted in environ.split(b"\0"):
            found.append(int(entry))
    return found


def _name(pid: int) -> str:
    try:
        return Path(f"/proc/{pid}/comm").read_text().strip()
    except OSError:
        return ""


def _signal(pid: int, number: int) -> None:
    with contextlib.suppress(ProcessLookupError, PermissionError):  # gone, or not ours
        os.kill(pid, number)


def sweep(token: str, grace_s: float = 10.0) -> None:
    """Stop every process of the run and remove its marked temporary directories."""
    for pid in marked(token):
        # PostgreSQL: SIGQUIT is its immediate shutdown (SIGTERM would wait for its clients).
        _signal(pid, signal.SIGQUIT if _name(pid) in ("postgres", "postmaster")
                else signal.SIGTERM)
    deadline = time.monotonic() + grace_s
    while marked(token) and time.monotonic() < deadline:
        time.sleep(0.1)
    for pid in marked(token):
        _signal(pid, signal.SIGKILL)
    for place in temp_places():
        for path in glob.glob(os.path.join(place, f"pos-*{token}*")):
            shutil.rmtree(path, ignore_errors=True)


def watch(token: str) -> int:
    """Wait for the main process to end (its end of our stdin closes), then sweep."""
    for number in (signal.SIGINT, signal.SIGHUP, signal.SIGTERM):
        signal.signal(number, signal.SIG_IGN)  # the terminal's or CI's signals: sweep first
    while sys.stdin.buffer.read(4096):
        pass
    sweep(token)
    return 0


if __name__ == "__main__":
    sys.exit(watch(sys.argv[1]))
