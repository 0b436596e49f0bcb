"""Transaction ids: ``yymmdd_`` in Vietnam time (GMT+7), unique across restarts and terminals."""

from __future__ import annotations

import re
import secrets
from datetime import datetime

from pos_terminal.base import clock

APP_TRANS_ID_MAX = 40
M_REFUND_ID_MAX = 45
TERMINAL_ID_MAX = 8

_ALPHANUMERIC = re.compile(r"[^A-Za-z0-9]")
_BASE36 = "0123456789abcdefghijklmnopqrstuvwxyz"


def current_ms() -> int:
    """Now, in Unix milliseconds."""
    return clock.now_ms()


def vn_datetime(ms: int) -> datetime:
    return clock.vn_datetime(ms)


def vn_date_prefix(ms: int) -> str:
    """``yymmdd`` of the instant ``ms`` (Unix milliseconds) in Vietnam time."""
    return clock.yymmdd(ms)


def _random_base36(length: int) -> str:
    return "".join(secrets.choice(_BASE36) for _ in range(length))


def _unique_part(ms: int, random_chars: int) -> str:
    # Milliseconds of the Vietnam day keep ids sortable; the random tail makes two terminals
    # (or a restart within the same millisecond) collide with probability 36**-random_chars.
    moment = vn_datetime(ms)
    return moment.strftime("%H%M%S") + f"{ms % 1000:03d}" + _random_base36(random_chars)


def clean_terminal_id(terminal_id: str) -> str:
    """Reduce a terminal id to ``[A-Za-z0-9]``, at most 8 characters."""
    cleaned = _ALPHANUMERIC.sub("", terminal_id)[:TERMINAL_ID_MAX]
    if not cleaned:
        raise ValueError(
            f"terminal id {terminal_id!r} has no letters or digits: set [terminal] terminal_id"
        )
    return cleaned


def new_app_trans_id(terminal_id: str, now_ms: int | None = None) -> str:
    """``yymmdd_<terminal>_<hhmmssmmm><random>``, at most 31 characters (limit 40)."""
    ms = current_ms() if now_ms is None else now_ms
    result = f"{vn_date_prefix(ms)}_{clean_terminal_id(terminal_id)}_{_unique_part(ms, 6)}"
    assert len(result) <= APP_TRANS_ID_MAX
    return result


def new_refund_id(app_id: int, now_ms: int | None = None, *,
                  terminal_id: str | None = None) -> str:
    """``yymmdd_<appid>_<terminal><hhmmssmmm><random>`` (limit 45).

    With the terminal id in it a refund id is unique across a fleet of counters by
    construction, like app_trans_id (left out only when a very long app id leaves no room)."""
    ms = current_ms() if now_ms is None else now_ms
    head = f"{vn_date_prefix(ms)}_{app_id}_"
    if terminal_id is not None:
        terminal = clean_terminal_id(terminal_id)
        if M_REFUND_ID_MAX - len(head) - len(terminal) - 9 >= 4:
            head += terminal
    result = head + _unique_part(ms, min(8, M_REFUND_ID_MAX - len(head) - 9))
    if len(result) > M_REFUND_ID_MAX:
        raise ValueError(f"app id {app_id} is too long to build a refund id")
    return result
