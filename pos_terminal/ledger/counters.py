"""Head office gives each counter its own PostgreSQL login (`fleet add-counter`) and takes it
away (`fleet remove-counter`), with the ledger owner's connection.

A counter's login is a member of the ledger's counters group (grants of schema migration 2) and
is named in the `counters` table, which the row-level security policies read: it writes only
rows of its own terminal id. Its password is made here, given to PostgreSQL as a SCRAM verifier
(the clear password never reaches the server's logs or pg_stat_activity) and printed once.
"""

from __future__ import annotations

import re
import secrets
from contextlib import suppress
from dataclasses import dataclass
from typing import Any

import psycopg
from psycopg import sql

from pos_terminal.base.i18n import _
from pos_terminal.ledger.errors import LedgerConfigError, LedgerRefused

TERMINAL_ID = re.compile(r"^[A-Za-z0-9]{1,8}$")  # as [terminal] terminal_id


@dataclass(frozen=True)
class NewCounter:
    terminal_id: str
    role: str
    password: str


def check_terminal_id(terminal_id: str) -> str:
    if not TERMINAL_ID.match(terminal_id):
        raise LedgerConfigError(_(
            "a terminal id is 1 to 8 letters or digits (what the counter has in [terminal] "
            "terminal_id), e.g. Q1C07"))
    return terminal_id


def _group(cur: psycopg.Cursor[Any]) -> str:
    cur.execute("SELECT ledger_counter_group()")
    row = cur.fetchone()
    assert row is not None
    return str(row[0])


def role_name(cur: psycopg.Cursor[Any], terminal_id: str) -> str:
    cur.execute("SELECT left(current_database(), 45) || '_counter_' || %s", (terminal_id,))
    row = cur.fetchone()
    assert row is not None
    return str(row[0])


def add_counter(conn: psycopg.Connection[Any], terminal_id: str) -> NewCounter:
    """Create the counter's login with a new password (the counter must not have one yet)."""
    check_terminal_id(terminal_id)
    password = secrets.token_urlsafe(24)
    with conn.transaction(), conn.cursor() as cur:
        cur.execute("SELECT role_name, disabled_at IS NULL FROM counters WHERE terminal_id=%s "
                    "FOR UPDATE", (terminal_id,))
        found = cur.fetchone()
        if found is not None and found[1]:
            raise LedgerRefused(_(
                "counter {terminal_id} already has its login {role}: to give it a new "
                "password, run `pos-terminal fleet remove-counter {terminal_id}` and then "
                "add it again").format(terminal_id=terminal_id, role=found[0]))
        role = role_name(cur, terminal_id)
        verifier = conn.pgconn.encrypt_password(password.encode(), role.encode(),
                                                b"scram-sha-256").decode()
        cur.execute("SELECT 1 FROM pg_roles WHERE rolname=%s", (role,))
        verb = "ALTER" if cur.fetchone() else "CREATE"
        cur.execute(sql.SQL(verb + " ROLE {} LOGIN PASSWORD {} NOSUPERUSER NOCREATEDB "
                            "NOCREATEROLE NOREPLICATION NOBYPASSRLS INHERIT").format(
            sql.Identifier(role), sql.Literal(verifier)))
        cur.execute(sql.SQL("GRANT {} TO {}").format(sql.Identifier(_group(cur)),
                                                     sql.Identifier(role)))
        cur.execute("INSERT INTO counters(terminal_id, role_name) VALUES (%s, %s) "
                    "ON CONFLICT (terminal_id) DO UPDATE SET role_name=EXCLUDED.role_name, "
                    "disabled_at=NULL, created_at=now()", (terminal_id, role))
    return NewCounter(terminal_id, role, password)


def remove_counter(conn: psycopg.Connection[Any], terminal_id: str) -> str:
    """Disable the counter's login (its rows stay and still count in the reports); returns the
    login's name. Its open sessions can write nothing more: the policies read `counters`."""
    check_terminal_id(terminal_id)
    with conn.transaction(), conn.cursor() as cur:
        cur.execute("UPDATE counters SET disabled_at=now() WHERE terminal_id=%s "
                    "RETURNING role_name", (terminal_id,))
        row = cur.fetchone()
        if row is None:
            raise LedgerRefused(_("the ledger has no counter {terminal_id}").format(
                terminal_id=terminal_id))
        role = str(row[0])
        cur.execute(sql.SQL("ALTER ROLE {} NOLOGIN").format(sql.Identifier(role)))
    # End its sessions now (needs pg_signal_backend or superuser; else they can write nothing
    # anyway).
    with suppress(psycopg.Error):
        conn.execute("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE usename=%s",
                     (role,))
    return role

