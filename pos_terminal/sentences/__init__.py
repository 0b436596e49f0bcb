"""The one renderer: a reason (base/reasons.py) becomes a sentence in a language, when shown.

The payment core records and returns reasons (a code and its parameters); every front end (the
Textual screens, the CLI, headless mode, receipts) shows them through `render`, in the language
it shows, at the moment it shows them. So a journal written in Vietnamese reads in English after
F8, and ``status --language en`` prints English. A row written before reasons holds free text
(the reason ``text``): it is shown as it was written, in the language it was written in.

Parameters are formatted here: an ``amount`` (``minimum``, ``maximum``, ``ordered``) as VND, a
``*_ms`` time in Vietnam time, a nested reason (a dict with ``reason``) rendered in the same
language, and on the screens a file's path (``picture``, ``folder``, ``path``, ``config``)
shortened so that a line never breaks it inside a name (base/paths.py; the CLI prints it
whole). Importing this package installs `render` as the renderer of `base.reasons`, so an
error's ``message`` and a journal view's ``message`` render through it too. A reason an installed
wallet brings (``<wallet>.<what>``: its declaration's `sentences`) is found in the registry.

What a front end adds of its own is its next step (`use_front_end`): the screens name their keys
("mark it in History (O: override)") and say that the terminal keeps checking an open payment;
headless mode says the same of its checks and names the CLI for what only a person does there;
the CLI names its commands (`pos-terminal reconcile`, `pos-terminal override`).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from functools import lru_cache
from typing import Any

from pos_terminal import wallet_registry
from pos_terminal.base.clock import format_stamp
from pos_terminal.base.i18n import current_language, normalise, translate_to
from pos_terminal.base.money import format_vnd
from pos_terminal.base.paths import shown_path
from pos_terminal.base.reasons import TEXT, Reason, install_renderer

Translate = Callable[[str], str]
#: A sentence: a msgid formatted with the parameters, or a function of them.
Sentence = str | Callable[["Said"], str]

AMOUNT_PARAMS = frozenset({"amount", "minimum", "maximum", "ordered", "missing", "returned"})
PATH_PARAMS = frozenset({"picture", "folder", "path", "config"})
#: Amounts repeat (a History screen renders many rows' reasons): Babel's formatting is the
#: costly part of a render, so it is done once an amount.
_vnd = lru_cache(maxsize=4096)(format_vnd)
FRONT_ENDS = ("screen", "lines", "commands")
_front_end = "screen"


def use_front_end(kind: str) -> None:
    """``"screen"``: the Textual UI (keeps checking open payments; its next steps are keys);
    ``"lines"``: headless mode (keeps checking; a person's next step is a CLI command);
    ``"commands"``: a one-shot command, whose next step is another command (the CLI)."""
    global _front_end
    if kind not in FRONT_ENDS:
        raise ValueError(f"front end {kind!r}: one of {', '.join(FRONT_ENDS)}")
    _front_end = kind


def front_end() -> str:
    return _front_end


def keeps_checking() -> bool:
    """This program goes on checking open payments by itself (not a one-shot command)."""
    return _front_end != "commands"


def by_front_end(commands: str, screen: str) -> Callable[[Said], str]:
    """A sentence whose next step is a CLI command (the CLI, headless mode) or a key of the
    screens (the Textual UI)."""
    return lambda said: said.say(screen if _front_end == "screen" else commands)


class Said:
    """A reason's parameters, formatted for one language (what a sentence function reads)."""

    def __init__(self, params: Mapping[str, Any], language: str) -> None:
        self.raw = params
        self.language = language

    def tr(self, msgid: str) -> str:
        return translate_to(self.language, msgid)

    def __getitem__(self, name: str) -> Any:
        return self.raw.get(name)

    def formatted(self) -> dict[str, Any]:
        return {name: self.format(name, value) for name, value in self.raw.items()}

    def format(self, name: str, value: Any) -> Any:
        nested = Reason.from_dict(value)
        if nested is not None:
            return render(nested, self.language)
        if isinstance(value, list):
            return "; ".join(str(self.format(name, v)) for v in value)
        if name in AMOUNT_PARAMS and isinstance(value, int) and not isinstance(value, bool):
            return _vnd(value)
        if name.endswith("_ms") and isinstance(value, int):
            return format_stamp(value)
        if name in PATH_PARAMS and isinstance(value, str) and _front_end == "screen":
            return shown_path(value)
        return value

    def say(self, msgid: str, **extra: Any) -> str:
        """`msgid` in this language, formatted with the parameters (and `extra`)."""
        return self.tr(msgid).format(**{**self.formatted(), **extra})


_SENTENCES: dict[str, Sentence] = {}


def register(table: Mapping[str, Sentence]) -> None:
    clash = set(table) & set(_SENTENCES)
    if clash:
        raise ValueError(f"reason codes defined twice: {sorted(clash)}")
    _SENTENCES.update(table)


def known_codes() -> frozenset[str]:
    return frozenset(_SENTENCES) | {TEXT}


def render(reason: Reason, language: str | None = None) -> str:
    """`reason` as a sentence in `language` (None: the current language)."""
    if reason.code == TEXT:
        return str(reason.params.get("text", ""))
    chosen = current_language() if language is None else normalise(language)
    sentence = _SENTENCES.get(reason.code)
    if sentence is None and "." in reason.code:  # one an installed wallet brings
        sentence = wallet_registry.reason_sentence(reason.code)
    said = Said(reason.params, chosen)
    if sentence is None:  # a code from a newer version: its code and parameters, never nothing
        details = ", ".join(f"{k}={said.format(k, v)}" for k, v in reason.params.items())
        return f"{reason.code} ({details})" if details else reason.code
    if isinstance(sentence, str):
        return said.say(sentence)
    return sentence(said)


install_renderer(render)

# The tables register themselves (after `register` exists).
from pos_terminal.sentences import (  # noqa: E402
    moves,
    payments,
    printing,
    refusals,
    scanning,
    wallet_codes,
    wallets,
)

__all__ = ["Reason", "by_front_end", "front_end", "keeps_checking", "known_codes", "moves",
           "payments", "printing", "refusals", "register", "render", "scanning", "use_front_end",
           "wallet_codes", "wallets"]
