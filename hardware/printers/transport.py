"""Printer targets: parse a spec, open python-escpos's printer class for it, send raw bytes."""

from __future__ import annotations

import contextlib
import os
import re
from dataclasses import dataclass
from typing import Any

SPEC_FORMS = ("usb:VID:PID, serial:/dev/ttyUSB0[:baud], tcp:HOST[:9100] or file:/path")
DEFAULT_TCP_PORT = 9100
DEFAULT_BAUD = 9600


class PrinterSpecError(ValueError):
    """A printer spec that names no usable target; str() names the accepted forms."""


class PrinterError(Exception):
    """The printer could not take the receipt; str() says which target and what to check.

    The same, for a front end that says it in its own language: `problem` ("unreachable",
    "stopped" part-way, or "usb_unusable": no USB library), the `target` and the driver's own
    words (`detail`)."""

    def __init__(self, text: str, *, problem: str, target: PrinterTarget,
                 detail: str = "") -> None:
        super().__init__(text)
        self.problem = problem
        self.target = target
        self.detail = detail


@dataclass(frozen=True)
class PrinterTarget:
    kind: str              # usb | serial | tcp | file
    spec: str
    host: str = ""
    port: int = DEFAULT_TCP_PORT
    device: str = ""       # serial device or file path
    baud: int = DEFAULT_BAUD
    vendor_id: int = 0
    product_id: int = 0

    def describe(self) -> str:
        if self.kind == "tcp":
            return f"network printer {self.host}:{self.port}"
        if self.kind == "usb":
            return f"USB printer {self.vendor_id:04x}:{self.product_id:04x}"
        if self.kind == "serial":
            return f"serial printer {self.device} ({self.baud} baud)"
        return f"file {self.device}"


def _bad(spec: str, why: str) -> PrinterSpecError:
    return PrinterSpecError(f"printer target {spec!r}: {why}; use {SPEC_FORMS}")


def parse_target(spec: str) -> PrinterTarget:
    kind, _, rest = spec.strip().partition(":")
    kind = kind.lower()
    if kind == "tcp":
        host, port = rest, DEFAULT_TCP_PORT
        match = re.fullmatch(r"(.+):(\d+)", rest)
        if match and not rest.startswith("["):
            host, port = match.group(1), int(match.group(2))
        elif rest.startswith("["):  # [::1]:9100
            m6 = re.fullmatch(r"\[([^\]]+)\](?::(\d+))?", rest)
            if not m6:
                raise _bad(spec, "an IPv6 host is written [addr]:port")
            host, port = m6.group(1), int(m6.group(2) or DEFAULT_TCP_PORT)
        if not host or not 0 < port < 65536:
            raise _bad(spec, "give a host name or address, and a port 1-65535")
        return PrinterTarget("tcp", spec, host=host, port=port)
    if kind == "serial":
        match = re.fullmatch(r"(/[^:]+)(?::(\d+))?", rest)
        if not match:
            raise _bad(spec, "give the device path, e.g. serial:/dev/ttyUSB0:19200")
        return PrinterTarget("serial", spec, device=match.group(1),
                             baud=int(match.group(2) or DEFAULT_BAUD))
    if kind == "usb":
        match = re.fullmatch(r"(?:0x)?([0-9a-fA-F]{1,4}):(?:0x)?([0-9a-fA-F]{1,4})", rest)
        if not match:
            raise _bad(spec, "give the vendor and product id in hex, e.g. usb:0x04b8:0x0202 "
                             "(see `lsusb`)")
        return PrinterTarget("usb", spec, vendor_id=int(match.group(1), 16),
                             product_id=int(match.group(2), 16))
    if kind == "file":
        if not rest:
            raise _bad(spec, "give a path, e.g. file:/dev/usb/lp0")
        return PrinterTarget("file", spec, device=rest)
    raise _bad(spec, "unknown kind" if spec.strip() else "no printer is configured")


def _hint(target: PrinterTarget) -> str:
    if target.kind == "tcp":
        return ("check that the printer is on, on the network, and that its address and raw "
                f"port ({target.port}) are right")
    if target.kind == "usb":
        return ("check the cable and power, the ids with `lsusb`, and that this user may use "
                "the device (a udev rule)")
    if target.kind == "serial":
        return ("check the cable, the device path (`ls /dev/tty*`), the baud rate and that "
                "this user may use it (group dialout)")
    return "check that the folder exists and this user may write there"


def _create_private(path: str) -> None:
    """A `file:` target that does not exist yet is a saved receipt, not a device: created for
    its owner only (0600) before python-escpos opens it with the default mode."""
    with contextlib.suppress(OSError):  # exists (a device), or python-escpos says why not
        os.close(os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600))


def _open(target: PrinterTarget, timeout_s: float) -> Any:
    """The python-escpos printer object for `target`, opened."""
    from escpos import printer

    if target.kind == "tcp":
        device: Any = printer.Network(target.host, port=target.port, timeout=timeout_s)
    elif target.kind == "serial":
        device = printer.Serial(devfile=target.device, baudrate=target.baud,
                                timeout=timeout_s)
    elif target.kind == "usb":
        if not printer.Usb.is_usable():
            raise PrinterError(
                f"cannot use the {target.describe()}: USB printing needs the pyusb package "
                "and the libusb-1.0-0 system library (`pip install pyusb`, `apt-get install "
                "libusb-1.0-0`); a network or serial printer needs neither",
                problem="usb_unusable", target=target)
        device = printer.Usb(target.vendor_id, target.product_id, timeout=int(timeout_s * 1000))
    else:
        _create_private(target.device)
        device = printer.File(devfile=target.device)
    device.open()
    if not getattr(device, "device", None):  # some classes log instead of raising
        raise OSError("no device")
    return device


def send(spec: str, data: bytes, *, timeout_s: float = 10.0) -> PrinterTarget:
    """Deliver ESC/POS `data` to the printer named by `spec`; returns the target.

    Raises PrinterSpecError for a bad spec and PrinterError (naming the target and what to
    check) when the printer cannot be reached or stops taking data."""
    target = parse_target(spec)
    try:
        device = _open(target, timeout_s)
    except PrinterError:
        raise
    except Exception as exc:  # python-escpos raises DeviceNotFoundError, OSError, usb errors
        reason = str(exc).replace("\n", " ").strip() or type(exc).__name__
        raise PrinterError(f"cannot reach the {target.describe()} ({reason}): "
                           f"{_hint(target)}", problem="unreachable", target=target,
                           detail=reason) from None
    try:
        device._raw(data)
        flush = getattr(device, "flush", None)
        if callable(flush):
            flush()
    except Exception as exc:
        reason = str(exc).replace("\n", " ").strip() or type(exc).__name__
        raise PrinterError(f"the {target.describe()} stopped taking the receipt ({reason}); "
                           f"it may be partly printed: {_hint(target)}", problem="stopped",
                           target=target, detail=reason) from None
    finally:
        with contextlib.suppress(Exception):  # closing a broken connection is best effort
            device.close()
    return target
