"""Pause points for the crash tests.

With ``POS_TERMINAL_PAUSE_AT=<step>`` in the environment the process stops at that step (after
writing the step name to ``POS_TERMINAL_PAUSE_FILE`` when set) so that a test can SIGKILL it at a
known place. Unset, a pause point costs one dictionary lookup.

With ``POS_TERMINAL_STOP_AT=<step>`` the process instead stops itself with SIGSTOP at that step
(after writing the marker), as a suspended laptop or a paused VM would: a test resumes it with
SIGCONT.

Steps: ``after_intent`` (intent committed, request not sent yet), ``before_send`` (the lease
claimed, the request about to leave), ``after_answer`` (answer received, not yet committed),
``refund_after_intent`` (a refund recorded, not sent yet), ``late_charge_before_return`` (a
late charge committed, its automatic return not recorded yet).
"""

from __future__ import annotations

import os
import signal
import time
from pathlib import Path

PAUSE_AT = "POS_TERMINAL_PAUSE_AT"
PAUSE_FILE = "POS_TERMINAL_PAUSE_FILE"
STOP_AT = "POS_TERMINAL_STOP_AT"


def pause_point(step: str) -> None:
    pause = os.environ.get(PAUSE_AT) == step
    stop = os.environ.get(STOP_AT) == step
    if not (pause or stop):
        return
    marker = os.environ.get(PAUSE_FILE)
    if marker:
        Path(marker).write_text(step, encoding="utf-8")
    if stop:
        os.kill(os.getpid(), signal.SIGSTOP)  # resumed by SIGCONT
        return
    while True:  # until killed
        time.sleep(3600)
