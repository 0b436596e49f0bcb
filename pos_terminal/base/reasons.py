"""Reasons: what the core says about a payment, a refund or a refusal, in no language.

A reason is a stable code and its parameters (``declined.balance``,
``unknown.still_open{seconds}``, ``late.returned{amount}``). The payment core (wallet, journal,
checkout) records and returns reasons, never sentences: the journal keeps them as JSON in its
``message`` columns, and a front end turns one into a sentence in the language it shows, at the
moment it shows it (``pos_terminal.sentences``). A journal row written before reasons existed
holds free text: it reads back as the reason ``text{text}``, shown as it was written.

The renderer is installed here by ``pos_terminal.sentences`` when it is imported (so this base
module, like the core, never imports the catalogs); until then a reason reads as its code.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

#: The code of a free-text note: a row written before reasons, or words a person typed.
TEXT = "text"
_MARK = "reason"  # the key that tells a stored reason from free text

Renderer = Callable[["Reason", "str | None"], str]
_renderer: Renderer | None = None


@dataclass(frozen=True)
class Reason:
    """A code (``declined.balance``) and its JSON-able parameters. A parameter may itself be a
    reason (its dict, `as_dict`), or a list of them (``problems``)."""

    code: str
    params: Mapping[str, Any] = field(default_factory=dict)

    @classmethod
    def of(cls, code: str, /, **params: Any) -> Reason:
        return cls(code, {k: _plain(v) for k, v in params.items()})

    @classmethod
    def text(cls, text: str) -> Reason:
        return cls(TEXT, {"text": text})

    def with_params(self, **params: Any) -> Reason:
        """The same reason with `params` added or replaced: how a front end names its own
        fields (the CLI's ``--item``) in a rule's reason before rendering it."""
        return Reason(self.code, {**self.params, **{k: _plain(v) for k, v in params.items()}})

    def as_dict(self) -> dict[str, Any]:
        return {_MARK: self.code, "params": dict(self.params)}

    def dumps(self) -> str:
        """The journal's form: ``{"reason": code, "params": {...}}``."""
        return json.dumps(self.as_dict(), ensure_ascii=False, separators=(",", ":"),
                          sort_keys=True)

    @classmethod
    def loads(cls, stored: str | None) -> Reason:
        """A journal ``message`` back into a reason; free text (older rows) is ``text``."""
        stored = stored or ""
        if stored.startswith("{"):
            try:
                data = json.loads(stored)
            except ValueError:
                data = None
            found = cls.from_dict(data)
            if found is not None:
                return found
        return cls.text(stored)

    @classmethod
    def from_dict(cls, data: object) -> Reason | None:
        if (isinstance(data, dict) and isinstance(data.get(_MARK), str)
                and isinstance(data.get("params", {}), dict)):
            return cls(data[_MARK], data.get("params", {}))
        return None

    def __hash__(self) -> int:  # views that hold a reason stay hashable
        return hash(self.dumps())

    def __str__(self) -> str:
        return render(self)


def _plain(value: Any) -> Any:
    """Parameters as JSON keeps them: a nested reason becomes its dict."""
    if isinstance(value, Reason):
        return value.as_dict()
    if isinstance(value, list | tuple):
        return [_plain(v) for v in value]
    return value


def stored(message: Reason | str) -> str:
    """What a journal column keeps for `message` (a reason's JSON, or free text as it is)."""
    return message.dumps() if isinstance(message, Reason) else message


def install_renderer(renderer: Renderer) -> None:
    """Called once by ``pos_terminal.sentences``: how every reason becomes a sentence."""
    global _renderer
    _renderer = renderer


def render(reason: Reason, language: str | None = None) -> str:
    """`reason` as a sentence in `language` (None: the current one)."""
    if _renderer is not None:
        return _renderer(reason, language)
    if reason.code == TEXT:
        return str(reason.params.get("text", ""))
    return reason.code


__all__ = ["TEXT", "Reason", "install_renderer", "render", "stored"]
