"""The sync against a real PostgreSQL: counters paying concurrently, then the ledger equals the
union of their journals row for row."""

from __future__ import annotations

import json
import threading
from pathlib import Path
from typing import Any

import psycopg
import pytest

from pos_terminal.config import Settings
from pos_terminal.ledger import LedgerSync, LedgerUnavailable
from pos_terminal.ledger.schema import LEDGER_SCHEMA_VERSION
from tests.ledger.conftest import terminal
from tests.ledger.crashes_helpers import run_cli, write_config
from tests.ledger.helpers import assert_ledger_is_union, pay
from tests.ledger.pgserver import PgServer
from tests.ledger.syncing import pay_and_sync_concurrently


def test_two_counters_paying_concurrently_end_in_the_ledger_once(make_terminal: Any,
                                                                 emulator: Any,
                                                                 ledger_dsn: str) -> None:
    terminals = pay_and_sync_concurrently(make_terminal, emulator, prefix="T", count=2,
                                          rounds=4, batch_size=7, amount_step=1000)
    for settings in terminals:  # a second sync ships nothing and duplicates nothing
        sync = LedgerSync(settings)
        assert sync.sync_once().shipped == 0
        sync.close()
    assert_ledger_is_union(ledger_dsn, [(s.terminal.terminal_id, s.terminal.journal)
                                        for s in terminals])


def test_two_syncs_of_one_journal_at_once_ship_each_row_once(make_terminal: Any,
                                                             emulator: Any,
                                                             ledger_dsn: str) -> None:
    """The UI's background sync and a cron `pos-terminal sync` on the same counter: the
    ledger's mark check lets one batch in at a time; the other starts over."""
    counter = make_terminal("W1", batch_size=3)
    pay(counter, emulator, [500 + i for i in range(6)])
    syncs = [LedgerSync(counter) for _ in range(2)]
    shipped: list[int] = []
    errors: list[BaseException] = []

    def run(sync: LedgerSync) -> None:
        try:
            shipped.append(sync.sync_once().shipped)
        except BaseException as exc:  # pragma: no cover - reported below
            errors.append(exc)

    threads = [threading.Thread(target=run, args=(s,)) for s in syncs]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    for s in syncs:
        s.close()
    assert not errors, errors
    assert sum(shipped) == 24  # 6 payments x (intent, event, answer, event), each row once
    assert_ledger_is_union(ledger_dsn, [("W1", counter.terminal.journal)])


def test_only_fleet_migrate_changes_the_schema_and_each_counter_ships_with_its_own_login(
        base_settings: Settings, emulator: Any, empty_ledger_dsn: str, pg: PgServer,
        tmp_path: Path) -> None:
    admin = empty_ledger_dsn
    counter = terminal(base_settings, emulator, tmp_path, "M1", "", ca_file=pg.ca_file)
    pay(counter, emulator, [900])
    head_office = write_config(counter, tmp_path / "ho.toml", dsn=admin)

    never = run_cli("sync", head_office)  # a sync never creates or migrates the schema
    assert never.returncode == 5, never.stderr
    assert "no schema yet; head office runs `pos-terminal fleet migrate`" in never.stderr
    with psycopg.connect(admin) as conn:
        assert conn.execute("SELECT to_regclass('payments')").fetchone() == (None,)

    first = run_cli("fleet", head_office, "migrate")
    assert first.returncode == 0, first.stderr
    every = ", ".join(str(v) for v in range(1, LEDGER_SCHEMA_VERSION + 1))
    assert f"schema version {LEDGER_SCHEMA_VERSION} (applied version(s) {every})" in first.stdout
    assert "already current" in run_cli("fleet", head_office, "migrate").stdout

    added = run_cli("fleet", head_office, "add-counter", "M1", "--json")
    assert added.returncode == 0, added.stderr
    login = json.loads(added.stdout)
    assert login["terminal_id"] == "M1" and "sslmode=verify-full" in login["dsn"]
    twice = run_cli("fleet", head_office, "add-counter", "M1")
    assert twice.returncode == 5 and "already has its login" in twice.stderr
    assert login["dsn"].split(":")[2].split("@")[0] not in twice.stdout + twice.stderr

    as_owner = run_cli("sync", head_office)  # the owner's login is not a counter's
    assert as_owner.returncode == 5 and "is not a counter of this ledger" in as_owner.stderr

    config = write_config(counter, tmp_path / "m1.toml", dsn=login["dsn"])
    done = run_cli("sync", config, "--json")
    assert done.returncode == 0, done.stderr
    answer = json.loads(done.stdout)
    assert (answer["ok"], answer["shipped"], answer["behind"], answer["rotated"]) == (
        True, 4, 0, False)
    assert answer["ledger"].endswith(f"_counter_M1@127.0.0.1:{pg.port}/"
                                     f"{admin.split('/')[3].split('?')[0]}")
    again = run_cli("sync", config)
    assert again.returncode == 0 and again.stdout.startswith("shipped 0 journal rows")

    removed = run_cli("fleet", head_office, "remove-counter", "M1")
    assert removed.returncode == 0 and "disabled" in removed.stdout
    pay(counter, emulator, [901])
    gone = run_cli("sync", config)
    assert gone.returncode == 5 and "refused the login" in gone.stderr
    report = run_cli("fleet", head_office, "report", "--json")
    assert json.loads(report.stdout)["shop"]["sales_amount"] == 900  # its rows still count


def test_a_batch_stuck_behind_a_lock_is_cut_off_by_the_statement_timeout(
        make_terminal: Any, emulator: Any, ledger_dsn: str) -> None:
    counter = make_terminal("L1", statement_timeout_s=0.5)
    pay(counter, emulator, [700])
    sync = LedgerSync(counter)
    state = sync.outbox().state()
    sync.ledger.register("L1", counter.terminal.app_user, state.journal_id, 1, None)
    with psycopg.connect(ledger_dsn) as holder:  # someone holds the journal's row
        holder.execute("SELECT * FROM journals WHERE terminal_id='L1' FOR UPDATE")
        with pytest.raises(LedgerUnavailable) as err:
            sync.sync_once()
        holder.rollback()
    assert "rolled a batch back (canceling statement due to statement timeout)" in str(err.value)
    assert sync.behind() == 4
    assert sync.sync_once().shipped == 4  # released: it goes through
    sync.close()
    assert_ledger_is_union(ledger_dsn, [("L1", counter.terminal.journal)])
