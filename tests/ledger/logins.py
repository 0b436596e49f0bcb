"""`fleet add-counter` through its functions, for the tests and the ledger benchmark."""

from __future__ import annotations

from pathlib import Path

from pos_terminal.ledger import Ledger
from pos_terminal.ledger.counters import add_counter
from pos_terminal.ledger.dsn import counter_dsn, parse_dsn


def counter_login(admin_dsn: str, terminal_id: str, ca_file: Path | None = None) -> str:
    """A new login for counter `terminal_id`: its own DSN (with the CA in it when `ca_file` is
    given, for a bare psycopg.connect)."""
    owner = Ledger(admin_dsn)
    try:
        new = owner.run(lambda conn: add_counter(conn, terminal_id))
    finally:
        owner.close()
    dsn = counter_dsn(parse_dsn(admin_dsn), new.role, new.password)
    return dsn if ca_file is None else f"{dsn}&sslrootcert={ca_file}"


def migrate(admin_dsn: str) -> None:
    """`fleet migrate`."""
    owner = Ledger(admin_dsn)
    try:
        owner.migrate()
    finally:
        owner.close()
