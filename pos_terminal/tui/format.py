"""How money and times look on the cashier's screen."""

from __future__ import annotations

from pos_terminal.base.clock import day_bounds_ms, format_datetime, format_time
from pos_terminal.base.i18n import N_, _
from pos_terminal.base.paths import shown_path

__all__ = ["day_hint", "parse_day", "scanner_words", "show_day", "source_name", "vn_time"]

#: What hardware says of a scan source (its own English words), as the cashier reads them.
SOURCE_STATES = {"running": N_("running"), "stopped": N_("stopped"),
                 "disconnected": N_("disconnected"), "ready": N_("ready")}
SOURCE_DETAILS = {"capturing": N_("capturing"), "reconnected": N_("reconnected"),
                  "opening": N_("opening"), "reading": N_("reading"),
                  "listening for scanner key bursts": N_("listening for the scanner"),
                  "not started": N_("not started")}


def source_name(spec: str) -> str:
    """A scan source as the cashier calls it: "wedge" -> "the USB scanner", ..."""
    kind, _sep, arg = spec.partition(":")
    if kind == "wedge":
        return _("USB scanner")
    if kind == "synthetic":
        return _("demo camera")
    if kind == "camera":
        return _("camera {number}").format(number=arg)
    if kind in ("evdev", "serial"):
        return _("scanner {device}").format(device=arg.split(":", 1)[0])
    if kind in ("video", "images"):
        return _("test pictures {path}").format(path=shown_path(arg))
    return spec


def scanner_words(state: str, detail: str) -> tuple[str, str]:
    """The source's state and detail in the cashier's language. A detail hardware words as one
    of its usual phrases ("capturing: camera 0") is said in those words (the source is named
    first on the line already); any other (an error) is shown as it is."""
    for head, words in SOURCE_DETAILS.items():
        if detail == head or detail.startswith((head + ":", head + " ")):
            detail = _(words)
            break
    return _(SOURCE_STATES[state]) if state in SOURCE_STATES else state, detail


def show_day(day: str) -> str:
    """A ``YYYY-MM-DD`` day as the cashier reads it: ``25/11/2026``, in both languages, as every
    time on the screens and the receipts is written (base/clock.format_datetime)."""
    year, month, date = day.split("-")
    return f"{date}/{month}/{year}"


def day_hint() -> str:
    """How to type a day, in the form the screens show one (``2026-11-25`` is read too)."""
    return _("dd/mm/yyyy, Enter")


def parse_day(text: str) -> str | None:
    """A day as a cashier types it, ``25/11/2026``, ``25-11-2026`` or ``2026-11-25``, as
    ``YYYY-MM-DD``; None if it is not a real date."""
    parts = text.strip().replace("/", "-").replace(".", "-").split("-")
    if len(parts) != 3 or not all(p.isascii() and p.isdigit() for p in parts):
        return None
    year, month, date = parts if len(parts[0]) == 4 else parts[::-1]
    try:
        day = f"{int(year):04d}-{int(month):02d}-{int(date):02d}"
        day_bounds_ms(day)
    except ValueError:
        return None
    return day


def vn_time(ms: int, with_date: bool = True) -> str:
    """Unix milliseconds shown in Vietnam time, e.g. ``21/11/2026 14:03:07 (GMT+7)``."""
    return f"{format_datetime(ms)} (GMT+7)" if with_date else format_time(ms)
