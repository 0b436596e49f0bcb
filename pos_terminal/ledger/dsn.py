"""The ledger's connection string: where it comes from, how it is shown (never in full) and the
rule that no password crosses a network in clear text.

The rule (docs/security.md, "The fleet ledger"): over TCP the connection uses TLS with the
server's certificate and host name verified (`sslmode=verify-full`, the default here whatever
libpq's own default or PGSSLMODE say). Only a Unix-socket DSN, or an explicit
`sslmode=disable|allow|prefer|require` together with `[ledger] insecure = true`, connects without
it. A loopback address is no exception: a tunnel or a proxy may listen there.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path
from urllib.parse import quote

from psycopg import pq
from psycopg.conninfo import conninfo_to_dict

from pos_terminal.base.i18n import _
from pos_terminal.config import Settings
from pos_terminal.ledger.errors import LedgerConfigError

VERIFIED = ("verify-full", "verify-ca")  # TLS with the server's certificate checked
UNVERIFIED = ("disable", "allow", "prefer", "require")  # clear text, or TLS anyone can fake
DSN_EXAMPLE = "postgresql://USER:PASSWORD@HOST:5432/DBNAME?sslmode=verify-full"


def ledger_dsn(settings: Settings) -> str:
    """POS_LEDGER_DSN when set, else `[ledger] dsn` (the configuration reads both); "" when
    neither (no ledger)."""
    return settings.ledger.dsn.get_secret_value()


def parse_dsn(dsn: str) -> dict[str, str]:
    """The DSN's parameters; a malformed one is one sentence that quotes none of it (a driver's
    message would quote the part it could not read, the password maybe)."""
    try:
        params = {k: str(v) for k, v in conninfo_to_dict(dsn).items() if v is not None}
        ports = params.get("port", "5432").split(",")
        if not all(p.isdigit() and 0 < int(p) < 65536 for p in ports):
            raise ValueError
        return params
    except Exception:
        raise LedgerConfigError(_(
            "the ledger's connection string ([ledger] dsn or POS_LEDGER_DSN) cannot be read: "
            "write it as {example}, with a % in the password written %25"
        ).format(example=DSN_EXAMPLE)) from None


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


def is_unix_socket(params: Mapping[str, str], env: Mapping[str, str] | None = None) -> bool:
    """Whether every host the DSN names is a Unix socket (libpq's default when none is named)."""
    environ = os.environ if env is None else env
    if params.get("hostaddr") or environ.get("PGHOSTADDR") or params.get("service") \
            or environ.get("PGSERVICE"):
        return False  # an IP address, or a service file whose host we do not read
    hosts = (params.get("host") or environ.get("PGHOST") or "").split(",")
    return all(h == "" or h.startswith(("/", "@")) for h in hosts)


def connect_options(dsn: str, *, ca_file: Path | None, insecure: bool,
                    env: Mapping[str, str] | None = None) -> dict[str, str]:
    """The options given to libpq beside the DSN: verified TLS unless the rule above allows
    otherwise. Raises LedgerConfigError (nothing was sent) when the DSN asks for clear text
    without `[ledger] insecure = true`."""
    params = parse_dsn(dsn)
    if is_unix_socket(params, env):
        return {}  # the kernel carries it; libpq never uses TLS on a socket
    mode = params.get("sslmode", "verify-full")
    if mode not in VERIFIED:
        if mode not in UNVERIFIED:
            raise LedgerConfigError(_(
                "the ledger's connection string has an unknown sslmode: use "
                "sslmode=verify-full")) from None
        if not insecure:
            raise LedgerConfigError(_(
                "the ledger's connection string asks for sslmode={mode}: the password could "
                "cross the network in clear text or reach an impostor. Use sslmode=verify-full "
                "(the default; [ledger] ca_file names a private CA), or, only on a network you "
                "trust, set [ledger] insecure = true").format(mode=mode))
        return {"sslmode": mode}
    options = {"sslmode": mode, "gssencmode": "disable"}  # TLS, not a Kerberos tunnel
    if ca_file is not None:
        options["sslrootcert"] = str(ca_file)
    elif "sslrootcert" not in params and pq.version() >= 160000:
        options["sslrootcert"] = "system"  # the machine's public CAs, not ~/.postgresql
    return options


def counter_dsn(admin: Mapping[str, str], user: str, password: str) -> str:
    """The DSN a counter puts in its configuration: the admin DSN's host, port and database,
    the counter's login, verified TLS (its CA, if private, goes in the counter's ca_file)."""
    host = admin.get("host") or "localhost"
    port = admin.get("port") or "5432"
    dbname = admin.get("dbname") or "ledger"
    auth = f"{quote(user, safe='')}:{quote(password, safe='')}"
    if host.startswith(("/", "@")):
        return (f"postgresql://{auth}@/{quote(dbname, safe='')}?host={quote(host, safe='')}"
                f"&port={port}")
    if ":" in host:  # an IPv6 address
        host = f"[{host}]"
    mode = admin.get("sslmode") if admin.get("sslmode") in VERIFIED else "verify-full"
    return f"postgresql://{auth}@{host}:{port}/{quote(dbname, safe='')}?sslmode={mode}"
