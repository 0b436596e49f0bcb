"""The Terminal API's bearer tokens: only their SHA-256 hashes are kept.

A token is 32 random bytes (`secrets.token_urlsafe`) behind the prefix ``pt_``, shown once when
it is added. With that much entropy a plain SHA-256 is enough to store it (no salt or slow hash
is needed, unlike a 4-digit PIN), and a lookup by hash is one index probe per request. A token is
removed by marking it (its row stays, so the journal shows who had access when); a removed
token's name may be used again.
"""

from __future__ import annotations

import hashlib
import re
import secrets
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from pos_terminal.base.clock import format_stamp
from pos_terminal.base.reasons import Reason
from pos_terminal.journal.errors import JournalError
from pos_terminal.journal.store import Journal

#: pay: payments (charge, status, abort); refund: ask for refunds; reports: X/Z, receipts;
#: display: only the customer display's page and events; trusted-refund: refunds without a
#: supervisor's PIN on each (the shop's choice, made once by a supervisor when the token is added)
SCOPES: tuple[str, ...] = ("pay", "refund", "reports", "display", "trusted-refund")
DEFAULT_SCOPES: tuple[str, ...] = ("pay", "refund", "reports")
PREFIX = "pt_"
_NAME = re.compile(r"[A-Za-z0-9_.-]{1,64}")
_COLUMNS = "id, name, scopes, authorised_by, created_ms, removed_ms"


class TokenError(JournalError):
    """A token operation refused; the message says what to do."""


@dataclass(frozen=True)
class ApiToken:
    id: int
    name: str
    scopes: tuple[str, ...]
    authorised_by: str | None  # the supervisor who allowed a trusted-refund scope
    created_ms: int
    removed_ms: int | None

    def allows(self, scope: str) -> bool:
        return scope in self.scopes

    def to_json(self) -> dict[str, Any]:
        """Everything but the hash."""
        return {"name": self.name, "scopes": list(self.scopes),
                "authorised_by": self.authorised_by, "created_ms": self.created_ms,
                "created_vn": format_stamp(self.created_ms), "removed_ms": self.removed_ms,
                "removed_vn": format_stamp(self.removed_ms) or None}


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def check_scopes(scopes: Iterable[str]) -> tuple[str, ...]:
    chosen = tuple(dict.fromkeys(s.strip() for s in scopes if s.strip()))
    unknown = [s for s in chosen if s not in SCOPES]
    if unknown or not chosen:
        raise TokenError(Reason.of("token.unknown_scope",
                                   scopes=", ".join(repr(s) for s in unknown) or "''",
                                   allowed=", ".join(SCOPES)))
    return chosen


def _token(row: Sequence[Any]) -> ApiToken:
    return ApiToken(int(row[0]), str(row[1]), tuple(str(row[2]).split()), row[3], int(row[4]),
                    row[5])


class ApiTokens:
    """The token book of one journal (same file, same connection and lock)."""

    def __init__(self, journal: Journal) -> None:
        self.journal = journal

    def add(self, name: str, scopes: Iterable[str] = DEFAULT_SCOPES, *,
            authorised_by: str | None = None) -> tuple[str, ApiToken]:
        """A new token (returned once, never stored) and its row."""
        if not _NAME.fullmatch(name):
            raise TokenError(Reason.of("token.bad_name", name=repr(name[:80])))
        chosen = check_scopes(scopes)
        token = PREFIX + secrets.token_urlsafe(32)
        t = self.journal.now()
        with self.journal._tx() as conn:
            if conn.execute("SELECT 1 FROM api_tokens WHERE name=? AND removed_ms IS NULL",
                            (name,)).fetchone():
                raise TokenError(Reason.of("token.exists", name=name))
            cur = conn.execute(
                "INSERT INTO api_tokens(name, token_hash, scopes, authorised_by, created_ms) "
                "VALUES (?,?,?,?,?)", (name, token_hash(token), " ".join(chosen), authorised_by, t))
            row = conn.execute(f"SELECT {_COLUMNS} FROM api_tokens WHERE id=?",  # noqa: S608
                               (cur.lastrowid,)).fetchone()
        return token, _token(row)

    def all(self, *, include_removed: bool = False) -> list[ApiToken]:
        where = "" if include_removed else " WHERE removed_ms IS NULL"
        rows = self.journal._read(f"SELECT {_COLUMNS} FROM api_tokens{where} "  # noqa: S608
                                  "ORDER BY created_ms, id")
        return [_token(r) for r in rows]

    def remove(self, name: str) -> ApiToken:
        t = self.journal.now()
        with self.journal._tx() as conn:
            cur = conn.execute("UPDATE api_tokens SET removed_ms=? WHERE name=? AND "
                               "removed_ms IS NULL", (t, name))
            if cur.rowcount == 0:
                raise TokenError(Reason.of("token.unknown", name=repr(name[:80])))
            row = conn.execute(f"SELECT {_COLUMNS} FROM api_tokens WHERE name=? "  # noqa: S608
                               "ORDER BY id DESC LIMIT 1", (name,)).fetchone()
        return _token(row)

    def verify(self, token: str) -> ApiToken | None:
        """The active token this is, or None."""
        if not token.startswith(PREFIX) or len(token) > 200:
            return None
        rows = self.journal._read(f"SELECT {_COLUMNS} FROM api_tokens "  # noqa: S608
                                  "WHERE token_hash=? AND removed_ms IS NULL",
                                  (token_hash(token),))
        return _token(rows[0]) if rows else None
