"""Issue 41, every payOS money case through the real parts, to the reports and the ledger: the
CLI (`pos-terminal` processes) against the emulator's payOS over loopback HTTP, the counter's
real journal, a real PostgreSQL. A VietQR paid in full, one paid in part whose rest was collected
in cash, one paid in part whose transfer the shop returned, one that expired, one cancelled with
nothing arrived and one whose whole transfer landed after the cancel (found by `reconcile`):
the X and Z reports (the CLI's JSON and text, the Terminal API's, the printed slip) and
`fleet report` after a sync count under `payos` exactly what the bank statement shows, and the
cash apart. No payOS secret reaches any output, the journal or the ledger."""

from __future__ import annotations

import csv
import json
import subprocess
import threading
import time
from dataclasses import fields
from pathlib import Path
from typing import Any

import psycopg
import requests

from pos_terminal.base import i18n
from pos_terminal.emulator.payos.service import (
    DEMO_API_KEY,
    DEMO_CHECKSUM_KEY,
    DEMO_CLIENT_ID,
)
from pos_terminal.journal.reports import Report
from pos_terminal.receipts import Shop, slip_lines
from pos_terminal.tui.slips import report_slip
from tests.api.conftest import start_api
from tests.checkout.conftest import write_config
from tests.ledger import crashes_helpers
from tests.ledger.pgserver import PgServer
from tests.processes import child_env, cli
from tests.wallets.payos_help import shown, with_payos

SECRETS = (DEMO_CLIENT_ID, DEMO_API_KEY, DEMO_CHECKSUM_KEY)


class Counter:
    """One counter's `pos-terminal` runs; every stdout and stderr kept for the secret check."""

    def __init__(self, config: Path) -> None:
        self.config = config
        self.outputs: list[str] = []

    def run(self, *args: str) -> subprocess.CompletedProcess[str]:
        done = subprocess.run(cli(self.config, *args), env=child_env(), capture_output=True,
                              text=True, timeout=180, check=False)
        self.outputs += [done.stdout, done.stderr]
        return done

    def json(self, *args: str) -> tuple[int, dict[str, Any]]:
        done = self.run(*args, "--json")
        assert done.stdout, done.stderr
        data: dict[str, Any] = json.loads(done.stdout)
        return done.returncode, data

    def pay(self, amount: int, *extra: str) -> tuple[int, dict[str, Any]]:
        return self.json("pay", "--amount", str(amount), "--qr", "--provider", "payos", *extra)


def _control(emulator: Any, code: str, action: str, amount: int | None = None) -> None:
    requests.post(f"{emulator.base_url}/_emulator/payos/requests/{code}/{action}",
                  json={} if amount is None else {"amount": amount},
                  timeout=30).raise_for_status()


def bank_app(emulator: Any, seen: set[str], action: str,
             amount: int | None = None) -> threading.Thread:
    """In the background: wait for the next QR shown (one not in `seen`), then `action` it
    ("pay" with `amount` or all of it, "expire", "none": leave it)."""

    def act() -> None:
        for _ in range(1200):  # a bound for a loaded machine, not a timing claim
            new = [r for r in shown(emulator) if str(r["orderCode"]) not in seen]
            if new:
                break
            time.sleep(0.05)
        else:
            return
        code = str(new[0]["orderCode"])
        seen.add(code)
        if action != "none":
            _control(emulator, code, action, amount)

    thread = threading.Thread(target=act, daemon=True)
    thread.start()
    return thread


def counter_config(settings: Any, path: Path) -> Path:
    """The counter's file: its wallets (payOS's secrets in it, as a shop's would be), its
    terminal id and its own ledger login."""
    write_config(settings, path)
    text = path.read_text("utf-8").replace(
        "[terminal]\n", f'[terminal]\nterminal_id = "{settings.terminal.terminal_id}"\n', 1)
    text += (f'\n[ledger]\ndsn = "{settings.ledger.dsn.get_secret_value()}"\n'
             f'ca_file = "{settings.ledger.ca_file}"\n')
    path.write_text(text, encoding="utf-8")
    path.chmod(0o600)
    return path


def take_every_case(counter: Counter, emulator: Any) -> dict[str, str]:
    """The six cases, each checked at the door; their payment ids by case."""
    seen: set[str] = {str(r["orderCode"]) for r in shown(emulator)}
    ids: dict[str, str] = {}

    bank_app(emulator, seen, "pay")
    code, paid = counter.pay(50_000)
    assert (code, paid["outcome"], paid["provider"]) == (0, "paid", "payos"), paid
    ids["paid"] = paid["app_trans_id"]

    for case, amount, arrived, mark in (("rest_in_cash", 60_000, 20_000, "paid"),
                                        ("returned", 30_000, 10_000, "failed")):
        bank_app(emulator, seen, "pay", arrived)
        code, part = counter.pay(amount, "--deadline", "6")  # room for the bank app
        assert code == 3 and part["outcome"] != "paid", part
        assert (part["amount_paid"], part["amount_missing"]) == (arrived, amount - arrived)
        settled = counter.run("override", part["app_trans_id"], "--mark", mark, "--reason",
                              "rest in cash" if mark == "paid" else "shop transfer", "--json")
        assert json.loads(settled.stdout)["outcome"] == (
            "paid" if mark == "paid" else "not_paid"), settled.stdout + settled.stderr
        ids[case] = part["app_trans_id"]

    bank_app(emulator, seen, "expire")
    code, expired = counter.pay(25_000)
    assert (code, expired["state"], expired["outcome"]) == (1, "failed", "not_paid"), expired
    ids["expired"] = expired["app_trans_id"]

    for case, amount in (("cancelled", 35_000), ("late", 45_000)):
        code, cancelled = counter.pay(amount, "--deadline", "1")  # nobody pays it
        assert (code, cancelled["state"]) == (1, "failed"), cancelled
        ids[case] = cancelled["app_trans_id"]
        seen.add(ids[case])
    requests_by_id = {str(r["orderCode"]): r for r in shown(emulator)}
    assert requests_by_id[ids["cancelled"]]["status"] == "CANCELLED"
    _control(emulator, ids["late"], "pay")  # the whole transfer lands after the cancel
    assert counter.run("reconcile", "--json").returncode in (0, 3)
    _code, late = counter.json("status", ids["late"])
    assert late["late"] and late["needs_review"] and late["outcome"] != "not_paid", late
    return ids


def assert_counter_report(report: dict[str, Any]) -> None:
    """What the shop owner expects: three sales (155.000 ₫); through payOS what the bank
    statement shows (50.000 + 20.000 + the late 45.000), the 40.000 ₫ rest in the till."""
    assert (report["sales_count"], report["sales_amount"], report["failed_count"]) == (
        3, 155_000, 3), report
    assert (report["collected_otherwise_count"], report["collected_otherwise_amount"]) == (
        1, 40_000), report
    assert report["by_provider"] == {"payos": {
        "count": 3, "amount": 115_000, "refunds_count": 0, "refunds_amount": 0,
        "net_amount": 115_000, "collected_otherwise_count": 1,
        "collected_otherwise_amount": 40_000}}, report["by_provider"]
    assert (report["late_count"], report["late_amount"], report["late_review_count"]) == (
        1, 45_000, 1), report
    assert (report["unresolved_count"], report["needs_review_count"]) == (0, 0), report


def slip_text(report: dict[str, Any], language: str) -> str:
    i18n.set_language(language)
    names = {f.name for f in fields(Report)}
    slip = report_slip(Report(**{k: v for k, v in report.items() if k in names}), "Q1")
    return "\n".join(slip_lines(slip, shop=Shop(name="Q1 shop"), width=42))


def ledger_text(dsn: str) -> str:
    """Every row of every table of the ledger, as text."""
    out: list[str] = []
    with psycopg.connect(dsn) as conn:
        tables = [r[0] for r in conn.execute(
            "SELECT tablename FROM pg_tables WHERE schemaname = current_schema()").fetchall()]
        for table in tables:
            out += [str(row) for row in conn.execute(
                f'SELECT t::text FROM "{table}" t').fetchall()]
    return "\n".join(out)


def test_every_payos_case_ends_alike_in_the_reports_and_the_ledger(
        make_terminal: Any, emulator: Any, ledger_dsn: str, pg: PgServer,
        tmp_path: Path) -> None:
    settings = with_payos(make_terminal("Q1"), emulator)
    counter = Counter(counter_config(settings, tmp_path / "counter.toml"))
    ids = take_every_case(counter, emulator)

    _code, x = counter.json("report", "x")
    assert_counter_report(x)
    text = counter.run("report", "x").stdout
    another = next(line for line in text.splitlines() if "another way" in line)
    assert "1" in another.split() and "40.000" in another, text
    assert any("payOS" in line and "115.000" in line for line in text.splitlines()), text

    api, stop = start_api(settings, emulator)  # the Terminal API over the same journal
    try:
        x_api = api.get("/v1/reports/x")
        z_api = api.post("/v1/reports/z", {})
    finally:
        stop()
    counter.outputs += [x_api.text, z_api.text]
    assert x_api.status_code == 200 and z_api.status_code == 200, z_api.text
    assert_counter_report(x_api.json())
    z = z_api.json()
    assert z["number"] == 1, z
    assert_counter_report(z)
    _code, again = counter.json("report", "z", "--show", "1")
    assert_counter_report(again)
    slips = {language: slip_text(z, language) for language in ("en", "vi")}
    i18n.set_language("en")
    assert "another way" in slips["en"] and "40.000" in slips["en"], slips["en"]
    assert "115.000" in slips["en"] and "155.000" in slips["en"], slips["en"]
    assert "thu cách khác" in slips["vi"], slips["vi"]

    synced = counter.run("sync")
    assert synced.returncode == 0, synced.stderr
    head_office = crashes_helpers.write_config(settings, tmp_path / "ho.toml", dsn=ledger_dsn)
    fleet = crashes_helpers.run_cli("fleet", head_office, "report", "--json", "--csv",
                                    str(tmp_path / "fleet.csv"))
    assert fleet.returncode == 0, fleet.stderr
    counter.outputs += [fleet.stdout, fleet.stderr]
    shop = json.loads(fleet.stdout)["shop"]
    assert (shop["sales_count"], shop["sales_amount"], shop["failed_count"],
            shop["collected_otherwise_count"], shop["collected_otherwise_amount"]) == (
        3, 155_000, 3, 1, 40_000), shop
    [wallet] = json.loads(fleet.stdout)["wallets"]
    assert (wallet["provider"], wallet["sales_count"], wallet["sales_amount"],
            wallet["net_amount"], wallet["collected_otherwise_amount"]) == (
        "payos", 3, 115_000, 115_000, 40_000), wallet
    rows = list(csv.DictReader((tmp_path / "fleet.csv").open(encoding="utf-8")))
    by_scope = {(r["scope"], r["name"]): r for r in rows}
    assert by_scope[("wallet", "payos")]["sales_amount"] == "115000"
    assert by_scope[("counter", "Q1")]["collected_otherwise_amount"] == "40000"
    fleet_text = crashes_helpers.run_cli("fleet", head_office, "report")
    counter.outputs += [fleet_text.stdout, fleet_text.stderr]
    assert any("another way" in line and "40.000" in line
               for line in fleet_text.stdout.splitlines()), fleet_text.stdout

    with psycopg.connect(ledger_dsn) as conn:
        states = dict(conn.execute("SELECT app_trans_id, state FROM payments").fetchall())
    assert states == {ids["paid"]: "succeeded", ids["rest_in_cash"]: "succeeded",
                      ids["returned"]: "failed", ids["expired"]: "failed",
                      ids["cancelled"]: "failed", ids["late"]: "succeeded"}

    journal_files = [p for p in Path(settings.terminal.journal).parent.rglob("*") if p.is_file()]
    assert journal_files
    everything = [*counter.outputs, *slips.values(), (tmp_path / "fleet.csv").read_text("utf-8"),
                  ledger_text(ledger_dsn),
                  *(p.read_bytes().decode("utf-8", "replace") for p in journal_files)]
    for secret in SECRETS:
        assert not any(secret in text for text in everything), secret
