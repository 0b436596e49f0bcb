"""A serial scanner the tests can plug in: a real pty pair, its slave behind a stable path."""

from __future__ import annotations

import os
from pathlib import Path


class FakeTty:
    """A pty pair; the slave is reachable at a stable path (symlink) like /dev/ttyACM0."""

    def __init__(self, link: Path) -> None:
        self.link = link
        self.master: int | None = None
        self.plug()

    def plug(self) -> None:
        master, slave = os.openpty()
        self.master, self._slave = master, slave
        if self.link.is_symlink():
            self.link.unlink()
        self.link.symlink_to(os.ttyname(slave))

    def unplug(self) -> None:
        self.link.unlink()
        assert self.master is not None
        os.close(self.master)
        os.close(self._slave)
        self.master = None

    def send(self, data: bytes) -> None:
        assert self.master is not None
        os.write(self.master, data)
