"""Pause points for the crash tests.

With ``POS_TERMINAL_PAUSE_AT=<step>`` in the environment the process stops at that step (after
writing the step name to ``POS_TERMINAL_PAUSE_FILE`` when set) so that a test can SIGKILL it at a
known place. Unset, a pause point costs one dictionary lookup.

Steps: ``after_intent`` (intent committed, request not sent yet), ``after_answer`` (answer
received, not yet committed).
"""

from __future__ import annotations

import os
import time
from pathlib import Path

PAUSE_AT = "POS_TERMINAL_PAUSE_AT"
PAUSE_FILE = "POS_TERMINAL_PAUSE_FILE"


def pause_point(step: str) -> None:
    if os.environ.get(PAUSE_AT) != step:
        return
    marker = os.environ.get(PAUSE_FILE)
    if marker:
        Path(marker).write_text(step, encoding="utf-8")
    while True:  # until killed
        time.sleep(3600)
