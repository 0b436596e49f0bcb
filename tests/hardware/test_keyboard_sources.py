"""Scanners that type: the wedge detector, evdev key events, and a serial scanner on a pty."""

from __future__ import annotations

import contextlib
import errno
import os
import time
from pathlib import Path

import pytest
from evdev import InputEvent, ecodes

from hardware import ScanSource, WedgeDetector, open_source
from hardware.acceptance import ReadAcceptor
from hardware.keymap import KeyTranslator, LineAssembler
from hardware.sources.lines import EvdevSource
from tests.hardware.helpers import CODE_A, CODE_B, Sink
from tests.scanners import SerialScanner


def listen(source: ScanSource) -> Sink:
    """Start `source`, its events and statuses going to a new Sink."""
    sink = Sink()
    source.start(sink.on_event, sink.on_status)
    return sink


def reading(sink: Sink) -> bool:
    """Wait until the source says it is running and reading its device."""
    return sink.wait_for(lambda: any(s.state == "running" and "reading" in s.detail
                                     for s in sink.statuses))


DOWN, UP = 1, 0


def _key_events(text: str) -> list[InputEvent]:
    """What a US-layout scanner sends for `text` + Enter: shift held around capitals/symbols."""
    shifted = {"!": "KEY_1", "@": "KEY_2", "#": "KEY_3", "_": "KEY_MINUS", ":": "KEY_SEMICOLON"}
    plain = {"-": "KEY_MINUS", ".": "KEY_DOT", "/": "KEY_SLASH", " ": "KEY_SPACE"}
    out: list[InputEvent] = []
    t = 1000.0

    def press(code: int, value: int) -> None:
        nonlocal t
        t += 0.004
        out.append(InputEvent(int(t), int((t % 1) * 1e6), ecodes.EV_KEY, code, value))
        out.append(InputEvent(int(t), int((t % 1) * 1e6), ecodes.EV_SYN, ecodes.SYN_REPORT, 0))

    for ch in text:
        if ch.isdigit():
            name, shift = f"KEY_{ch}", False
        elif ch.isalpha():
            name, shift = f"KEY_{ch.upper()}", ch.isupper()
        elif ch in shifted:
            name, shift = shifted[ch], True
        else:
            name, shift = plain[ch], False
        code = getattr(ecodes, name)
        if shift:
            press(ecodes.KEY_LEFTSHIFT, DOWN)
        press(code, DOWN)
        press(code, UP)
        if shift:
            press(ecodes.KEY_LEFTSHIFT, UP)
    press(ecodes.KEY_ENTER, DOWN)
    press(ecodes.KEY_ENTER, UP)
    return out


def _lines(events: list[InputEvent]) -> list[str]:
    assembler = LineAssembler()
    lines = []
    for event in events:
        if event.type == ecodes.EV_KEY:
            line = assembler.feed(event.code, event.value)
            if line is not None:
                lines.append(line)
    return lines


# ---- keycodes to characters ------------------------------------------------------------------

def test_key_events_of_a_payment_code_become_its_digits() -> None:
    assert _lines(_key_events(CODE_A)) == [CODE_A]


def test_shift_gives_capitals_and_symbols() -> None:
    assert _lines(_key_events("Ab-C_1!x@Z.9:/")) == ["Ab-C_1!x@Z.9:/"]


def test_caps_lock_flips_letters_but_not_digits() -> None:
    tr = KeyTranslator()
    assert tr.feed(ecodes.KEY_CAPSLOCK, DOWN) is None
    tr.feed(ecodes.KEY_CAPSLOCK, UP)
    assert tr.feed(ecodes.KEY_A, DOWN) == "A"
    assert tr.feed(ecodes.KEY_1, DOWN) == "1"
    tr.feed(ecodes.KEY_RIGHTSHIFT, DOWN)
    assert tr.feed(ecodes.KEY_A, DOWN) == "a"


def test_key_repeat_and_release_and_unknown_keys() -> None:
    tr = KeyTranslator()
    assert tr.feed(ecodes.KEY_5, UP) is None
    assert tr.feed(ecodes.KEY_5, 2) == "5"            # autorepeat types again
    assert tr.feed(ecodes.KEY_F1, DOWN) is None
    assert tr.feed(ecodes.KEY_KPENTER, DOWN) == "\n"
    assert tr.feed(ecodes.KEY_KP7, DOWN) == "7"


# ---- evdev through the kernel ------------------------------------------------------------------

def _uinput_unavailable() -> str | None:
    if not os.path.exists("/dev/uinput"):
        return "/dev/uinput does not exist: this kernel/container has no uinput module"
    if not os.access("/dev/uinput", os.W_OK):
        return "/dev/uinput is not writable by this user"
    return None


@pytest.mark.skipif(_uinput_unavailable() is not None, reason=str(_uinput_unavailable()))
def test_evdev_source_reads_a_virtual_scanner_through_uinput() -> None:
    from evdev import UInput

    keys = [getattr(ecodes, f"KEY_{d}") for d in "0123456789"] + [
        ecodes.KEY_ENTER, ecodes.KEY_LEFTSHIFT]
    with UInput({ecodes.EV_KEY: keys}, name="test barcode scanner") as ui:
        time.sleep(0.3)  # udev creates the node
        source = open_source(f"evdev:{ui.device.path}")
        sink = listen(source)
        try:
            assert reading(sink)
            for event in _key_events(CODE_A):
                if event.type == ecodes.EV_KEY:
                    ui.write(ecodes.EV_KEY, event.code, event.value)
                    ui.syn()
            assert sink.wait_events(1)
        finally:
            source.stop()
    assert sink.texts() == [(CODE_A, "unknown")]


def test_evdev_source_without_its_device_reports_and_keeps_trying(tmp_path: Path) -> None:
    source = open_source(f"evdev:{tmp_path / 'event42'}")
    sink = listen(source)
    try:
        assert sink.wait_state("disconnected")
        assert sink.wait_state("reconnecting")
        assert "input device" in sink.statuses[-1].detail
    finally:
        source.stop()
    assert source.status().state == "stopped"


class FakeScanner:
    """Stands in for the USB scanner that cannot exist here: a pipe whose fd select() watches,
    delivering real evdev InputEvent objects to the real EvdevSource read loop."""

    def __init__(self) -> None:
        self.plugged = True
        self.grabbed = False
        self.opened = 0
        self._events: list[InputEvent] = []
        self._r: int | None = None
        self._w: int | None = None

    # the opener EvdevSource calls with the device path
    def open(self, path: str) -> FakeScanner:
        if not self.plugged:
            raise FileNotFoundError(errno.ENOENT, "No such file or directory", path)
        self._r, self._w = os.pipe()
        os.set_blocking(self._r, False)
        self.opened += 1
        return self

    @property
    def fd(self) -> int:
        assert self._r is not None
        return self._r

    def grab(self) -> None:
        self.grabbed = True

    def ungrab(self) -> None:
        self.grabbed = False

    def read(self) -> list[InputEvent]:
        if not self.plugged:
            raise OSError(errno.ENODEV, "No such device")
        with contextlib.suppress(BlockingIOError):
            os.read(self.fd, 4096)
        events, self._events = self._events, []
        return events

    def close(self) -> None:
        for fd in (self._r, self._w):
            if fd is not None:
                os.close(fd)
        self._r = self._w = None

    def scan(self, text: str) -> None:
        self._events.extend(_key_events(text))
        assert self._w is not None
        os.write(self._w, b"!")

    def unplug(self) -> None:
        self.plugged = False
        assert self._w is not None
        os.write(self._w, b"!")  # wake the reader: its next read fails like a removed device


def test_evdev_source_reads_grabs_and_survives_unplugging() -> None:
    scanner = FakeScanner()
    source = EvdevSource("/dev/input/event7", ReadAcceptor(), opener=scanner.open)
    sink = listen(source)
    try:
        assert sink.wait_for(lambda: any("reading input device" in s.detail
                                         for s in sink.statuses))
        assert scanner.grabbed
        scanner.scan("8935049500131")      # a product's EAN: not a payment code
        scanner.scan(CODE_A)
        assert sink.wait_events(1)
        seen = len(sink.statuses)
        scanner.unplug()
        assert sink.wait_state("disconnected", after=seen)
        assert "was lost (No such device)" in sink.statuses[seen].detail
        assert sink.wait_state("reconnecting", after=seen)
        scanner.plugged = True
        assert sink.wait_for(lambda: any("reconnected" in s.detail
                                         for s in sink.statuses[seen:]))
        scanner.scan(CODE_B)
        assert sink.wait_events(2)
    finally:
        source.stop()
    assert sink.texts() == [(CODE_A, "unknown"), (CODE_B, "unknown")]
    assert scanner.opened == 2 and not scanner.grabbed


# ---- serial scanner on a pty -------------------------------------------------------------------

def test_serial_scanner_one_code_a_line_other_barcodes_ignored(tmp_path: Path) -> None:
    tty = SerialScanner(tmp_path / "ttyACM0")
    source = open_source(f"serial:{tty.path}:115200")
    sink = listen(source)
    try:
        assert reading(sink)
        tty.send(b"8935049500131\r\n")             # an EAN on a product: not a payment code
        tty.send(CODE_A[:7].encode())              # a line may arrive in pieces
        tty.send(CODE_A[7:].encode() + b"\r\n")
        tty.send(CODE_A.encode() + b"\n")          # the scanner's double read: debounced
        tty.send(CODE_B.encode() + b"\n")
        assert sink.wait_events(2)
    finally:
        source.stop()
        tty.unplug()
    assert sink.texts() == [(CODE_A, "unknown"), (CODE_B, "unknown")]
    assert sink.events[0].source == f"serial:{tty.path}:115200"


def test_serial_scanner_unplugged_and_plugged_back(tmp_path: Path) -> None:
    tty = SerialScanner(tmp_path / "ttyACM0")
    source = open_source(f"serial:{tty.path}")
    sink = listen(source)
    try:
        assert sink.wait_for(lambda: any(s.state == "running" for s in sink.statuses[1:]))
        tty.send(CODE_A.encode() + b"\n")
        assert sink.wait_events(1)
        seen = len(sink.statuses)
        tty.unplug()
        assert sink.wait_state("disconnected", after=seen)
        tty.plug()
        assert sink.wait_for(lambda: any("reconnected" in s.detail
                                         for s in sink.statuses[seen:]))
        tty.send(CODE_B.encode() + b"\n")
        assert sink.wait_events(2)
    finally:
        source.stop()
        tty.unplug()
    assert [e.text for e in sink.events] == [CODE_A, CODE_B]


def test_serial_spec_with_a_bad_baud_is_refused() -> None:
    with pytest.raises(ValueError, match="baud rate 'fast' is not a number"):
        open_source("serial:/dev/ttyACM0:fast")


# ---- the keyboard wedge ----------------------------------------------------------------------

def test_wedge_detector_burst_ending_in_enter_is_a_scan() -> None:
    d = WedgeDetector(max_interkey_ms=35, min_length=8)
    t = 5.0
    verdicts = []
    for ch in CODE_A + "\n":
        verdicts.append(d.feed(ch, t))
        t += 0.008
    assert {v.kind for v in verdicts[:-1]} == {"buffered"}
    assert verdicts[-1].kind == "scan" and verdicts[-1].text == CODE_A


def test_wedge_detector_person_typing_is_released() -> None:
    d = WedgeDetector(max_interkey_ms=35, min_length=8)
    assert d.feed("1", 1.0).kind == "buffered"
    slow = d.feed("5", 1.2)
    assert slow.kind == "release" and slow.chars == "1"
    assert d.flush(1.21) == []                 # not yet: could still be a burst
    assert d.flush(1.3) == ["5"]
    enter = d.feed("\n", 2.0)
    assert enter.kind == "release" and enter.chars == "\n"


def test_wedge_detector_short_fast_burst_is_not_a_scan() -> None:
    d = WedgeDetector(max_interkey_ms=35, min_length=8)
    for i, ch in enumerate("1234"):
        d.feed(ch, 1.0 + i * 0.01)
    verdict = d.feed("\n", 1.04)
    assert verdict.kind == "release" and verdict.chars == "1234\n"


def test_wedge_detector_non_printable_key_releases_the_buffer() -> None:
    d = WedgeDetector()
    d.feed("4", 1.0)
    d.feed("2", 1.01)
    verdict = d.feed("\x00", 1.02)
    assert verdict.kind == "release" and verdict.chars == "42\x00"
