"""Crashes and outages: the sync killed (-9) in the middle of a batch and between the ledger's
commit and the journal's note of it, the database restarted during a sync, and a journal
restored from an older copy. Afterwards the ledger equals the union of the journals."""

from __future__ import annotations

import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import psycopg

from pos_terminal.config import Settings
from pos_terminal.journal import PaymentState
from pos_terminal.ledger import BackgroundSync
from tests.ledger.crashes_helpers import run_sync, write_config
from tests.ledger.helpers import assert_ledger_is_union, backup, pay, restore
from tests.ledger.pgserver import PgServer
from tests.ledger.syncing import pay_and_sync_concurrently, settled_twice, sync_now
from tests.processes import child_env


def start_paused_sync(config: Path, step: str, skip: int,
                      env: dict[str, str] | None = None) -> subprocess.Popen[str]:
    """`pos-terminal sync` stopped at `step` after `skip` earlier batches; returns once paused."""
    proc = subprocess.Popen(
        [sys.executable, "-m", "pos_terminal", "sync", "--config", str(config)],
        env=child_env(**(env or {}), POS_LEDGER_PAUSE_AT=step,
                      POS_LEDGER_PAUSE_SKIP=str(skip)),
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    assert proc.stderr is not None
    line = proc.stderr.readline()
    assert line.strip() == f"paused {step}", line + proc.stderr.read()
    return proc


def ledger_count(dsn: str, sql: str) -> int:
    with psycopg.connect(dsn) as conn:
        row = conn.execute(sql).fetchone()
        assert row is not None
        return int(row[0])


def journals(*settings: Settings) -> list[tuple[str, Path]]:
    return [(s.terminal.terminal_id, s.terminal.journal) for s in settings]


def test_sync_killed_in_the_middle_of_a_batch_loses_and_duplicates_nothing(
        make_terminal: Any, emulator: Any, ledger_dsn: str, tmp_path: Path) -> None:
    counter = make_terminal("K1", batch_size=5)
    pay(counter, emulator, [1000 + i for i in range(8)])
    config = write_config(counter, tmp_path / "k1.toml", dsn=None)
    env = {"POS_LEDGER_DSN": counter.ledger.dsn.get_secret_value()}

    proc = start_paused_sync(config, "in_batch", skip=2, env=env)  # inside the third batch
    proc.send_signal(signal.SIGKILL)
    proc.wait(10)
    # Two batches committed; the third died with its connection (rolled back).
    assert ledger_count(ledger_dsn, "SELECT max(seq) FROM receipts") == 10

    proc = start_paused_sync(config, "after_commit", skip=1, env=env)  # ledger committed,
    proc.send_signal(signal.SIGKILL)                                    # journal not told
    proc.wait(10)
    assert ledger_count(ledger_dsn, "SELECT max(seq) FROM receipts") == 20

    done = run_sync(config, env)
    assert done.returncode == 0, done.stderr
    assert "shipped 12 journal rows" in done.stdout and "0 behind" in done.stdout
    rows = ledger_count(ledger_dsn, "SELECT count(*) FROM receipts")
    assert rows == ledger_count(ledger_dsn, "SELECT max(seq) FROM receipts")
    assert ledger_count(ledger_dsn, "SELECT count(*) FROM payments") == 8
    assert_ledger_is_union(ledger_dsn, journals(counter))
    assert ledger_count(ledger_dsn, "SELECT count(*) FROM disagreements") == 0


def test_database_restarted_during_a_sync(make_terminal: Any, emulator: Any, ledger_dsn: str,
                                          tmp_path: Path, pg: PgServer) -> None:
    counter = make_terminal("R1", batch_size=4)
    pay(counter, emulator, [2000 + i for i in range(5)])
    config = write_config(counter, tmp_path / "r1.toml", dsn=counter.ledger.dsn.get_secret_value())
    proc = subprocess.Popen(
        [sys.executable, "-m", "pos_terminal", "sync", "--config", str(config)],
        env=child_env(POS_LEDGER_PAUSE_AT="in_batch", POS_LEDGER_PAUSE_SKIP="1",
                      POS_LEDGER_PAUSE_S="3"),
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    assert proc.stderr is not None
    assert proc.stderr.readline().strip() == "paused in_batch"
    pg.pg_ctl("restart")  # the batch in flight is cut off
    out, err = proc.communicate(timeout=60)
    assert proc.returncode == 4, out + err
    assert "unreachable" in err and pg.password not in err + out

    # The background sync keeps going across a second restart while the counter pays.
    status: list[Any] = []
    background = BackgroundSync(counter.replace_section("ledger", interval_s=0.05,
                                                        max_backoff_s=0.2),
                                on_status=status.append).start()
    try:
        pay(counter, emulator, [2100, 2101])
        pg.pg_ctl("restart")
        pay(counter, emulator, [2102])
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline and not (
                background.status.reachable and background.status.behind == 0
                and ledger_count(ledger_dsn, "SELECT count(*) FROM payments") == 8):
            time.sleep(0.05)
    finally:
        background.stop()
    assert background.status.line == "ledger: 0 behind"
    assert_ledger_is_union(ledger_dsn, journals(counter))


def test_journal_restored_from_an_older_copy(make_terminal: Any, emulator: Any, ledger_dsn: str,
                                            tmp_path: Path) -> None:
    counter = make_terminal("B1", batch_size=6)
    journal = counter.terminal.journal
    pay(counter, emulator, [3000, 3001, 3002])
    backup(journal, tmp_path / "early.sqlite3")
    pay(counter, emulator, [3003, 3004, 3005])
    sync_now(counter)
    backup(journal, tmp_path / "late.sqlite3")  # the journal as it was before the disk died

    restore(tmp_path / "early.sqlite3", journal)
    pay(counter, emulator, [3006, 3007])
    report = sync_now(counter)
    assert report.rotated and report.behind == 0

    assert_ledger_is_union(ledger_dsn, [("B1", tmp_path / "late.sqlite3"), ("B1", journal)])
    assert ledger_count(ledger_dsn, "SELECT count(*) FROM payments") == 8
    assert ledger_count(ledger_dsn, "SELECT count(*) FROM journals") == 2
    with psycopg.connect(ledger_dsn) as conn:
        notes = conn.execute("SELECT kind, field FROM disagreements").fetchall()
    assert notes == [("journal", "journal_id")]  # the restore is reported, nothing else


def test_a_final_row_changed_in_a_restored_journal_is_reported_not_taken(
        make_terminal: Any, ledger_dsn: str, tmp_path: Path) -> None:
    counter = make_terminal("D1")
    settled_twice(
        counter, tmp_path / "early.sqlite3", "261123_D1_1",
        lambda journal: journal.transition("261123_D1_1", PaymentState.SUCCEEDED,
                                           message="paid", zp_trans_id="9001"),
        lambda journal: journal.override("261123_D1_1", PaymentState.FAILED,
                                         reason="portal shows nothing", who="manager",
                                         message="marked failed"))

    with psycopg.connect(ledger_dsn) as conn:
        state = conn.execute("SELECT state, provider_trans_id FROM payments").fetchall()
        problems = conn.execute("SELECT key, field, ledger_value, journal_value FROM "
                                "disagreements WHERE kind='payment'").fetchall()
    assert state == [("succeeded", "9001")]  # the ledger never leaves a final state
    assert ("261123_D1_1", "state", "succeeded", "failed") in problems
    out = subprocess.run([sys.executable, "-m", "pos_terminal", "fleet", "disagreements",
                          "--config", str(write_config(counter, tmp_path / "d.toml",
                                                       dsn=ledger_dsn))],
                         capture_output=True, text=True, timeout=60, check=False,
                         env=child_env())
    assert out.returncode == 0, out.stderr
    assert "261123_D1_1: state ledger=succeeded journal=failed" in out.stdout


def test_twenty_counters_paying_and_syncing_at_once(make_terminal: Any, emulator: Any,
                                                   ledger_dsn: str) -> None:
    counters = pay_and_sync_concurrently(make_terminal, emulator, prefix="C", count=20, rounds=3,
                                         batch_size=9, amount_step=100)
    assert ledger_count(ledger_dsn, "SELECT count(*) FROM payments") == 60
    assert ledger_count(ledger_dsn, "SELECT count(DISTINCT terminal_id) FROM payments") == 20
    assert_ledger_is_union(ledger_dsn, journals(*counters))
