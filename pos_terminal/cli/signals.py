"""SIGINT and SIGTERM for the commands that answer about money (pay, status, refund, reconcile,
headless): the command under way finishes its journal write and answers (one JSON object with
--json), it is never cut off in between.

Run as a program (`pos-terminal ...`, `python -m pos_terminal.cli ...`), the handlers are
installed before anything else is imported, so a signal during start-up is remembered, not
fatal: a command that answers sees it at once (nothing is sent: exit 2); any other command gets
the default behaviour back, and a signal that came meanwhile is delivered again. They then stay
installed until the process ends, and ignored once it is exiting, so that a signal just after
the answer cannot change the exit code. Imported by a test (CliRunner), nothing is installed at
import time and each command restores the previous handlers when it ends.
"""

from __future__ import annotations

import atexit
import os
import signal
import sys
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any, ClassVar

SIGNALS = (signal.SIGINT, signal.SIGTERM)


class SignalStop:
    """What a command sees: `event` is set by SIGINT / SIGTERM; `name` is the first one."""

    def __init__(self) -> None:
        self.event = threading.Event()
        self.received: list[str] = []

    def deliver(self, name: str) -> None:
        self.received.append(name)
        if len(self.received) == 1:
            sys.stderr.write(f"{name}: finishing what is under way, then answering (the "
                             "payment is never sent again).\n")
            sys.stderr.flush()
        self.event.set()

    @property
    def name(self) -> str | None:
        return self.received[0] if self.received else None


class _State:
    program: ClassVar[bool] = False           # installed at start-up by the program itself
    early: ClassVar[list[str]] = []           # received before a command took them over
    current: ClassVar[SignalStop | None] = None
    exit_guard: ClassVar[bool] = False


def _handle(signum: int, _frame: object) -> None:
    name = signal.Signals(signum).name
    if _State.current is not None:
        _State.current.deliver(name)
    else:
        _State.early.append(name)


def _running_as_program() -> bool:
    if not sys.argv:
        return False
    first = sys.argv[0]
    return first == "-m" or Path(first).name in ("pos-terminal", "__main__.py")


def install_at_start() -> None:
    """Called first thing by the `pos_terminal.cli` package when it runs as the program."""
    if not _running_as_program() or threading.current_thread() is not threading.main_thread():
        return
    _State.program = True
    for sig in SIGNALS:
        signal.signal(sig, _handle)
    if not _State.exit_guard:
        # From start-up, not only once a command took the signals over: a payment refused
        # before it started (a bad --code) answers too, and a SIGTERM while the interpreter then
        # shuts down must not turn its exit 2 into a death by signal.
        _State.exit_guard = True
        atexit.register(_ignore_signals_at_exit)


def release_for_other_commands() -> None:
    """A command that does not answer about money: default handling, and a signal received
    during start-up is delivered again (it ends the program as it would have)."""
    if not _State.program:
        return
    _State.program = False
    signal.signal(signal.SIGINT, signal.default_int_handler)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    for name in _State.early:
        os.kill(os.getpid(), signal.Signals[name])
    _State.early.clear()


def _ignore_signals_at_exit() -> None:
    """The answer is out: from here on a signal could only change the exit status (CPython puts
    the default handlers back while it shuts down, but leaves ignored signals ignored).
    Not for a command that gave them back: the default behaviour stays to the end there."""
    if not _State.program:
        return
    for sig in SIGNALS:
        signal.signal(sig, signal.SIG_IGN)


@contextmanager
def stop_on_signals() -> Iterator[SignalStop]:
    stop = SignalStop()
    for name in _State.early:
        stop.deliver(name)
    _State.early.clear()
    previous: dict[signal.Signals, Any] = {}
    main_thread = threading.current_thread() is threading.main_thread()
    if main_thread and not _State.program:
        for sig in SIGNALS:
            previous[sig] = signal.signal(sig, _handle)
    outer = _State.current
    _State.current = stop
    try:
        yield stop
    finally:
        if not _State.program:  # in a test: put everything back
            _State.current = outer
            for number, handler in previous.items():
                signal.signal(number, handler)
