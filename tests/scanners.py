"""A scanner in USB-serial (CDC) mode, for the tests: the device side of a real pty pair. The
terminal opens `path` as it would /dev/ttyACM0; the test types codes into it, holds a
customer's code up until told to stop, or unplugs and plugs it back."""

from __future__ import annotations

import os
import threading
from pathlib import Path


class SerialScanner:
    """`link`: a stable path (symlink) to the device, like /dev/serial/by-id/...; without one
    `path` is the pty's own name."""

    def __init__(self, link: Path | None = None) -> None:
        self.link = link
        self.master: int | None = None
        self.path = ""
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self.plug()

    def plug(self) -> None:
        self.master, self._slave = os.openpty()
        self.path = os.ttyname(self._slave)
        if self.link is not None:
            if self.link.is_symlink():
                self.link.unlink()
            self.link.symlink_to(self.path)
            self.path = str(self.link)

    def unplug(self) -> None:
        self.take_away()
        if self.link is not None:
            self.link.unlink()
        assert self.master is not None
        os.close(self.master)
        os.close(self._slave)
        self.master = None

    def send(self, data: bytes) -> None:
        assert self.master is not None
        os.write(self.master, data)

    def hold_up(self, code: str) -> None:
        """The customer's phone in front of it: the code read again every 0.25 s."""
        self._stop.clear()

        def repeat() -> None:
            while not self._stop.is_set():
                self.send(f"{code}\r\n".encode())
                self._stop.wait(0.25)

        self._thread = threading.Thread(target=repeat, daemon=True)
        self._thread.start()

    def take_away(self) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join()
            self._thread = None

    def close(self) -> None:
        if self.master is not None:
            self.unplug()
