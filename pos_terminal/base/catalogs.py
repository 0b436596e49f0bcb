"""Keeping the `.po` catalogs in step with the code (scripts/extract-messages, tests/base).

Babel's Python extractor finds every `_("...")` and `N_("...")` (and a built-in wallet's
demo customers' behaviours: `KEYWORDS`); strings under
``pos_terminal/tui`` belong to the ``tui`` domain, all others to ``pos_terminal``.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

from babel.messages.catalog import Catalog
from babel.messages.extract import extract_from_dir
from babel.messages.pofile import read_po, write_po

from pos_terminal.base.i18n import LANGUAGES, LOCALE_DIR, SOURCE_LANGUAGE, placeholders

PACKAGE_DIR = LOCALE_DIR.parent
_FIXED_DATE = datetime(2026, 11, 1, tzinfo=UTC)  # no date churn in git on every extraction
# A built-in wallet's demo customers' behaviours (wallet_registry.DemoCustomer's third
# argument) are English shown translated: its declaration, which imports no catalog, marks none.
KEYWORDS = {"_": None, "N_": None, "translate_to": (2,), "ngettext": (1, 2),
            "DemoCustomer": (3,)}
HEADERS = {
    "pos_terminal": "Vietnamese translations of pos-terminal (CLI, headless mode, checkout "
                    "messages, receipts).",
    "tui": "Vietnamese translations of pos-terminal (the Textual screens).",
}


@dataclass(frozen=True)
class Found:
    msgid: str
    domain: str
    where: str  # "pos_terminal/tui/app.py:57"


def domain_of(relative: str) -> str:
    return "tui" if relative.startswith("tui/") else "pos_terminal"


def extract(package_dir: Path = PACKAGE_DIR) -> list[Found]:
    """Every marked string of the package, in file order."""
    found: list[Found] = []
    for filename, lineno, message, _comments, _context in extract_from_dir(
            str(package_dir), method_map=[("**.py", "python")], keywords=KEYWORDS,
            comment_tags=(), strip_comment_tags=True):
        relative = filename.replace("\\", "/")
        for text in message if isinstance(message, tuple) else (message,):  # ngettext: both
            if isinstance(text, str) and text:
                found.append(Found(text, domain_of(relative), f"pos_terminal/{relative}:{lineno}"))
    return found


def po_path(language: str, domain: str) -> Path:
    return LOCALE_DIR / language / "LC_MESSAGES" / f"{domain}.po"


def read_catalog(path: Path, language: str, domain: str) -> Catalog:
    if not path.exists():
        return Catalog(locale=language, domain=domain)
    with path.open("rb") as handle:
        return read_po(handle, locale=language, domain=domain)


def update(found: Iterable[Found], languages: Sequence[str] = LANGUAGES) -> list[Path]:
    """Rewrite every catalog with the strings found, keeping the translations it had."""
    by_domain: dict[str, dict[str, list[str]]] = {}
    for item in found:
        by_domain.setdefault(item.domain, {}).setdefault(item.msgid, []).append(item.where)
    written: list[Path] = []
    for language in languages:
        if language == SOURCE_LANGUAGE:
            continue
        for domain in HEADERS:
            path = po_path(language, domain)
            old = read_catalog(path, language, domain)
            new = Catalog(locale=language, domain=domain, project="pos-terminal",
                          version="", header_comment=f"# {HEADERS[domain]}", fuzzy=False,
                          creation_date=_FIXED_DATE, revision_date=_FIXED_DATE,
                          last_translator="pos-terminal", language_team="vi")
            for msgid in by_domain.get(domain, {}):
                before = old.get(msgid)
                new.add(msgid, before.string if before is not None else "")
            path.parent.mkdir(parents=True, exist_ok=True)
            with path.open("wb") as handle:
                write_po(handle, new, width=100, omit_header=False, sort_output=False,
                         include_previous=False, no_location=True)  # no line-number churn
            written.append(path)
    return written


def problems(found: Iterable[Found], language: str = "vi") -> list[str]:
    """A line per marked string with no translation, and per translation whose placeholders
    differ from its msgid's."""
    out: list[str] = []
    catalogs = {d: read_catalog(po_path(language, d), language, d) for d in HEADERS}
    seen: set[tuple[str, str]] = set()
    for item in found:
        if (item.domain, item.msgid) in seen:
            continue
        seen.add((item.domain, item.msgid))
        message = catalogs[item.domain].get(item.msgid)
        if message is None or not message.string or message.fuzzy:
            out.append(f"{item.where}: no {language} translation in {item.domain}.po: "
                       f"{item.msgid!r}")
    for domain, catalog in catalogs.items():
        for message in catalog:
            if not message.id or not message.string:
                continue
            if placeholders(str(message.id)) != placeholders(str(message.string)):
                out.append(f"{domain}.po: placeholders of {message.id!r} are "
                           f"{placeholders(str(message.id))}, its translation has "
                           f"{placeholders(str(message.string))}")
    return out


def main(argv: Sequence[str]) -> int:
    found = extract()
    if "--check" in argv:
        lines = problems(found)
        for line in lines:
            print(line)
        print(f"{len(lines)} problem(s) in {len({f.msgid for f in found})} marked strings")
        return 1 if lines else 0
    for path in update(found):
        print(f"wrote {path.relative_to(PACKAGE_DIR.parent)}")
    missing = problems(found)
    print(f"{len({f.msgid for f in found})} marked strings; {len(missing)} problem(s) "
          "(scripts/extract-messages --check lists them)")
    return 0
