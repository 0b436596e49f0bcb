"""No ledger password ever in clear text (issue 20 item 4), and no DSN password in a message
(item 7): verified TLS by default over TCP, loopback included; clear text only on a Unix socket
or with an explicit sslmode and `[ledger] insecure = true`; a malformed DSN is one sentence that
quotes none of it."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from pos_terminal.ledger import LedgerConfigError, LedgerSync
from pos_terminal.ledger.dsn import connect_options
from tests.ledger.certs import make_server_certs
from tests.ledger.crashes_helpers import run_cli, write_config
from tests.ledger.fake_postgres import NoTlsPostgres
from tests.ledger.helpers import pay
from tests.ledger.pgserver import PgServer
from tests.ledger.syncing import sync_now

PASSWORD = "Cl3ar-t3xt-never"


def test_a_fake_server_answering_no_tls_never_receives_the_password(
        make_terminal: Any, emulator: Any, tmp_path: Path) -> None:
    counter = make_terminal("F1")
    pay(counter, emulator, [3_000])
    with NoTlsPostgres() as fake:
        dsn = f"postgresql://pos:{PASSWORD}@127.0.0.1:{fake.port}/ledger"  # loopback, no sslmode
        done = run_cli("sync", write_config(counter, tmp_path / "f1.toml", dsn=dsn),
                       env={"PGSSLMODE": "disable"})  # the environment cannot downgrade it
        assert done.returncode == 4, done.stderr
        assert "does not support SSL" in done.stderr
        assert fake.connections >= 1
        assert PASSWORD.encode() not in bytes(fake.received)
        assert b"\x00user\x00" not in bytes(fake.received)  # not even the startup message

        # Asking for clear text without [ledger] insecure: refused before connecting at all.
        seen = fake.connections
        prefer = run_cli("sync", write_config(counter, tmp_path / "f2.toml",
                                              dsn=dsn + "?sslmode=prefer"))
        assert prefer.returncode == 2, prefer.stderr
        assert "asks for sslmode=prefer: the password could cross the network in clear " \
               "text" in prefer.stderr
        assert "[ledger] insecure = true" in prefer.stderr
        assert fake.connections == seen and PASSWORD not in prefer.stderr + prefer.stdout

        # With the explicit opt-in the counter does send it: the fake would have seen it.
        insecure = write_config(counter, tmp_path / "f3.toml", dsn=dsn + "?sslmode=prefer")
        insecure.write_text(insecure.read_text("utf-8") + "insecure = true\n", "utf-8")
        run_cli("sync", insecure)
        assert PASSWORD.encode() in bytes(fake.received)


def test_the_certificate_is_verified(make_terminal: Any, emulator: Any, tmp_path: Path) -> None:
    """The tests' own server through a CA that did not sign its certificate: refused."""
    counter = make_terminal("V1")
    pay(counter, emulator, [3_100])
    (tmp_path / "other").mkdir()
    other = make_server_certs(tmp_path / "other", ca_name="someone else")
    with pytest.raises(Exception, match="certificate verify failed"):
        sync_now(counter.replace_section("ledger", ca_file=other.ca))
    assert sync_now(counter).behind == 0  # with the right CA ([ledger] ca_file) it goes through


@pytest.mark.parametrize(("dsn", "insecure", "expected"), [
    ("postgresql://u:p@ledger.example.vn/db", False, "verify-full"),
    ("postgresql://u:p@127.0.0.1:5432/db", False, "verify-full"),  # loopback: no exception
    ("postgresql://u:p@[::1]/db", False, "verify-full"),
    ("host=localhost user=u password=p", False, "verify-full"),
    ("postgresql://u:p@h/db?sslmode=verify-ca", False, "verify-ca"),
    ("postgresql://u:p@h/db?sslmode=disable", False, "refused"),
    ("postgresql://u:p@h/db?sslmode=allow", False, "refused"),
    ("postgresql://u:p@127.0.0.1/db?sslmode=prefer", False, "refused"),
    ("postgresql://u:p@h/db?sslmode=require", False, "refused"),  # TLS anyone can fake
    ("postgresql://u:p@h/db?sslmode=disable", True, "disable"),
    ("postgresql://u:p@h/db", True, "verify-full"),  # insecure alone downgrades nothing
    ("postgresql://u:p@h/db?hostaddr=127.0.0.1", False, "verify-full"),
    ("postgresql://u:p@/db?host=/var/run/postgresql", False, "socket"),
    ("postgresql://u:p@/db?host=/var/run/postgresql&sslmode=disable", False, "socket"),
])
def test_the_tls_rule(dsn: str, insecure: bool, expected: str) -> None:
    try:
        options = connect_options(dsn, ca_file=None, insecure=insecure, env={})
    except LedgerConfigError as exc:
        assert "p@" not in exc.message
        assert expected == "refused"
        return
    assert options.get("sslmode", "socket") == expected


def test_a_unix_socket_needs_no_tls(make_terminal: Any, emulator: Any, pg: PgServer,
                                    ledger_dsn: str) -> None:
    tcp = make_terminal("S9")
    user_password = tcp.ledger.dsn.get_secret_value().split("//")[1].split("@")[0]
    db = ledger_dsn.split("/")[3].split("?")[0]
    counter = tcp.replace_section(
        "ledger", dsn=f"postgresql://{user_password}@/{db}?host={pg.root}&port={pg.port}",
        ca_file=None)
    pay(counter, emulator, [3_200])
    assert sync_now(counter).shipped == 4


#: The commands that read [ledger] dsn: each malformed form below is given to three of them, so
#: that every command meets two forms (the UI and headless start with LedgerSync, tried for all).
LEDGER_COMMANDS = (("sync",), ("sync", "--json"), ("fleet", "report"), ("fleet", "open", "--json"),
                   ("fleet", "migrate"), ("fleet", "add-counter", "P1", "--json"))


@pytest.mark.parametrize(("dsn", "commands"), [
    ("postgresql://pos:pa%zzSECRET@127.0.0.1/ledger", (0, 1, 2)),        # a bad % escape
    ("host=h user=pos password='SECRET", (3, 4, 5)),                      # an unclosed quote
    ("postgresql://pos:SECRET@127.0.0.1:99999999999/ledger", (0, 2, 4)),  # an impossible port
    ("SECRET", (1, 3, 5)),                                                # no form at all
])
def test_a_malformed_dsn_is_never_echoed(dsn: str, commands: tuple[int, ...],
                                         make_terminal: Any, tmp_path: Path) -> None:
    counter = make_terminal("P1").replace_section("ledger", dsn=dsn)
    with pytest.raises(LedgerConfigError) as err:
        LedgerSync(counter)  # what the UI and headless start with
    assert "SECRET" not in err.value.message
    config = write_config(counter, tmp_path / "p1.toml", dsn=None)
    env = {"POS_LEDGER_DSN": dsn}
    for args in (LEDGER_COMMANDS[n] for n in commands):
        done = run_cli(args[0], config, *args[1:], env=env)
        assert "SECRET" not in done.stdout + done.stderr, args
        assert "%zz" not in done.stdout + done.stderr
        assert done.returncode == 2, (args, done.stderr)
        assert "connection string ([ledger] dsn or POS_LEDGER_DSN) cannot be read" in done.stderr
        if "--json" in args:
            assert json.loads(done.stdout)["ok"] is False


def test_a_dsn_of_the_wrong_type_is_not_echoed_either(make_terminal: Any, tmp_path: Path) -> None:
    config = write_config(make_terminal("P2"), tmp_path / "p2.toml", dsn=None)
    config.write_text(config.read_text("utf-8") + "dsn = 987654321\n", "utf-8")
    done = run_cli("sync", config)
    assert done.returncode == 2
    assert "[ledger] dsn: Input should be a valid string" in done.stderr
    assert "987654321" not in done.stdout + done.stderr
