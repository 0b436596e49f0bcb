"""Scanners that deliver whole lines: evdev (a grabbed keyboard device) and serial (CDC).

Each runs a reader thread that survives the device going away: it reports `disconnected`,
polls for the device path to come back, and carries on.
"""

from __future__ import annotations

import contextlib
import errno
import os
import select
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any, Protocol

from hardware.acceptance import ReadAcceptor
from hardware.events import Decoded
from hardware.keymap import LineAssembler
from hardware.sources.base import BaseSource


class _LineSource(BaseSource):
    describe = "scanner"

    def _start_threads(self) -> None:
        self._set_status("running", f"opening {self.describe}")
        self._spawn(self._run, "reader")

    def _run(self) -> None:
        lost_once = False
        while not self._stop.is_set():
            try:
                self._open()
            except OSError as exc:
                state = "reconnecting" if lost_once else "disconnected"
                self._set_status(state, f"{self.describe} is not available ({_reason(exc)}); "
                                        f"retrying every {self.reconnect_s:g} s")
                lost_once = True
                self._stop.wait(self.reconnect_s)
                continue
            self._set_status("running", ("reconnected: " if lost_once else "reading ")
                             + self.describe)
            try:
                self._read_lines()
            except OSError as exc:
                lost_once = True
                self._set_status("disconnected", f"{self.describe} was lost ({_reason(exc)}); "
                                                 "will reconnect when it returns")
            finally:
                self._release()

    def _line(self, text: str) -> None:
        text = text.strip()
        if text:
            self._offer([Decoded(text, "unknown")], confirmed=True)

    def _close(self) -> None:
        self._release()

    def _open(self) -> None:
        raise NotImplementedError

    def _read_lines(self) -> None:
        raise NotImplementedError

    def _release(self) -> None:
        raise NotImplementedError


def _reason(exc: OSError) -> str:
    reason = exc.strerror or str(exc) or type(exc).__name__
    if exc.errno == errno.EACCES:
        reason += ": add the user to the group owning the device (input or dialout)"
    return reason


class InputDeviceLike(Protocol):
    """What EvdevSource uses of evdev.InputDevice."""

    fd: int

    def grab(self) -> None: ...

    def ungrab(self) -> None: ...

    def read(self) -> Iterable[Any]: ...

    def close(self) -> None: ...


def _open_input_device(path: str) -> InputDeviceLike:
    import evdev

    device: InputDeviceLike = evdev.InputDevice(path)
    return device


class EvdevSource(_LineSource):
    """evdev:/dev/input/eventN, grabbed so the scanner's keys do not reach the console."""

    def __init__(self, path: str, acceptor: ReadAcceptor, spec: str | None = None,
                 opener: Callable[[str], InputDeviceLike] = _open_input_device) -> None:
        super().__init__(spec or f"evdev:{path}", acceptor)
        self.path = path
        self.describe = f"input device {path}"
        self._opener = opener
        self._device: InputDeviceLike | None = None

    def _open(self) -> None:
        device = self._opener(self.path)
        try:
            device.grab()
        except OSError:
            device.close()
            raise
        self._device = device

    def _read_lines(self) -> None:
        from evdev import ecodes

        device = self._device
        assert device is not None
        assembler = LineAssembler()
        while not self._stop.is_set():
            ready, _, _ = select.select([device.fd], [], [], 0.2)
            if not ready:
                continue
            try:
                events = list(device.read())
            except BlockingIOError:  # woken without data: not a lost device
                continue
            for event in events:
                if event.type != ecodes.EV_KEY:
                    continue
                line = assembler.feed(event.code, event.value)
                if line is not None:
                    self._line(line)

    def _release(self) -> None:
        device, self._device = self._device, None
        if device is not None:
            with contextlib.suppress(OSError):  # already gone with the device
                device.ungrab()
            device.close()


class SerialSource(_LineSource):
    """serial:/dev/ttyACM0[:baud] - a scanner in USB CDC mode, one code a line."""

    def __init__(self, path: str, acceptor: ReadAcceptor, baud: int = 9600,
                 spec: str | None = None) -> None:
        super().__init__(spec or f"serial:{path}", acceptor)
        self.path = path
        self.baud = baud
        self.describe = f"serial port {path}"
        self._port: object | None = None

    def _open(self) -> None:
        import serial

        if not Path(self.path).exists():
            raise FileNotFoundError(2, "no such device", self.path)
        try:
            self._port = serial.Serial(self.path, self.baud, timeout=0.2)
        except serial.SerialException as exc:
            raise OSError(str(exc)) from exc

    def _read_lines(self) -> None:
        import serial

        port = self._port
        assert port is not None
        pending = b""
        while not self._stop.is_set():
            try:
                chunk = port.read(256)  # type: ignore[attr-defined]
            except serial.SerialException as exc:
                raise OSError(str(exc)) from exc
            if not chunk:
                if not os.path.exists(self.path):
                    raise FileNotFoundError(2, "device removed", self.path)
                continue
            pending += chunk
            *lines, pending = pending.replace(b"\r\n", b"\n").replace(b"\r", b"\n").split(b"\n")
            for raw in lines:
                self._line(raw.decode("ascii", errors="replace"))

    def _release(self) -> None:
        port, self._port = self._port, None
        if port is not None:
            port.close()  # type: ignore[attr-defined]
