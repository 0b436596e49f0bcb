"""A file whose group other users are in, for every user who runs the tests: root, a member of
"users", and a user made by `useradd` who is in no group but its own.

The permission checks (pos_terminal/base/files.py) count a file's group bits unless the group
is the owner's private group. An ordinary user may only give a file one of its own groups, and
a fresh user has none but its private one: the scenario "a group other users are in" cannot be
built on the real system by that user. So the program under test runs in a user namespace of
its own (this file run as a script: `run -- ARGV...`) whose group map shows the user's own group
as "users" (its gid, or 100 where no group has that name): every file of the user, the one under
test included, is seen there with a group that is not the owner's private one. The user
keeps its uid, the files and their mode bits are untouched; only the group they are seen with
differs. No capability is left to the program (it runs as the same user, exec'd after the
namespace is set up).

Where the kernel refuses user namespaces (see tests/tmpfs.py) the test skips with the reason
the full-disk tests give.
"""

from __future__ import annotations

import ctypes
import grp
import json
import os
import stat
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from tests.processes import REPO, child_env
from tests.tmpfs import SKIP_REASON

CLONE_NEWUSER = 0x10000000
#: The exit status of the helper when the namespace cannot be made (the program never ran).
REFUSED = 125

_LOAD_SETTINGS = """
import json, sys
from pathlib import Path
from pos_terminal.config import ConfigError, load_settings
try:
    load_settings(Path(sys.argv[1]), env=json.load(sys.stdin))
except ConfigError as exc:
    print(json.dumps({"key": exc.key, "message": exc.message}))
else:
    print("null")
"""


def shared_gid() -> int:
    """The gid the user's own group is seen as: the group "users" (100 where it has no entry)."""
    try:
        return grp.getgrnam("users").gr_gid
    except KeyError:
        return 100


def needs_a_shared_group(path: Path) -> bool:
    """Whether `path`'s group bits grant something its "others" bits do not (only then does the
    group it is seen with change the verdict)."""
    mode = stat.S_IMODE(path.stat().st_mode)
    return bool(mode & 0o070 & ~((mode & 0o007) << 3))


def command(argv: list[str]) -> list[str]:
    """`argv` run where the user's files are seen in a group other users are in."""
    return [sys.executable, __file__, "run", "--", *argv]


def checked(done: subprocess.CompletedProcess[Any]) -> subprocess.CompletedProcess[Any]:
    """`done` (a command()), skipping the test where the namespace was refused."""
    err = done.stderr if isinstance(done.stderr, str) else done.stderr.decode("utf-8", "replace")
    if done.returncode == REFUSED and err.startswith("shared-group:"):
        pytest.skip(f"{SKIP_REASON}: {err.strip()}")
    return done


def config_error(path: Path, env: dict[str, str] | None = None) -> tuple[str | None, str] | None:
    """load_settings(path, env=env) where the file's group is shared: (key, message) of the
    ConfigError it raises, None when it loads."""
    done = checked(subprocess.run(command([sys.executable, "-c", _LOAD_SETTINGS, str(path)]),
                                  input=json.dumps(env or {}), capture_output=True, text=True,
                                  env=child_env(), cwd=REPO, timeout=120, check=False))
    assert done.returncode == 0, done.stderr
    answer = json.loads(done.stdout)
    return None if answer is None else (answer["key"], answer["message"])


def _enter(argv: list[str]) -> int:
    uid, gid = os.getuid(), os.getgid()
    libc = ctypes.CDLL(None, use_errno=True)
    if libc.unshare(CLONE_NEWUSER) != 0:
        number = ctypes.get_errno()
        print(f"shared-group: unshare: {os.strerror(number)}", file=sys.stderr)
        return REFUSED
    Path("/proc/self/setgroups").write_text("deny")
    Path("/proc/self/uid_map").write_text(f"{uid} {uid} 1")
    Path("/proc/self/gid_map").write_text(f"{shared_gid()} {gid} 1")
    os.execvp(argv[0], argv)


if __name__ == "__main__":
    if len(sys.argv) > 3 and sys.argv[1:3] == ["run", "--"]:
        sys.exit(_enter(sys.argv[3:]))
    sys.exit(f"usage: {sys.argv[0]} run -- ARGV...")
