"""A real, tiny tmpfs for the read-only and full-disk tests, for an ordinary user as for root.

Mounting needs CAP_SYS_ADMIN, which an ordinary user has in a user namespace of their own. So a
helper process (this file run as a script: `hold DIR SIZE`) unshares a user and a mount
namespace, maps the user to itself, mounts a tmpfs of SIZE on DIR and then obeys its stdin: a
line "ro" makes the mount read-only, "rw" writable again. The tmpfs exists only in that mount
namespace. A program that must see it is started through `enter PID -- ARGV...` (this file run
as a script), which joins the helper's namespaces and execs ARGV as the same user, with no
capability left. The test process reaches the files through /proc/PID/root, for plain file
operations only: SQLite resolves that link to / and would open another file.

Root where user namespaces are refused (some containers) gets a mount namespace alone. Where
neither is allowed (user namespaces disabled by the kernel or by AppArmor, as Ubuntu 24.04
does by default for unconfined programs) the test skips saying so.
"""

from __future__ import annotations

import ctypes
import errno
import os
import subprocess
import sys
from pathlib import Path

CLONE_NEWNS = 0x00020000
CLONE_NEWUSER = 0x10000000
MS_RDONLY = 1
MS_REMOUNT = 32
MS_BIND = 4096
MS_REC = 16384
MS_PRIVATE = 1 << 18

SKIP_REASON = ("cannot mount a tmpfs here, not even in a user namespace of one's own "
               "(kernel.unprivileged_userns_clone=0, or AppArmor's "
               "kernel.apparmor_restrict_unprivileged_userns=1)")

_libc = ctypes.CDLL(None, use_errno=True)


def _check(result: int, what: str) -> None:
    if result != 0:
        number = ctypes.get_errno()
        raise OSError(number, f"{what}: {os.strerror(number)}")


def _mount(source: str | None, target: str | None, fstype: str | None, flags: int,
           data: str | None) -> None:
    def c(text: str | None) -> bytes | None:
        return None if text is None else os.fsencode(text)
    _check(_libc.mount(c(source), c(target), c(fstype), ctypes.c_ulong(flags), c(data)),
           f"mount {target}")


def _own_namespaces() -> None:
    """This process alone in a new mount namespace (and a user namespace that maps its user to
    itself, unless root has to do without one)."""
    uid, gid = os.getuid(), os.getgid()
    try:
        _check(_libc.unshare(CLONE_NEWUSER | CLONE_NEWNS), "unshare")
    except OSError:
        if uid != 0:
            raise
        _check(_libc.unshare(CLONE_NEWNS), "unshare")
        return
    Path("/proc/self/setgroups").write_text("deny")
    Path("/proc/self/uid_map").write_text(f"{uid} {uid} 1")
    Path("/proc/self/gid_map").write_text(f"{gid} {gid} 1")


def hold(target: str, size: str) -> int:
    try:
        _own_namespaces()
        _mount("none", "/", None, MS_REC | MS_PRIVATE, None)  # nothing leaks out of it
        _mount("tmpfs", target, "tmpfs", 0, f"size={size},mode=0700")
    except OSError as exc:
        print(f"error: {exc}", flush=True)
        return 1
    print("ready", flush=True)
    for line in sys.stdin:
        read_only = line.strip() == "ro"
        try:
            _mount(None, target, None, MS_REMOUNT | MS_BIND | (MS_RDONLY if read_only else 0),
                   None)
        except OSError as exc:
            print(f"error: {exc}", flush=True)
        else:
            print("ok", flush=True)
    return 0


def enter(pid: str, argv: list[str]) -> int:
    here = os.getcwd()
    user = f"/proc/{pid}/ns/user"
    user_fd = os.open(user, os.O_RDONLY)
    mnt_fd = os.open(f"/proc/{pid}/ns/mnt", os.O_RDONLY)
    if os.readlink(user) != os.readlink("/proc/self/ns/user"):
        _check(_libc.setns(user_fd, CLONE_NEWUSER), "setns user")
    _check(_libc.setns(mnt_fd, CLONE_NEWNS), "setns mnt")
    os.chdir(here)
    os.execvp(argv[0], argv)


def fill(directory: Path) -> None:
    """Write to a file in `directory` until its file system (a tiny one) is full."""
    stats = os.statvfs(directory)
    if stats.f_blocks * stats.f_frsize > 64 * 1024 * 1024:
        raise OSError(f"{directory} is not on a tiny tmpfs: not filling it")
    fd = os.open(directory / "filler", os.O_WRONLY | os.O_CREAT, 0o600)
    try:
        while os.write(fd, b"\0" * 4096):
            pass
    except OSError as exc:
        if exc.errno != errno.ENOSPC:
            raise
    finally:
        os.close(fd)


class TinyTmpfs:
    """A tmpfs of `size` mounted on `mount_point` (a directory that exists), seen by the programs
    `command()` wraps and, for plain file operations, through `reach()`."""

    def __init__(self, mount_point: Path, size: str = "512k") -> None:
        self.path = mount_point
        self._holder = subprocess.Popen(
            [sys.executable, __file__, "hold", str(mount_point), size],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True,
            env={"PATH": os.environ.get("PATH", "/usr/bin:/bin")})
        assert self._holder.stdout is not None
        answer = self._holder.stdout.readline().strip()
        if answer != "ready":
            self.close()
            raise OSError(f"{SKIP_REASON}: {answer or 'the helper stopped'}")

    def command(self, argv: list[str]) -> list[str]:
        """`argv` run where the tmpfs is mounted."""
        return [sys.executable, __file__, "enter", str(self._holder.pid), "--", *argv]

    def reach(self, path: Path) -> Path:
        """`path` (under the mount point) as the test process reaches it."""
        return Path(f"/proc/{self._holder.pid}/root") / path.relative_to("/")

    def fill(self) -> None:
        fill(self.reach(self.path))

    def read_only(self, read_only: bool = True) -> None:
        assert self._holder.stdin is not None and self._holder.stdout is not None
        self._holder.stdin.write("ro\n" if read_only else "rw\n")
        self._holder.stdin.flush()
        answer = self._holder.stdout.readline().strip()
        if answer != "ok":
            raise OSError(f"cannot remount {self.path}: {answer}")

    def close(self) -> None:
        if self._holder.stdin is not None:
            self._holder.stdin.close()
        self._holder.wait(timeout=30)
        if self._holder.stdout is not None:
            self._holder.stdout.close()


if __name__ == "__main__":
    if sys.argv[1] == "hold":
        sys.exit(hold(sys.argv[2], sys.argv[3]))
    if sys.argv[1] == "enter" and sys.argv[3] == "--":
        sys.exit(enter(sys.argv[2], sys.argv[4:]))
    sys.exit(f"usage: {sys.argv[0]} hold DIR SIZE | enter PID -- ARGV...")
