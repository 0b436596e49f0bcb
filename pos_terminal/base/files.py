"""Files that hold payments or secrets: written for their owner only, refused when others may
change them.

- ``open_private(path)``: a text or binary file opened for writing with mode 0600 (also when it
  already existed with a looser mode), so an export, a saved receipt or a report holding
  payments is never readable by other local users.
- ``loose_permissions(path)``: what group or others may do with an existing file ("write",
  "read" or None); callers word the refusal (a configuration file, a journal).
"""

from __future__ import annotations

import grp
import os
import pwd
import stat
from pathlib import Path
from typing import IO, Any, BinaryIO, Literal, TextIO, overload

PRIVATE_MODE = 0o600


@overload
def open_private(path: Path, mode: Literal["w"] = "w", **kwargs: Any) -> TextIO: ...
@overload
def open_private(path: Path, mode: Literal["wb"], **kwargs: Any) -> BinaryIO: ...


def open_private(path: Path, mode: Literal["w", "wb"] = "w", **kwargs: Any) -> IO[Any]:
    """``open(path, mode)`` creating or truncating the file with mode 0600 (OSError as open)."""
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, PRIVATE_MODE)
    try:
        if stat.S_ISREG(os.fstat(fd).st_mode):  # a device (printer, /dev/stdout) keeps its mode
            os.fchmod(fd, PRIVATE_MODE)
        return os.fdopen(fd, mode, **kwargs)
    except BaseException:
        os.close(fd)
        raise


def create_private(path: Path) -> None:
    """Create an empty file with mode 0600 if nothing is at `path` (a program that opens it
    later with its own ``open`` then writes a private file)."""
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, PRIVATE_MODE)
    except FileExistsError:
        return
    os.close(fd)


def loose_permissions(path: Path) -> Literal["write", "read"] | None:
    """"write" when group or others may change the file, "read" when they may read it, None
    when only its owner may (or when it does not exist).

    The group's bits count unless the group is the owner's private group (named like the
    owner, no other member: what a umask of 002 on a user-private-group system gives every
    file), as OpenSSH judges an authorized_keys file."""
    try:
        info = path.stat()
    except OSError:
        return None
    write, read = stat.S_IWOTH, stat.S_IROTH
    if not _private_group(info.st_uid, info.st_gid):
        write, read = write | stat.S_IWGRP, read | stat.S_IRGRP
    if info.st_mode & write:
        return "write"
    if info.st_mode & read:
        return "read"
    return None


def _private_group(uid: int, gid: int) -> bool:
    try:
        owner, group = pwd.getpwuid(uid), grp.getgrgid(gid)
    except KeyError:
        return False
    return (group.gr_name == owner.pw_name and owner.pw_gid == gid
            and set(group.gr_mem) <= {owner.pw_name})
