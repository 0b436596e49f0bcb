"""Linux input keycodes (evdev) to characters, US layout, with Shift and Caps Lock.

Barcode scanners in keyboard mode send key presses for each character (Shift held for capitals
and symbols) and Enter at the end.
"""

from __future__ import annotations

from evdev import ecodes

_ROWS: dict[str, tuple[str, str]] = {
    "KEY_1": ("1", "!"), "KEY_2": ("2", "@"), "KEY_3": ("3", "#"), "KEY_4": ("4", "$"),
    "KEY_5": ("5", "%"), "KEY_6": ("6", "^"), "KEY_7": ("7", "&"), "KEY_8": ("8", "*"),
    "KEY_9": ("9", "("), "KEY_0": ("0", ")"), "KEY_MINUS": ("-", "_"), "KEY_EQUAL": ("=", "+"),
    "KEY_LEFTBRACE": ("[", "{"), "KEY_RIGHTBRACE": ("]", "}"), "KEY_SEMICOLON": (";", ":"),
    "KEY_APOSTROPHE": ("'", '"'), "KEY_GRAVE": ("`", "~"), "KEY_BACKSLASH": ("\\", "|"),
    "KEY_COMMA": (",", "<"), "KEY_DOT": (".", ">"), "KEY_SLASH": ("/", "?"),
    "KEY_SPACE": (" ", " "), "KEY_TAB": ("\t", "\t"),
    "KEY_KP0": ("0", "0"), "KEY_KP1": ("1", "1"), "KEY_KP2": ("2", "2"), "KEY_KP3": ("3", "3"),
    "KEY_KP4": ("4", "4"), "KEY_KP5": ("5", "5"), "KEY_KP6": ("6", "6"), "KEY_KP7": ("7", "7"),
    "KEY_KP8": ("8", "8"), "KEY_KP9": ("9", "9"), "KEY_KPMINUS": ("-", "-"),
    "KEY_KPPLUS": ("+", "+"), "KEY_KPASTERISK": ("*", "*"), "KEY_KPSLASH": ("/", "/"),
    "KEY_KPDOT": (".", "."),
}
KEYMAP: dict[int, tuple[str, str]] = {getattr(ecodes, name): chars for name, chars in _ROWS.items()}
for _letter in "ABCDEFGHIJKLMNOPQRSTUVWXYZ":
    KEYMAP[getattr(ecodes, f"KEY_{_letter}")] = (_letter.lower(), _letter)

SHIFT_KEYS = frozenset({ecodes.KEY_LEFTSHIFT, ecodes.KEY_RIGHTSHIFT})
ENTER_KEYS = frozenset({ecodes.KEY_ENTER, ecodes.KEY_KPENTER})

KEY_UP, KEY_DOWN, KEY_HOLD = 0, 1, 2


class KeyTranslator:
    """Feed (keycode, value) of EV_KEY events; get characters back ("\\n" for Enter)."""

    def __init__(self) -> None:
        self._shift_down: set[int] = set()
        self._caps = False

    def feed(self, code: int, value: int) -> str | None:
        if code in SHIFT_KEYS:
            if value == KEY_UP:
                self._shift_down.discard(code)
            else:
                self._shift_down.add(code)
            return None
        if value == KEY_UP:
            return None
        if code == ecodes.KEY_CAPSLOCK:
            if value == KEY_DOWN:
                self._caps = not self._caps
            return None
        if code in ENTER_KEYS:
            return "\n"
        chars = KEYMAP.get(code)
        if chars is None:
            return None
        shifted = bool(self._shift_down)
        normal, upper = chars
        if normal.isalpha() and self._caps:
            shifted = not shifted
        return upper if shifted else normal


class LineAssembler:
    """Characters -> complete lines (one scanned code per Enter)."""

    def __init__(self, translator: KeyTranslator | None = None) -> None:
        self.translator = translator or KeyTranslator()
        self._chars: list[str] = []

    def feed(self, code: int, value: int) -> str | None:
        char = self.translator.feed(code, value)
        if char is None:
            return None
        if char == "\n":
            line = "".join(self._chars)
            self._chars.clear()
            return line or None
        self._chars.append(char)
        return None
