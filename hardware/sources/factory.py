"""open_source(SPEC): the one place a SPEC string becomes a source."""

from __future__ import annotations

import sys
from dataclasses import dataclass
from pathlib import Path

from hardware.acceptance import ReadAcceptor
from hardware.events import CodeFilter
from hardware.sources.protocol import ScanSource

SPEC_FORMS = ("camera:N", "video:PATH", "images:DIR", "synthetic", "wedge",
              "evdev:/dev/input/eventN", "serial:/dev/ttyACM0[:baud]")


class SpecError(ValueError):
    """A SPEC string that names no source; str() says what forms exist."""


_FIXES = {
    "camera": "plug the camera in, or choose the index of one that is (ls /dev/video*)",
    "evdev": "plug the scanner in, or name its event device (ls -l /dev/input/by-id)",
    "serial": "plug the scanner in, or name its port (ls -l /dev/serial/by-id)",
    "path": "check the path",
}


@dataclass(frozen=True)
class MissingDevice:
    """The device node, file or folder a SPEC names and that is not there; `device` is what it
    is (camera, evdev, serial, path), so a front end can say it in its own words. str() is the
    sentence for a person at the shell."""

    node: str
    device: str

    def __str__(self) -> str:
        return f"{self.node} does not exist: {_FIXES[self.device]}"


def _bad(spec: str, why: str) -> SpecError:
    return SpecError(f"scanner source {spec!r}: {why}; use one of: {', '.join(SPEC_FORMS)}")


def missing_device(spec: str) -> MissingDevice | None:
    """What is missing for `spec` to work (its device node, file or folder); None when it is
    there (or needs no device)."""
    kind, _, arg = spec.strip().partition(":")
    kind = kind.lower()
    if kind == "camera" and arg.isdigit():
        if not sys.platform.startswith("linux"):
            return None
        node, device = Path(f"/dev/video{int(arg)}"), "camera"
    elif kind == "evdev" and arg:
        node, device = Path(arg), "evdev"
    elif kind == "serial" and arg and "://" not in arg:
        head, sep, tail = arg.rpartition(":")
        node, device = Path(head if sep and tail.isdigit() else arg), "serial"
    elif kind in ("video", "images") and arg:
        node, device = Path(arg), "path"
    else:
        return None
    if node.exists():
        return None
    return MissingDevice(str(node), device)


def open_source(spec: str, *, decoder: str = "zxing", code_filter: CodeFilter | None = None,
                debounce_s: float = 3.0, rescue: bool = True) -> ScanSource:
    """A source for `spec`, not started yet. Raises SpecError for an unusable spec and
    ValueError for an unknown decoder; a missing device is NOT an error here (the source
    reports it as disconnected and waits for it)."""
    acceptor = ReadAcceptor(code_filter, debounce_s=debounce_s)
    kind, _, arg = spec.strip().partition(":")
    kind = kind.lower()
    if kind in ("camera", "video", "images", "synthetic"):
        from hardware.camera_loop import CameraSource
        from hardware.decoders import make_decoder

        # the acceptor's filter: a read it would refuse does not end the decoder cascade
        frames = make_decoder(decoder, rescue=rescue, code_filter=acceptor.code_filter)
        if kind == "synthetic":
            if arg:
                raise _bad(spec, "synthetic takes no argument")
            from hardware.sources.synthetic import SyntheticSource

            return SyntheticSource(frames, acceptor, spec=spec)
        if not arg:
            raise _bad(spec, f"{kind} needs an argument")
        if kind == "camera":
            if not arg.isdigit():
                raise _bad(spec, f"camera index {arg!r} is not a number")
            from hardware.sources.capture import CameraGrabber

            return CameraSource(spec, CameraGrabber(int(arg)), frames, acceptor)
        if kind == "video":
            from hardware.sources.capture import VideoGrabber

            return CameraSource(spec, VideoGrabber(arg), frames, acceptor)
        from hardware.sources.images import ImagesGrabber

        return CameraSource(spec, ImagesGrabber(arg), frames, acceptor)
    if kind == "wedge":
        # Its keys are the keyboard's: the terminal UI reads them (pos_terminal/tui/wedge.py,
        # through WedgeDetector); there is nothing to open.
        raise SpecError(f"scanner source {spec!r}: the keyboard wedge is read by the terminal "
                        "UI, not opened as a source; outside the UI name the scanner's device: "
                        "evdev:/dev/input/eventN (ls -l /dev/input/by-id)")
    if kind == "evdev":
        if not arg:
            raise _bad(spec, "evdev needs a device path")
        from hardware.sources.lines import EvdevSource

        return EvdevSource(arg, acceptor, spec=spec)
    if kind == "serial":
        if not arg:
            raise _bad(spec, "serial needs a device path")
        path, baud = arg, 9600
        head, sep, tail = arg.rpartition(":")
        if sep and tail.isdigit():
            path, baud = head, int(tail)
        elif sep and tail and not tail.startswith("/"):
            raise _bad(spec, f"baud rate {tail!r} is not a number")
        from hardware.sources.lines import SerialSource

        return SerialSource(path, acceptor, baud=baud, spec=spec)
    raise _bad(spec, f"unknown kind {kind!r}")
