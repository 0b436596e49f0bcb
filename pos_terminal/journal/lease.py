"""Who may send a payment or a refund, and when another process may conclude it never arrived.

A row being sent is owned by one process through a *lease* written in the journal with the
intent: the owner's identity (boot id, pid namespace, pid, process start time) and a deadline on
the system-wide monotonic clock (CLOCK_MONOTONIC: it never follows wall-clock jumps and does not
run while the machine is suspended). The owner renews the lease in the transaction just before
it sends, and releases it (stamping when it went quiet) in the transaction that records the
answer or the missing answer.

Another process may treat a lease as over only when it can *prove* it:

- released by its owner;
- the boot id differs: the machine rebooted since, so the owner died with it (a WAL journal is
  only ever shared by processes on one host: SQLite's WAL needs shared memory);
- same boot and pid namespace, and the owner process is gone (no such pid, a zombie, or a pid
  reused by a process that started at another time);
- same boot, the owner in another pid namespace (its pid cannot be checked from here), and the
  owner's monotonic deadline has passed.

A stopped (SIGSTOP), paused or slow owner is alive: its lease stays live, however long it takes.
Everything is compared on the monotonic clock of one boot; the wall clock never decides.
"""

from __future__ import annotations

import os
import time
from dataclasses import dataclass
from functools import cache
from pathlib import Path


def mono_ms() -> int:
    """The system-wide monotonic clock (CLOCK_MONOTONIC on Linux), in ms."""
    return time.monotonic_ns() // 1_000_000


def _read(path: str) -> str:
    try:
        return Path(path).read_text(encoding="ascii").strip()
    except OSError:
        return ""


def _pid_namespace() -> str:
    try:
        return os.readlink("/proc/self/ns/pid")
    except OSError:
        return ""


def process_start(pid: int) -> tuple[str, int] | None:
    """(state letter, start time in clock ticks since boot) of a process, or None if none."""
    raw = _read(f"/proc/{pid}/stat")
    if not raw:
        return None
    # The command name (field 2) is in parentheses and may hold spaces: split after its end.
    rest = raw[raw.rfind(")") + 2:].split()
    try:
        return rest[0], int(rest[19])
    except (IndexError, ValueError):
        return None


@dataclass(frozen=True)
class Holder:
    """This process, as a lease owner."""

    boot_id: str
    pid_ns: str
    pid: int
    start: int

    @property
    def owner(self) -> str:
        return f"{self.boot_id}|{self.pid_ns}|{self.pid}|{self.start}"


@cache
def _holder_for(pid: int) -> Holder:
    found = process_start(pid)
    return Holder(
        boot_id=_read("/proc/sys/kernel/random/boot_id") or "no-boot-id",
        pid_ns=_pid_namespace(),
        pid=pid,
        start=found[1] if found else 0,
    )


def me() -> Holder:
    """This process (recomputed after a fork: the pid is part of the key)."""
    return _holder_for(os.getpid())


def _parse(owner: str) -> Holder | None:
    parts = owner.split("|")
    if len(parts) != 4:
        return None
    try:
        return Holder(parts[0], parts[1], int(parts[2]), int(parts[3]))
    except ValueError:
        return None


def owner_alive(owner: str) -> bool:
    """Whether the process that wrote `owner` may still be running (unprovable: True)."""
    holder = _parse(owner)
    here = me()
    if holder is None:
        return True  # unreadable: cannot prove anything
    if holder.boot_id != here.boot_id:
        return False  # rebooted since: every process of that boot is gone
    if holder.pid_ns != here.pid_ns or not holder.pid_ns:
        return True  # cannot see it from here: only its deadline can end the lease
    if holder == here:
        return True
    found = process_start(holder.pid)
    if found is None:
        return False
    state, start = found
    return state not in ("Z", "X") and start == holder.start


def lease_live(owner: str | None, until_mono_ms: int | None) -> bool:
    """Whether a lease may still be live, as far as this process can tell."""
    if owner is None:
        return False
    if not owner_alive(owner):
        return False
    holder = _parse(owner)
    visible = holder is not None and holder.boot_id == me().boot_id and bool(holder.pid_ns) \
        and holder.pid_ns == me().pid_ns
    if visible:
        return True  # a running owner (even a stopped one) keeps its lease
    if holder is not None and holder.boot_id == me().boot_id and until_mono_ms is not None:
        return mono_ms() < until_mono_ms
    return True
