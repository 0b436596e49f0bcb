"""The fleet ledger at a chain's scale (issue 24 item 5; run by `make bench`, never by the tests).

1. Head office's everyday reads at 100,000 and at 10,000,000 payments from 200 counters, in the
   same run and database: `fleet report` of a day, `fleet open`, `fleet disagreements` (their
   functions in-process: the median of 9 warm samples of 10 calls). The ledger grows by *days*,
   as a chain's does (--per-day payments a day, 10,000 by default: 200 counters x 50): the
   measured day, its open payments and the disagreements are the same at both sizes; only the
   history behind them grows (events and receipts are not grown: no report reads them).
   The rows are copies of rows the program itself wrote and shipped (a real journal, a real sync),
   with key, terminal, time, amount and state varied in SQL: the columns follow the schema.
2. Sync lag from 200 concurrent counters, each with its own login and its own background sync
   (8 processes of 25 counters, real journal writes): settled (the payment's updated_ms) ->
   its row in the ledger (received_at), p95.

Bars (docs/benchmarks.md): reads at 10M <= 1.5x their time at 100k; lag p95 <= 2 s.

Usage: python bench/bench_fleet_scale.py [--small 100000] [--large 10000000] [--per-day 10000]
       [--counters 200] [--lag-s 30]
"""

from __future__ import annotations

import argparse
import multiprocessing
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from datetime import date
from pathlib import Path
from typing import Any

import psycopg

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from bench_ledger import counter_settings, fill, print_lag  # noqa: E402

from pos_terminal.journal.outbox import PAYMENT_FIELDS, REFUND_FIELDS  # noqa: E402
from pos_terminal.ledger import BackgroundSync, LedgerSync  # noqa: E402
from pos_terminal.ledger.reports import (  # noqa: E402
    disagreements,
    fleet_report,
    open_items,
    vn_day_bounds,
    vn_today,
)
from tests.ledger.logins import counter_login, migrate  # noqa: E402
from tests.ledger.pgserver import PgServer  # noqa: E402

READ_BAR = 1.5
DAY_MS = 86_400_000
OPEN_PER_DAY = 50  # payments still processing, all on the measured day
DISAGREEMENTS = 20
PROCESSES = 8


def counter_id(n: int) -> str:
    return f"C{n:03d}"


def seed_templates(pg: PgServer, folder: Path) -> tuple[str, str, str]:
    """One counter pays, refunds and ships for real: the rows every generated row copies.
    Returns (template payment id, template refund id, its journal id)."""
    from pos_terminal.journal import Journal, RefundState

    settings = counter_settings(folder / "seed.sqlite3", "SEED", counter_login(pg.dsn, "SEED"),
                                ca_file=pg.ca_file)
    fill(settings.terminal.journal, "SEED", 1)
    with Journal.open(settings.terminal.journal) as journal:
        paid = journal.list_payments(limit=1)[0]
        journal.record_refund_intent(m_refund_id="seed-refund", app_trans_id=paid.app_trans_id,
                                     amount=100, description="bench",
                                     request_ms=int(time.time() * 1000))
        journal.refund_transition("seed-refund", RefundState.REFUNDED, message="refunded",
                                  refund_id="r1")
    sync = LedgerSync(settings)
    try:
        sync.sync_once()
    finally:
        sync.close()
    with psycopg.connect(pg.dsn) as conn:
        row = conn.execute("SELECT p.app_trans_id, r.m_refund_id, p.journal_id FROM payments p "
                           "JOIN refunds r USING (app_trans_id)").fetchone()
    assert row is not None
    return str(row[0]), str(row[1]), str(row[2])


def _copy_sql(table: str, fields: tuple[str, ...], key: str, template: str,
              overrides: dict[str, str]) -> str:
    """INSERT ... SELECT of the template row once per i of generate_series(%s, %s), the
    overridden columns computed from i (`day` and `at` are the row's day and time)."""
    columns = (*fields, "terminal_id", "cashier", "journal_id", "seq")
    select = ", ".join(overrides.get(c, f"t.{c}") for c in columns)
    return (f"INSERT INTO {table}({', '.join(columns)}) SELECT {select} "
            f"FROM generate_series(%s::bigint, %s::bigint) AS i, LATERAL (SELECT %s::bigint "
            f"- (i / %s) * {DAY_MS} + (i %% %s) * ({DAY_MS} / %s) AS at) g, {table} t "
            f"WHERE t.{key} = '{template}'")


def grow(pg: PgServer, templates: tuple[str, str, str], start: int, end: int, per_day: int,
         today_ms: int, counters: int) -> None:
    """Payments start..end-1 (row i on day i // per_day before today, latest first), 1 % of
    them refunded; the first OPEN_PER_DAY of today still processing."""
    payment, refund, _ = templates
    terminal = f"'C' || lpad((i %% {counters})::text, 3, '0')"  # %% : a literal % for psycopg
    pay = _copy_sql("payments", PAYMENT_FIELDS, "app_trans_id", payment, {
        "app_trans_id": "'b' || i", "terminal_id": terminal, "cashier": f"'cashier-' || {terminal}",
        "amount": "1000 + i %% 500000", "created_ms": "g.at", "submitted_ms": "g.at + 200",
        "updated_ms": "g.at + 2000", "seq": "i", "z_number": "NULL",
        "state": f"CASE WHEN i < {OPEN_PER_DAY} THEN 'processing' WHEN i %% 100 = 7 THEN "
                 "'refunded' ELSE 'succeeded' END",
        "refunded_amount": "CASE WHEN i %% 100 = 7 THEN 1000 + i %% 500000 ELSE 0 END"})
    ref = _copy_sql("refunds", REFUND_FIELDS, "m_refund_id", refund, {
        "m_refund_id": "'r' || i", "app_trans_id": "'b' || i", "terminal_id": terminal,
        "cashier": f"'cashier-' || {terminal}", "amount": "1000 + i %% 500000",
        "request_ms": "g.at + 60000", "created_ms": "g.at + 60000", "updated_ms": "g.at + 61000",
        "seq": "i", "z_number": "NULL"})
    chunk = 1_000_000
    with psycopg.connect(pg.dsn, autocommit=True) as conn:
        conn.execute("SELECT ledger_ensure_partitions(24, %s)",
                     (today_ms - (end // per_day + 1) * DAY_MS,))
        for lo in range(start, end, chunk):
            hi = min(end, lo + chunk) - 1
            args = (lo, hi, today_ms, per_day, per_day, per_day)
            conn.execute(pay.encode(), args)
            conn.execute((ref + " AND i %% 100 = 7").encode(), args)
            print(f"  ... {hi + 1:,} payments", flush=True)
        conn.execute("VACUUM ANALYZE")


def setup_fleet(pg: PgServer, counters: int) -> dict[str, str]:
    """Every counter's own login, its terminal row, and DISAGREEMENTS disagreements."""
    logins = {counter_id(n): counter_login(pg.dsn, counter_id(n)) for n in range(counters)}
    with psycopg.connect(pg.dsn, autocommit=True) as conn:
        conn.execute("INSERT INTO terminals(terminal_id, app_user) SELECT terminal_id, 'bench' "
                     "FROM counters ON CONFLICT DO NOTHING")
        for n in range(DISAGREEMENTS):
            conn.execute("INSERT INTO disagreements(terminal_id, journal_id, seq, kind, key, "
                         "field, ledger_value, journal_value, note) VALUES "
                         "(%s, 'j', %s, 'payment', %s, 'state', 'succeeded', 'failed', 'bench')",
                         (counter_id(n % counters), n, f"b{n}"))
    return logins


def timed(work: Callable[[psycopg.Connection[Any]], Any], dsn: str, runs: int = 9,
          calls: int = 10) -> float:
    """Seconds per call: the median of `runs` samples of `calls` calls each, warm."""
    with psycopg.connect(dsn) as conn:
        work(conn)
        times = []
        for _ in range(runs):
            started = time.perf_counter()
            for _ in range(calls):
                work(conn)
            times.append((time.perf_counter() - started) / calls)
    return statistics.median(times)


def reads(dsn: str, day: date) -> dict[str, float]:
    now = int(time.time() * 1000)
    return {
        "fleet report (a day)": timed(lambda c: fleet_report(c, day, now), dsn),
        "fleet open": timed(open_items, dsn),
        "fleet disagreements": timed(disagreements, dsn),
    }


# ---------------------------------------------------------------- sync lag, 200 counters
def lag_worker(args: tuple[list[tuple[str, str]], str, str, float]) -> int:
    """25 counters in this process: each its background sync; one payment every 0.1 s, round
    robin across them, for `seconds`. Returns how many it paid."""
    logins, folder, ca_file, seconds = args
    settings = [counter_settings(Path(folder) / f"{t}.sqlite3", t, dsn, ca_file=Path(ca_file))
                for t, dsn in logins]
    for s in settings:
        fill(s.terminal.journal, s.terminal.terminal_id, 0)  # creates the journal
    syncs = [BackgroundSync(s).start() for s in settings]
    paid = 0
    try:
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            s = settings[paid % len(settings)]
            fill(s.terminal.journal, s.terminal.terminal_id, 1)
            paid += 1
            time.sleep(0.1)
        time.sleep(1.0)  # a few sync intervals: every status has seen the last payment
        until = time.monotonic() + 60
        while time.monotonic() < until and any(x.status.behind != 0 for x in syncs):
            time.sleep(0.1)
    finally:
        for x in syncs:
            x.stop()
    return paid


def sync_lag(pg: PgServer, logins: dict[str, str], folder: Path, seconds: float,
             seed_journal: str) -> list[float]:
    items = sorted(logins.items())
    groups = [items[k::PROCESSES] for k in range(PROCESSES)]
    ctx = multiprocessing.get_context("spawn")
    with ctx.Pool(PROCESSES) as pool:
        paid = sum(pool.map(lag_worker, [(g, str(folder), str(pg.ca_file), seconds)
                                         for g in groups]))
    with psycopg.connect(pg.dsn) as conn:
        rows = conn.execute(
            "SELECT extract(epoch FROM received_at) * 1000 - updated_ms FROM payments "
            "WHERE journal_id <> %s AND terminal_id LIKE 'C%%' AND state = 'succeeded'",
            (seed_journal,)).fetchall()
    assert len(rows) == paid, (len(rows), paid)
    return sorted(float(r[0]) / 1000 for r in rows)


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--small", type=int, default=100_000)
    parser.add_argument("--large", type=int, default=10_000_000)
    parser.add_argument("--per-day", type=int, default=10_000)
    parser.add_argument("--counters", type=int, default=200)
    parser.add_argument("--lag-s", type=float, default=30.0)
    args = parser.parse_args()
    with PgServer(fsync=False, max_connections=args.counters + 50) as pg, \
            tempfile.TemporaryDirectory(dir="/dev/shm") as tmp:
        folder = Path(tmp)
        print(f"PostgreSQL on 127.0.0.1:{pg.port} (TLS, row-level security, partitioned by "
              f"month); {args.counters} counters, {args.per_day:,} payments a day", flush=True)
        migrate(pg.dsn)
        templates = seed_templates(pg, folder)
        logins = setup_fleet(pg, args.counters)
        day = vn_today()
        today_ms = vn_day_bounds(day)[0]
        grow(pg, templates, 0, args.small, args.per_day, today_ms, args.counters)
        small = reads(pg.dsn, day)
        grow(pg, templates, args.small, args.large, args.per_day, today_ms, args.counters)
        large = reads(pg.dsn, day)
        with psycopg.connect(pg.dsn) as conn:
            parts = conn.execute("SELECT count(*) FROM pg_inherits "
                                 "WHERE inhparent = 'payments'::regclass").fetchone()
        print(f"\nledger reads, {args.small:,} vs {args.large:,} payments "
              f"({parts[0] if parts else '?'} monthly partitions of payments), per call, median of "
              "9 warm samples of 10 calls:")
        worst = 0.0
        for name, t in small.items():
            ratio = large[name] / t
            worst = max(worst, ratio)
            print(f"  {name:24s} {t * 1000:9.2f} ms  {large[name] * 1000:9.2f} ms  "
                  f"{ratio:5.2f}x")
        print(f"bar: reads at {args.large:,} <= {READ_BAR}x at {args.small:,}: "
              f"{'PASS' if worst <= READ_BAR else 'FAIL'}", flush=True)

        lags = sync_lag(pg, logins, folder, args.lag_s, templates[2])
        print_lag(f"\nsync lag, {args.counters} counters at once (own logins, background sync), "
                  f"{len(lags)} payments in {args.lag_s:.0f} s", lags)
    return 0


if __name__ == "__main__":
    sys.exit(main())
