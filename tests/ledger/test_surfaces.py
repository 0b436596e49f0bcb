"""What people see of the fleet ledger: the UI header's "ledger: N behind", the headless
LEDGER command, `pos-terminal sync` exit codes and messages (never the password), the config
rule on terminal ids, and the head office reports with their CSV."""

from __future__ import annotations

import csv
import io
import json
import socket
import time
from pathlib import Path
from typing import Any

import psycopg
import pytest

from pos_terminal.config import load_settings
from pos_terminal.counter import Counter, open_checkout
from pos_terminal.headless import CounterLoop, serve
from pos_terminal.ledger import BackgroundSync, LedgerError, LedgerSync
from pos_terminal.tui.app import PosApp
from tests.conftest import DEFAULT_CONFIG
from tests.ledger.crashes_helpers import run_cli, write_config
from tests.ledger.helpers import assert_ledger_is_union, backup, pay, restore
from tests.ledger.pgserver import free_port
from tests.ledger.syncing import sync_now
from tests.tui.helpers import screen_lines, wait_until


def _unreachable_dsn(password: str = "s3cr3t-pw") -> str:
    return f"postgresql://head:{password}@127.0.0.1:{free_port()}/ledger?connect_timeout=1"


@pytest.mark.asyncio
async def test_ui_header_shows_how_far_behind_the_ledger_is(make_terminal: Any, emulator: Any,
                                                          ledger_dsn: str) -> None:
    counter = make_terminal("U1")
    pay(counter, emulator, [4000])
    with open_checkout(counter) as checkout:
        app = PosApp(counter, Counter(counter, checkout), background=False)
        async with app.run_test(size=(100, 24)) as pilot:
            # Unreachable first: the counter still works, the header says so.
            app.settings = counter.replace_section("ledger", dsn=_unreachable_dsn(),
                                                   interval_s=0.05, max_backoff_s=0.1)
            app.start_ledger_sync()
            await wait_until(pilot, lambda: "(unreachable)" in screen_lines(pilot)[0],
                             what="unreachable ledger in the header")
            assert "ledger: 4 behind (unreachable)" in screen_lines(pilot)[0]
            assert app.ledger_sync is not None
            app.ledger_sync.stop()
            app.settings = counter.replace_section("ledger", interval_s=0.05)
            app.start_ledger_sync()
            await wait_until(pilot, lambda: "ledger: 0 behind" in screen_lines(pilot)[0],
                             what="ledger caught up")


def test_headless_answers_ledger_with_the_background_sync_status(make_terminal: Any,
                                                                 emulator: Any) -> None:
    counter = make_terminal("H1", interval_s=0.05)
    pay(counter, emulator, [4100])
    out = io.StringIO()
    sync = BackgroundSync(counter).start()
    try:
        with open_checkout(counter) as checkout:
            loop = CounterLoop(Counter(counter, checkout), None, out,
                               ledger=lambda: sync.status.to_json())
            for _ in range(200):
                if sync.status.behind == 0:
                    break
                sync.wake()
                time.sleep(0.05)
            loop.handle("LEDGER")
            bare = CounterLoop(Counter(counter, checkout), None, out)
            bare.handle("LEDGER")
    finally:
        sync.stop()
    answers = [json.loads(line) for line in out.getvalue().splitlines()]
    assert answers[0]["command"] == "LEDGER" and answers[0]["ok"] is True
    assert answers[0]["behind"] == 0 and answers[0]["reachable"] is True
    assert answers[1] == {"ok": False, "command": "LEDGER", "line": "LEDGER",
                          "error": "no fleet ledger configured: set [ledger] dsn or "
                                   "POS_LEDGER_DSN"}


def test_headless_ready_line_carries_the_ledger_status(make_terminal: Any) -> None:
    counter = make_terminal("H2")
    out = io.StringIO()
    with open_checkout(counter) as checkout:
        serve(Counter(counter, checkout), lambda: None, ["QUIT"], out,
              ledger=lambda: {"behind": 3, "reachable": False, "error": "x", "last_ok_ms": None})
    ready = json.loads(out.getvalue().splitlines()[0])
    assert ready["command"] == "READY"
    assert ready["ledger"] == {"behind": 3, "reachable": False, "error": "x", "last_ok_ms": None}


def test_sync_command_exit_codes_and_messages_never_show_the_password(
        make_terminal: Any, emulator: Any, tmp_path: Path) -> None:
    counter = make_terminal("S1")
    pay(counter, emulator, [4200, 4201])
    dsn = _unreachable_dsn()
    config = write_config(counter, tmp_path / "s1.toml", dsn=dsn)
    done = run_cli("sync", config)
    assert done.returncode == 4
    assert "s3cr3t-pw" not in done.stdout + done.stderr
    assert f"error: the ledger at head@127.0.0.1:{dsn.split(':')[3].split('/')[0]}/ledger is " \
           "unreachable" in done.stderr
    assert "8 journal rows wait in the outbox; payments go on" in done.stderr
    as_json = run_cli("sync", config, "--json")
    assert as_json.returncode == 4
    assert json.loads(as_json.stdout)["behind"] == 8

    none = run_cli("sync", write_config(counter, tmp_path / "none.toml", dsn=None),
                   env={"POS_LEDGER_DSN": ""})
    assert none.returncode == 2
    assert "no ledger configured: set [ledger] dsn" in none.stderr


def test_a_fleet_counter_must_name_its_terminal_id(tmp_path: Path) -> None:
    service = DEFAULT_CONFIG.read_text("utf-8").split("[terminal]")[0]
    path = tmp_path / "c.toml"
    path.write_text(service + '[terminal]\njournal = "j.sqlite3"\napp_user = "counter-1"\n'
                    '[ledger]\ndsn = "postgresql://h:1/db"\n', encoding="utf-8")
    settings = load_settings(path, env={})
    assert (settings.terminal.terminal_id, settings.terminal_id_set) == ("counter1", False)
    with pytest.raises(LedgerError) as err:
        LedgerSync(settings)
    assert "[terminal] terminal_id is required when a fleet ledger is configured" in str(err.value)
    done = run_cli("sync", path)
    assert done.returncode == 2 and "give every counter its own id" in done.stderr
    named = path.read_text("utf-8").replace('app_user = "counter-1"\n',
                                             'app_user = "counter-1"\nterminal_id = "Q1C01"\n')
    path.write_text(named, encoding="utf-8")
    assert load_settings(path, env={}).terminal_id_set


def test_fleet_report_open_and_csv(make_terminal: Any, emulator: Any, ledger_dsn: str,
                                  tmp_path: Path) -> None:
    a, b = make_terminal("A1"), make_terminal("B2")
    pay(a, emulator, [10_000, 20_000])
    pay(b, emulator, [5_000])
    with open_checkout(b) as co:  # one refund, one payment left processing
        paid = co.pay(7_000, emulator.control.rotate("an")[0])
        co.refund(paid.app_trans_id, 2_000)
        slow = co.pay(9_000, emulator.control.rotate("binh")[0], deadline_s=0.01)
    assert slow.state.value in ("processing", "submitting", "unknown")
    for counter in (a, b):
        sync_now(counter)
    assert_ledger_is_union(ledger_dsn, [("A1", a.terminal.journal), ("B2", b.terminal.journal)])
    config = write_config(a, tmp_path / "ho.toml", dsn=ledger_dsn)

    report = run_cli("fleet", config, "report", "--json", "--csv", str(tmp_path / "r.csv"))
    assert report.returncode == 0, report.stderr
    data = json.loads(report.stdout)
    shop = data["shop"]
    assert (shop["sales_count"], shop["sales_amount"]) == (4, 42_000)
    assert (shop["refunds_count"], shop["refunds_amount"], shop["net_amount"]) == (1, 2_000,
                                                                                  40_000)
    assert (shop["open_count"], shop["open_amount"]) == (1, 9_000)
    counters = {t["terminal_id"]: t for t in data["terminals"]}
    assert counters["A1"]["sales_amount"] == 30_000 and counters["B2"]["net_amount"] == 10_000
    cashiers = {c["cashier"]: c for c in data["cashiers"]}
    assert cashiers["cashier-b2"]["refunds_amount"] == 2_000
    rows = list(csv.DictReader((tmp_path / "r.csv").open(encoding="utf-8")))
    assert [(r["scope"], r["name"], r["net_amount"]) for r in rows] == [
        ("shop", "", "40000"), ("counter", "A1", "30000"), ("counter", "B2", "10000"),
        ("cashier", "cashier-a1", "30000"), ("cashier", "cashier-b2", "10000"),
        ("wallet", "zalopay", "40000")]  # head office's total per wallet (issue 40)

    opened = run_cli("fleet", config, "open", "--json", "--csv", str(tmp_path / "o.csv"))
    assert opened.returncode == 0, opened.stderr
    items = json.loads(opened.stdout)["open"]
    assert [(i["type"], i["terminal_id"], i["id"], i["amount"]) for i in items] == [
        ("payment", "B2", slow.app_trans_id, 9_000)]
    # the journal keeps a reason (JSON); the fleet shows its sentence, never the JSON
    assert items[0]["message"] and not items[0]["message"].startswith("{"), items[0]
    assert slow.app_trans_id in (tmp_path / "o.csv").read_text(encoding="utf-8")

    text = run_cli("fleet", config, "report", "--day", "2001-01-01")
    assert text.returncode == 0 and "Shop, 2001-01-01 (Vietnam time), 2 counters" in text.stdout
    bad = run_cli("fleet", config, "report", "--day", "yesterday")
    assert bad.returncode == 2 and "--day must be a date" in bad.stderr


def test_head_office_needs_only_the_dsn(make_terminal: Any, emulator: Any, ledger_dsn: str,
                                       tmp_path: Path) -> None:
    """The shipped config (no terminal_id) plus POS_LEDGER_DSN is enough for the reports."""
    counter = make_terminal("E1")
    pay(counter, emulator, [6_000])
    sync_now(counter)
    done = run_cli("fleet", DEFAULT_CONFIG, "report", "--json",
                   env={"POS_LEDGER_DSN": ledger_dsn})
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["shop"]["sales_amount"] == 6_000
    assert ledger_dsn.split(":")[2].split("@")[0] not in done.stdout + done.stderr


def test_a_ledger_newer_than_this_program_is_refused(make_terminal: Any, emulator: Any,
                                                     ledger_dsn: str, tmp_path: Path) -> None:
    counter = make_terminal("N1")
    pay(counter, emulator, [6_100])
    with psycopg.connect(ledger_dsn, autocommit=True) as conn:  # head office's owner login
        conn.execute("INSERT INTO schema_migrations(version) VALUES (999)")
    config = write_config(counter, tmp_path / "n1.toml", dsn=counter.ledger.dsn.get_secret_value())
    done = run_cli("sync", config)
    assert done.returncode == 5
    assert "schema version 999, newer than this pos-terminal understands" in done.stderr
    assert "4 journal rows wait in the outbox" in done.stderr


def test_a_hung_ledger_never_holds_up_a_payment(make_terminal: Any, emulator: Any) -> None:
    """A ledger host that accepts connections and never answers: payments go on, the sync
    gives up on its own timeout and says the ledger is unreachable."""
    with socket.socket() as hung:
        hung.bind(("127.0.0.1", 0))
        hung.listen(16)
        dsn = f"postgresql://pos:hung-secret-9@127.0.0.1:{hung.getsockname()[1]}/ledger"
        counter = make_terminal("G1", interval_s=0.05, connect_timeout_s=1.0)
        statuses: list[Any] = []
        background = BackgroundSync(counter.replace_section("ledger", dsn=dsn),
                                    on_status=statuses.append).start()
        try:
            paid = pay(counter, emulator, [7_000, 7_001, 7_002])
            assert [p.state.value for p in paid] == ["succeeded"] * 3
            deadline = time.monotonic() + 30
            while time.monotonic() < deadline and background.status.reachable is not False:
                time.sleep(0.05)
        finally:
            background.stop()
    assert background.status.line == "ledger: 12 behind (unreachable)"
    assert "unreachable" in (background.status.error or "")
    assert "hung-secret-9" not in (background.status.error or "")


def test_missing_postgresql_is_an_error_not_a_skip(monkeypatch: pytest.MonkeyPatch) -> None:
    from tests.ledger import pgserver

    monkeypatch.setattr(pgserver.glob, "glob", lambda _pattern: [])
    monkeypatch.setattr(pgserver.shutil, "which", lambda _name: None)
    with pytest.raises(pgserver.PostgresMissing, match="make sysdeps-test"):
        pgserver.find_bin()


def test_z_reports_reach_the_ledger_and_a_second_z_with_one_number_is_reported(
        make_terminal: Any, emulator: Any, ledger_dsn: str, tmp_path: Path) -> None:
    from pos_terminal.journal import Journal

    counter = make_terminal("Z1")
    journal_path = counter.terminal.journal
    pay(counter, emulator, [8_000])
    backup(journal_path, tmp_path / "early.sqlite3")
    with Journal.open(journal_path) as journal:
        z = journal.close_day()
    sync_now(counter)
    with psycopg.connect(ledger_dsn) as conn:
        rows = conn.execute("SELECT number, closed_ms, totals FROM z_reports").fetchall()
    assert [(r[0], r[1]) for r in rows] == [(1, z.closed_ms)]
    assert rows[0][2]["sales_amount"] == 8_000 == z.sales_amount
    assert_ledger_is_union(ledger_dsn, [("Z1", journal_path)])  # z_number on the payment too

    restore(tmp_path / "early.sqlite3", journal_path)  # the copy never closed that day...
    pay(counter, emulator, [8_100])
    with Journal.open(journal_path) as journal:
        journal.close_day()  # ...so it closes its own Z #1
    sync_now(counter)
    with psycopg.connect(ledger_dsn) as conn:
        kept = conn.execute("SELECT count(*) FROM z_reports WHERE number=1").fetchone()
        problems = conn.execute("SELECT kind, key, field FROM disagreements "
                                "ORDER BY id").fetchall()
    assert kept == (2,)  # both kept, one per journal identity
    # The payment of the first day carries Z #1 in both journals: no disagreement there.
    assert problems == [("journal", "Z1", "journal_id"), ("z_report", "1", "closed_ms")]
