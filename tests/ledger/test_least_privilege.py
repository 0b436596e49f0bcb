"""A counter's own login can add and advance only its own terminal's rows (issue 20 item 3):
every attack as counter A on B's rows, a forged terminal, a migration row, a new table is
refused and leaves B's rows as they were; B keeps syncing; head office's report counts only
what counters could legitimately write."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import psycopg

from pos_terminal.ledger.schema import LEDGER_SCHEMA_VERSION
from tests.ledger.attacks import outcome, payment_insert, rows_of
from tests.ledger.crashes_helpers import run_cli, write_config
from tests.ledger.helpers import assert_ledger_is_union, pay
from tests.ledger.pgserver import PgServer
from tests.ledger.syncing import sync_now

FORGED = 99_999_999


def test_a_counter_cannot_bend_another_counters_rows_nor_the_ledger(
        make_terminal: Any, emulator: Any, ledger_dsn: str, pg: PgServer,
        tmp_path: Path) -> None:
    a, b = make_terminal("A1"), make_terminal("B1")
    pay(a, emulator, [11_000])
    pay(b, emulator, [22_000, 23_000])
    for counter in (a, b):
        sync_now(counter)
    before = rows_of(ledger_dsn, "B1")
    assert len(before["payments"]) == 2 and before["events"]
    b_payment = before["payments"][0][0]

    attacks = {
        "raise B's amounts": ("UPDATE payments SET amount = amount * 100 WHERE terminal_id='B1'",
                              ()),
        "raise every amount": ("UPDATE payments SET amount = amount * 100", ()),
        "move B's payment": ("UPDATE payments SET state='failed' WHERE app_trans_id=%s",
                             (b_payment,)),
        "rewind B's journal": ("UPDATE journals SET shipped_seq=0 WHERE terminal_id='B1'", ()),
        "take B's payment": ("UPDATE payments SET terminal_id='A1' WHERE terminal_id='B1'", ()),
        "delete B's payments": ("DELETE FROM payments WHERE terminal_id='B1'", ()),
        "delete B's events": ("DELETE FROM events WHERE terminal_id='B1'", ()),
        "truncate": ("TRUNCATE payments", ()),
        "insert as B": payment_insert("261125_B1_forged", "B1", 50_000),
        "forged terminal": ("INSERT INTO terminals(terminal_id, app_user) VALUES ('FAKE','x')",
                            ()),
        "forged sale": payment_insert("261125_FAKE_1", "FAKE", FORGED),
        "migration row": ("INSERT INTO schema_migrations(version) VALUES (999)", ()),
        "counters": ("UPDATE counters SET terminal_id='B1'", ()),
        "register a counter": ("INSERT INTO counters(terminal_id, role_name) "
                               "VALUES ('B1', session_user)", ()),
        "create table": ("CREATE TABLE mine(x int)", ()),
        "create temp table": ("CREATE TEMP TABLE counters(terminal_id text, role_name text, "
                              "disabled_at timestamptz)", ()),
        "drop the triggers": ("ALTER TABLE payments DISABLE TRIGGER payments_forward", ()),
        "read B's rows": ("SELECT * FROM payments WHERE terminal_id='B1'", ()),
        "a month's partition": ("UPDATE payments_default SET amount = 1", ()),
        "the open list": ("DELETE FROM open_rows", ()),
    }
    as_a = a.ledger.dsn.get_secret_value() + f"&sslrootcert={pg.ca_file}"
    with psycopg.connect(as_a, autocommit=True) as conn:
        results = {name: outcome(conn, sql, params) for name, (sql, params) in attacks.items()}
    touched = {name: r for name, r in results.items() if r.startswith("touched")}
    # What row-level security hides is not there to touch; everything else is refused outright.
    assert touched == {"raise B's amounts": "touched 0 rows", "move B's payment": "touched 0 rows",
                       "rewind B's journal": "touched 0 rows",
                       "take B's payment": "touched 0 rows", "read B's rows": "touched 0 rows"}
    # A's own settled payment does not move backwards either (the forward-only trigger).
    assert results["raise every amount"] == "refused: 23000"
    assert results["insert as B"] == results["forged sale"] == "refused: 42501"

    assert rows_of(ledger_dsn, "B1") == before
    with psycopg.connect(ledger_dsn) as conn:
        assert conn.execute("SELECT max(version) FROM schema_migrations").fetchone() == (
            LEDGER_SCHEMA_VERSION,)
        assert conn.execute("SELECT count(*) FROM payments WHERE amount=%s",
                            (FORGED,)).fetchone() == (0,)
        assert conn.execute("SELECT to_regclass('mine')").fetchone() == (None,)

    # The fleet goes on: B pays and syncs; the ledger is still the union of the journals.
    pay(b, emulator, [24_000])
    assert sync_now(b).behind == 0
    assert_ledger_is_union(ledger_dsn, [("A1", a.terminal.journal), ("B1", b.terminal.journal)])

    # A journal that claims B's terminal id, shipped with A's login: refused, nothing written.
    claims_b = write_config(b, tmp_path / "claims-b.toml", dsn=a.ledger.dsn.get_secret_value())
    pay(b, emulator, [25_000])
    before = rows_of(ledger_dsn, "B1")
    done = run_cli("sync", claims_b)
    assert done.returncode == 5, done.stderr
    assert "this journal claims terminal B1 but the login" in done.stderr
    assert "nothing was written" in done.stderr
    assert rows_of(ledger_dsn, "B1") == before


def test_head_office_counts_only_what_counters_could_write(
        make_terminal: Any, emulator: Any, ledger_dsn: str, tmp_path: Path) -> None:
    """A terminal no counter login belongs to (written with the old shared login, or by hand)
    is left out of the report and the open list."""
    a = make_terminal("A2")
    pay(a, emulator, [12_000])
    sync_now(a)
    with psycopg.connect(ledger_dsn, autocommit=True) as conn:  # the shared login of before
        conn.execute("INSERT INTO terminals(terminal_id, app_user) VALUES ('FAKE', 'x')")
        conn.execute(*payment_insert("261125_FAKE_1", "FAKE", FORGED))
        conn.execute(*payment_insert("261125_FAKE_2", "FAKE", 5_000, state="processing"))
    config = write_config(a, tmp_path / "ho.toml", dsn=ledger_dsn)
    report = run_cli("fleet", config, "report", "--json")
    assert report.returncode == 0, report.stderr
    data = json.loads(report.stdout)
    assert data["shop"]["sales_amount"] == 12_000
    assert [t["terminal_id"] for t in data["terminals"]] == ["A2"]
    opened = run_cli("fleet", config, "open", "--json")
    assert json.loads(opened.stdout)["count"] == 0
