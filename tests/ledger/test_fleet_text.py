"""What a counter wrote reaches head office's terminal, JSON and spreadsheet clean (issue 20
item 6): a counter's own login writes escape sequences and formulas into its own rows (which it
may), and `fleet open|disagreements|report` never print them raw nor as live formulas."""

from __future__ import annotations

import csv
import json
from pathlib import Path
from typing import Any

import psycopg

from tests.ledger.attacks import payment_insert
from tests.ledger.crashes_helpers import run_cli, write_config
from tests.ledger.helpers import pay
from tests.ledger.pgserver import PgServer
from tests.ledger.syncing import sync_now

HOSTILE = "\x1b]8;;http://evil.example\x07click\x1b]8;;\x07\x1b[2J\x1b]0;owned\x07\x9b31m done"
FORMULA = '=HYPERLINK("http://evil.example","refund")'


def _raw(text: str) -> bool:
    return any(c in text for c in "\x1b\x07\x9b")


def _strings(value: Any) -> list[str]:
    if isinstance(value, dict):
        return [s for v in value.values() for s in _strings(v)]
    if isinstance(value, list):
        return [s for v in value for s in _strings(v)]
    return [value] if isinstance(value, str) else []


def test_fleet_commands_print_a_counters_text_clean_and_csv_without_formulas(
        make_terminal: Any, emulator: Any, ledger_dsn: str, pg: PgServer,
        tmp_path: Path) -> None:
    a = make_terminal("X1")
    pay(a, emulator, [4_000])
    sync_now(a)
    as_a = a.ledger.dsn.get_secret_value() + f"&sslrootcert={pg.ca_file}"
    with psycopg.connect(as_a, autocommit=True) as conn:
        sql, params = payment_insert("261125_X1_evil", "X1", 6_000, state="processing",
                                     message=HOSTILE)
        conn.execute(sql.replace("'x'", "%s", 1), (params[0], params[1], FORMULA, *params[2:]))
        conn.execute("INSERT INTO disagreements(terminal_id, journal_id, seq, kind, key, field, "
                     "ledger_value, journal_value, note) VALUES ('X1', 'j', 1, 'payment', %s, "
                     "'state', %s, '\t=1+1', %s)", (FORMULA, "-2+3", HOSTILE))
    config = write_config(a, tmp_path / "ho.toml", dsn=ledger_dsn)

    for command in ("open", "disagreements"):
        text = run_cli("fleet", config, command, "--csv", str(tmp_path / f"{command}.csv"))
        assert text.returncode == 0, text.stderr
        assert "click" in text.stdout and not _raw(text.stdout), command
        as_json = run_cli("fleet", config, command, "--json")
        assert not any(_raw(t) for t in _strings(json.loads(as_json.stdout)))
        cells = [c for row in csv.reader((tmp_path / f"{command}.csv").open(encoding="utf-8"))
                 for c in row]
        assert not any(_raw(c) for c in cells)
        live = [c for c in cells if c.lstrip().startswith(("=", "+", "-", "@", "\t", "\r"))]
        assert live == [], (command, live)
        assert "'" + FORMULA in cells

    report = run_cli("fleet", config, "report", "--csv", str(tmp_path / "report.csv"))
    assert report.returncode == 0, report.stderr
    assert f"Cashier {FORMULA}" in report.stdout
    rows = list(csv.reader((tmp_path / "report.csv").open(encoding="utf-8")))
    assert [r[2] for r in rows if r[1] == "cashier" and "HYPERLINK" in r[2]] == ["'" + FORMULA]
