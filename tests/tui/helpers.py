"""Driving the App like a cashier (keys) and a USB scanner (bursts): real Key events, sent
through the App's driver like a terminal's, stamped with the times a person or a scanner
would type them."""

from __future__ import annotations

import itertools
import time
import unicodedata
from collections.abc import Callable

from textual import events
from textual.css.query import NoMatches
from textual.keys import REPLACED_KEYS, _character_to_key, _get_unicode_name_from_key
from textual.pilot import Pilot
from textual.widget import Widget
from textual.widgets import DataTable, Footer, Static

from pos_terminal.text_safety import clean
from pos_terminal.tui.widgets.phrases import PhraseLine, wrap_phrases
from tests.tui.conftest import HUMAN_GAP_S, SCANNER_GAP_S, KeyClock


def make_key(key: str, at: float) -> events.Key:
    """The Key event a terminal driver produces for `key` (a character or a key name)."""
    if len(key) == 1 and not key.isalnum():
        key = _character_to_key(key)
    original = REPLACED_KEYS.get(key, key)
    char: str | None
    try:
        char = unicodedata.lookup(_get_unicode_name_from_key(original))
    except KeyError:
        char = key if len(key) == 1 else None
    event = events.Key(key, char)
    event.time = at
    return event


def send_key(pilot: Pilot, event: events.Key) -> None:
    event.set_sender(pilot.app)
    assert pilot.app._driver is not None
    pilot.app._driver.send_message(event)


async def type_keys(pilot: Pilot, clock: KeyClock, *keys: str) -> None:
    """A person typing: keys well apart; afterwards the last held key is let through."""
    taken = pilot.app.keys.seen + len(keys)
    for key in keys:
        send_key(pilot, make_key(key, clock.next(HUMAN_GAP_S)))
        await pilot.pause()
    clock.next(HUMAN_GAP_S)
    await keys_handled(pilot, taken)  # the wedge's hold-back timer has let the last key go


async def type_ahead(pilot: Pilot, clock: KeyClock, *keys: str) -> None:
    """A fast cashier typing ahead: keys a person's gap apart, all in the driver's queue
    before the App has handled the first (a dialog the first key opens is not composed yet
    when the next key is read)."""
    taken = pilot.app.keys.seen + len(keys)
    for event in [make_key(key, clock.next(HUMAN_GAP_S)) for key in keys]:
        send_key(pilot, event)
    clock.next(HUMAN_GAP_S)
    await keys_handled(pilot, taken)


async def scan_burst(pilot: Pilot, clock: KeyClock, text: str, enter: bool = True,
                     gap: float = SCANNER_GAP_S) -> None:
    """A USB scanner in keyboard mode: `text` in one burst, ending in Enter."""
    clock.next(HUMAN_GAP_S)
    keys = [*text, "enter"] if enter else list(text)
    taken = pilot.app.keys.seen + len(keys)
    # Stamped, then sent: the burst keeps its rhythm however slowly this loop runs.
    for event in [make_key(key, at) for key, at in zip(keys, clock.burst(len(keys), gap),
                                                      strict=True)]:
        send_key(pilot, event)
    clock.next(HUMAN_GAP_S)
    await keys_handled(pilot, taken)


async def keys_handled(pilot: Pilot, taken: int) -> None:
    """Wait until the App has taken `taken` keys in all and holds none back: a burst decided
    (scan or typing), held keys replayed, editing keys through their bindings. A state, not a
    time: on a loaded machine the wedge's hold-back timer fires late."""
    app = pilot.app
    await wait_until(pilot, lambda: app.keys.seen >= taken and app.keys.quiet,
                     what=f"the App to take {taken} keys")
    await pilot.pause()


async def wait_until(pilot: Pilot, condition: Callable[[], bool], timeout: float = 15.0,
                     what: str = "condition") -> None:
    """Let the App run until `condition` holds (an upper bound, not a timing assertion). A
    widget the condition reads that a screen just pushed has not mounted yet is "not yet"."""
    deadline = time.monotonic() + timeout

    def holds() -> bool:
        try:
            return condition()
        except NoMatches:
            return False

    while not holds():
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {what}; on {pilot.app.screen!r}: "
                                 f"{screen_text(pilot)!r}; notices: "
                                 f"{[n.message for n in pilot.app._notifications]}")
        await pilot.pause(0.05)


def said_by(widget: Static) -> str:
    """The words `widget` says: a PhraseLine's sentence whole (drawn, it is broken into lines
    at the width it has: `widget_lines` reads those), any other Static's text as rendered."""
    return widget.text if isinstance(widget, PhraseLine) else str(widget.render())


def text_of(pilot: Pilot, selector: str) -> str:
    return said_by(pilot.app.screen.query_one(selector, Static))


def shown(pilot: Pilot, selector: str) -> str:
    """What `selector` shows now, "" while it is not there: a screen redrawn by F8 (its
    widgets removed, then composed again) or a pushed screen not yet composed. For the
    conditions of `wait_until`, where `text_of` would raise in that window."""
    found = pilot.app.screen.query(selector).results(Static)
    widget = next(iter(found), None)
    return "" if widget is None else said_by(widget)


def screen_text(pilot: Pilot) -> str:
    return "\n".join(said_by(w) for w in pilot.app.screen.query(Static))


def screen_lines(pilot: Pilot) -> list[str]:
    """The screen as the terminal shows it, one string a line."""
    return [strip.text for strip in pilot.app.screen._compositor.render_strips()]


def widget_lines(pilot: Pilot, selector: str) -> list[str]:
    """The lines of `selector`'s region as the terminal shows them, stripped."""
    return visible_lines(pilot, pilot.app.screen.query_one(selector))


def visible_lines(pilot: Pilot, widget: Widget) -> list[str]:
    """The lines of `widget`'s region as the terminal shows them, stripped; an AssertionError
    when part of it is cut off (by its container or the screen's edge)."""
    geometry = pilot.app.screen.find_widget(widget)
    region = geometry.region
    assert geometry.visible_region == region, (
        f"{widget!r} is cut off: {region} shows only {geometry.visible_region}")
    lines = screen_lines(pilot)[region.y:region.bottom]
    return [line[region.x:region.right].strip() for line in lines]


def phrases_settled(pilot: Pilot) -> bool:
    """Every PhraseLine shown is drawn broken at the width it has now, and laid out that tall:
    it breaks its text again on Resize, a message that may come after its screen is up (and a
    new sentence of another height is laid out on the next refresh)."""
    for line in pilot.app.screen.query(PhraseLine):
        if not all(node.display for node in line.ancestors_with_self
                   if isinstance(node, Widget)):
            continue
        width, height = line.content_size
        if not width:
            return False
        wrapped = wrap_phrases(line.text, width)
        if str(line.render()) != clean("\n".join(wrapped), newlines=True) or height < len(
                wrapped):
            return False
    return True


async def wait_for_phrases(pilot: Pilot) -> None:
    await wait_until(pilot, lambda: phrases_settled(pilot),
                     what="the sentences drawn at their width")
    await pilot.pause()


def broken_inside_a_phrase(lines: list[str]) -> list[tuple[str, str]]:
    """The pairs of consecutive lines whose break is not between two phrases (after a
    sentence, ",", ";", ":" or "·", or before "("): in Vietnamese such a break can cut a word
    ("thất / bại")."""
    shown = [line for line in lines if line]
    return [(above, below) for above, below in itertools.pairwise(shown)
            if not (above.endswith((",", ";", ":", "·", ".", "?", "!"))
                    or below.startswith("("))]


def footer_bindings(pilot: Pilot) -> list[str]:
    """The key hints the current screen's Footer must show: one per action, as Footer does."""
    wanted: dict[str, str] = {}
    for _node, binding, _enabled, _tooltip in pilot.app.screen.active_bindings.values():
        if binding.show and binding.description:
            wanted.setdefault(binding.action, binding.description)
    return list(wanted.values())


def footer_shows_bindings(pilot: Pilot) -> bool:
    """The Footer on screen shows exactly the screen's current key bindings.

    Textual rebuilds a Footer only after the refresh that follows a bindings change (a new
    screen, `refresh_bindings()` once a detail has loaded...): until then it is empty or still
    shows the previous bindings, and on a loaded machine "until then" can be any time."""
    footers = pilot.app.screen.query(Footer)
    if not footers:
        return True
    wanted = footer_bindings(pilot)
    shown = [str(key.description) for key in footers.first().query("FooterKey")]
    line = screen_lines(pilot)[-1]
    return sorted(shown) == sorted(wanted) and all(label in line for label in wanted)


async def wait_for_footer(pilot: Pilot) -> str:
    """The footer line as the terminal shows it, once it shows the screen's key bindings."""
    await wait_until(pilot, lambda: footer_shows_bindings(pilot),
                     what=f"the footer to show {footer_bindings(pilot)}")
    return screen_lines(pilot)[-1]


def tables_measured(pilot: Pilot) -> bool:
    """Every DataTable on screen has measured its rows and columns. A DataTable measures new
    rows and column widths only on an Idle event (when its message queue runs empty), which on a
    loaded machine can come after the test has looked: until then its columns are as narrow as
    their labels. (Textual has no public flag for this: these are its pending-work markers.)"""
    return not any(table._require_update_dimensions or table._updated_cells or table._new_rows
                   for table in pilot.app.screen.query(DataTable))


async def wait_for_tables(pilot: Pilot) -> None:
    await wait_until(pilot, lambda: tables_measured(pilot), what="the tables to be measured")
    await pilot.pause()
