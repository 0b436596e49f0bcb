"""The ledger's connection string: where it comes from, and how it is shown (never in full)."""

from __future__ import annotations

import os
from collections.abc import Mapping

from psycopg.conninfo import conninfo_to_dict

from pos_terminal.config import Settings

DSN_ENV = "POS_LEDGER_DSN"


def ledger_dsn(settings: Settings, env: Mapping[str, str] | None = None) -> str:
    """POS_LEDGER_DSN when set, else `[ledger] dsn`; "" when neither (no ledger)."""
    environ = os.environ if env is None else env
    return environ.get(DSN_ENV) or settings.ledger.dsn


def describe_dsn(dsn: str) -> str:
    """`user@host:port/dbname` of a DSN, never its password (for every message and log)."""
    try:
        parts = conninfo_to_dict(dsn)
    except Exception:
        return "the configured ledger (its connection string cannot be read)"
    host = str(parts.get("host") or parts.get("hostaddr") or "localhost")
    port = str(parts.get("port") or "5432")
    user = str(parts.get("user") or "")
    db = str(parts.get("dbname") or user)
    return f"{user + '@' if user else ''}{host}:{port}/{db}"


def scrub(text: str, dsn: str) -> str:
    """`text` (e.g. a driver's error) with the DSN's password and the DSN itself masked."""
    secrets: list[str] = []
    try:
        password = conninfo_to_dict(dsn).get("password")
    except Exception:
        password = None
    if password:
        secrets.append(str(password))
    if dsn:
        secrets.append(dsn)
    for secret in sorted(secrets, key=len, reverse=True):
        text = text.replace(secret, "***")
    return text
