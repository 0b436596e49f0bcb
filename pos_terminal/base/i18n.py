"""The cashier's language: gettext catalogs read straight from the `.po` files.

English is the source language (the msgids); Vietnamese comes from
``pos_terminal/locale/vi/LC_MESSAGES/*.po``, one catalog per domain (``pos_terminal`` for the
CLI, headless mode, checkout messages and receipts; ``tui`` for the Textual screens). The `.po`
files are read with Babel at first use, so there is no compile step and no binary `.mo` in git.

A wallet installed apart brings its own sentences (its declaration's `sentences`:
docs/architecture.md, "Adding a wallet"): the registry adds their translations with
`add_translations` when it loads the wallet. They join the catalog of their language below the
terminal's own: a msgid the `.po` files translate keeps the terminal's translation.

JSON keys, codes and log lines are never translated; only what a person reads.
"""

from __future__ import annotations

import os
import re
import threading
from collections.abc import Iterable, Mapping
from pathlib import Path

from babel.messages.pofile import read_po

LANGUAGES: tuple[str, ...] = ("vi", "en")
SOURCE_LANGUAGE = "en"
DOMAINS: tuple[str, ...] = ("pos_terminal", "tui")
LOCALE_DIR = Path(__file__).resolve().parent.parent / "locale"

# {name}, {0}, {} and printf's %s / %d / %(name)s: a translation must keep exactly these.
_PLACEHOLDER = re.compile(r"\{[A-Za-z_0-9]*(?:![rsa])?(?::[^{}]*)?\}|%(?:\([a-z_]+\))?[sdrf]")

_lock = threading.Lock()
_catalogs: dict[str, dict[str, str]] = {}
#: translations added by installed wallets, by language (below the `.po` files' own)
_added: dict[str, dict[str, str]] = {}
_language: str | None = None


def language_from_environment(environ: dict[str, str] | None = None) -> str:
    """``vi`` when the POSIX locale variables ask for Vietnamese, else ``en``."""
    env = os.environ if environ is None else environ
    for name in ("LC_ALL", "LC_MESSAGES", "LANG", "LANGUAGE"):
        value = env.get(name, "")
        if value:
            return "vi" if value.lower().startswith("vi") else "en"
    return SOURCE_LANGUAGE


def locale_language(environ: dict[str, str] | None = None) -> str | None:
    """The language the POSIX locale variables name, or None when they name none (unset, or
    the "C"/"POSIX" locale of a bare system or container)."""
    env = os.environ if environ is None else environ
    for name in ("LC_ALL", "LC_MESSAGES", "LANG", "LANGUAGE"):
        value = env.get(name, "")
        if value:
            if value.split(".", 1)[0].upper() in ("C", "POSIX"):
                return None
            return "vi" if value.lower().startswith("vi") else "en"
    return None


def normalise(language: str) -> str:
    """``"VI"``, ``"vi_VN.UTF-8"`` -> ``"vi"``; ValueError for a language we do not ship."""
    short = language.strip().lower().replace("-", "_").split("_", 1)[0].split(".", 1)[0]
    if short not in LANGUAGES:
        raise ValueError(
            f"language {language!r} is not available; use one of: {', '.join(LANGUAGES)}"
        )
    return short


def set_language(language: str) -> str:
    """Make ``language`` the one every later `_()` answers in (process-wide); returns it."""
    global _language
    chosen = normalise(language)
    with _lock:
        _language = chosen
    return chosen


def current_language() -> str:
    if _language is None:
        return language_from_environment()
    return _language


def placeholders(text: str) -> list[str]:
    """The placeholders of `text`, sorted: a translation must keep exactly its msgid's."""
    return sorted(_PLACEHOLDER.findall(text))


def read_po_file(path: Path, language: str) -> dict[str, str]:
    """msgid -> translation of one `.po` file (its untranslated and fuzzy entries left out)."""
    with path.open("rb") as handle:
        found = read_po(handle, locale=language)
    return {message.id: str(message.string) for message in found
            if message.id and isinstance(message.id, str) and message.string
            and not message.fuzzy}


def _load(language: str, domains: Iterable[str] = DOMAINS) -> dict[str, str]:
    merged: dict[str, str] = dict(_added.get(language, {}))
    for domain in domains:
        path = LOCALE_DIR / language / "LC_MESSAGES" / f"{domain}.po"
        if path.exists():
            merged.update(read_po_file(path, language))
    return merged


def add_translations(language: str, table: Mapping[str, str]) -> None:
    """Add `table` (msgid -> its translation in `language`) to that language's catalog, below
    what the catalog already translates (an installed wallet's sentences: wallet_registry)."""
    chosen = normalise(language)
    if chosen == SOURCE_LANGUAGE:
        return
    with _lock:
        added = _added.setdefault(chosen, {})
        for msgid, text in table.items():
            added.setdefault(msgid, text)
        loaded = _catalogs.get(chosen)
        if loaded is not None:
            for msgid, text in table.items():
                loaded.setdefault(msgid, text)


def catalog(language: str) -> dict[str, str]:
    """msgid -> translation for ``language`` (empty for the source language)."""
    if language == SOURCE_LANGUAGE:
        return {}
    with _lock:
        found = _catalogs.get(language)
        if found is None:
            found = _catalogs[language] = _load(language)
        return found


def gettext(message: str) -> str:
    """``message`` in the current language (itself when there is no translation)."""
    return catalog(current_language()).get(message, message)


def ngettext(singular: str, plural: str, count: int) -> str:
    """The form for `count` in the current language. Both forms are msgids of their own in
    the catalogs (Vietnamese has one form: both translate alike); English takes the singular
    for 1 only."""
    return gettext(singular if count == 1 else plural)


def translate_to(language: str, message: str) -> str:
    """``message`` in ``language`` whatever the current one is (receipts in the shop's language)."""
    return catalog(normalise(language)).get(message, message)


def N_(message: str) -> str:
    """Marks a module-level constant for extraction; translate it with `_()` where it is shown."""
    return message


_ = gettext
