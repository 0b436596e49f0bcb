"""Fleet ledger benchmarks (run by `make bench`, never by the test suite). PostgreSQL on
loopback, started here like the tests do (initdb + pg_ctl, fsync on).

1. Throughput: 20 counters' journals pre-filled with real journal writes (intent + answer per
   payment, each a committed journal transaction; journals on tmpfs so filling is quick), then
   all 20 synced at once, each in its own process (as 20 machines would): outbox rows per
   second into the ledger. Baseline in the same run and database: a plain loop of single-row
   INSERTs, one transaction each (what a naive "send every event as it happens" costs).
   Bar: the fleet sync moves at least as many rows per second as the baseline loop.
2. Lag: counters paying against the emulator with the background sync running (default
   [ledger] interval_s); lag = the ledger row's arrival time (clock_timestamp() of the upsert)
   minus the payment's settle time in the journal (updated_ms of the final row), same clock.
   Bar: p95 <= 2 s.
3. What the outbox costs a payment: the journal writes of one payment with and without the
   outbox triggers (journal in RAM, where nothing hides it).

Usage: python bench/bench_ledger.py [--counters 20] [--payments 150] [--lag-counters 5]
       [--lag-payments 40]
"""

from __future__ import annotations

import argparse
import multiprocessing
import statistics
import sys
import tempfile
import time
from pathlib import Path

import psycopg

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from pos_terminal.config import Settings, default_config_path, load_settings  # noqa: E402
from pos_terminal.counter import open_checkout  # noqa: E402
from pos_terminal.journal import Journal, PaymentState  # noqa: E402
from pos_terminal.ledger import BackgroundSync, LedgerSync  # noqa: E402
from pos_terminal.wallets.zalopay.ids import new_app_trans_id  # noqa: E402
from tests.ledger.logins import counter_login, migrate  # noqa: E402
from tests.ledger.pgserver import PgServer  # noqa: E402

LAG_BAR_S = 2.0
INTERVAL_S = load_settings(default_config_path(), env={}).ledger.interval_s


def counter_settings(journal: Path, terminal_id: str, dsn: str, base_url: str = "",
                     ca_file: Path | None = None) -> Settings:
    s = load_settings(default_config_path(), env={})
    if base_url:
        s = s.replace_service(base_url=base_url, gateway_url=base_url, timeout_s=10.0)
        s = s.replace_section("checkout", poll_intervals_s=(0.05,), poll_deadline_s=30.0,
                              not_found_grace_s=0.0)
    s = s.replace_section("terminal", journal=journal, terminal_id=terminal_id,
                          app_user=f"cashier-{terminal_id}")
    s = s.model_copy(update={"terminal_id_set": True})
    return s.replace_section("ledger", dsn=dsn, ca_file=ca_file)


def fill(journal: Path, terminal_id: str, payments: int) -> int:
    """Real journal writes: an intent and a settled answer per payment; returns outbox rows."""
    with Journal.open(journal) as j:
        for i in range(payments):
            app_trans_id = new_app_trans_id(terminal_id)
            j.record_intent(app_trans_id=app_trans_id, amount=1000 + i, generation="v2",
                            payment_code=f"{i:018d}")
            j.transition(app_trans_id, PaymentState.SUCCEEDED, message="paid",
                         return_code=1, zp_trans_id=str(10**9 + i))
    return payments * 4


def sync_one(args: tuple[str, str, str, str]) -> tuple[int, float]:
    journal, terminal_id, dsn, ca_file = args
    sync = LedgerSync(counter_settings(Path(journal), terminal_id, dsn, ca_file=Path(ca_file)))
    try:
        started = time.perf_counter()
        report = sync.sync_once()
        return report.shipped, time.perf_counter() - started
    finally:
        sync.close()


def baseline_inserts(dsn: str, n: int) -> float:
    with psycopg.connect(dsn, autocommit=True) as conn:
        conn.execute("CREATE TABLE IF NOT EXISTS bench_plain (id bigserial PRIMARY KEY, "
                     "key text NOT NULL, payload text NOT NULL)")
        started = time.perf_counter()
        for i in range(n):
            conn.execute("INSERT INTO bench_plain(key, payload) VALUES (%s, %s)",
                         (f"k{i}", '{"state":"succeeded","amount":1000}'))
        return n / (time.perf_counter() - started)


def throughput(pg: PgServer, folder: Path, counters: int, payments: int
               ) -> tuple[float, float]:
    dsn = pg.dsn
    print(f"filling {counters} journals x {payments} payments (real journal writes) ...",
          flush=True)
    jobs = []
    rows = 0
    for c in range(counters):
        terminal_id = f"T{c:03d}"
        journal = folder / f"{terminal_id}.sqlite3"
        rows += fill(journal, terminal_id, payments)
        # each counter its own login (fleet add-counter): not part of the timing
        jobs.append((str(journal), terminal_id, counter_login(dsn, terminal_id), str(pg.ca_file)))
    ctx = multiprocessing.get_context("spawn")
    ready = ctx.Queue()
    with ctx.Pool(counters, initializer=ready.put, initargs=(1,)) as pool:
        for _ in range(counters):  # every process up (imports done) before the clock starts
            ready.get(timeout=120)
        started = time.perf_counter()
        results = pool.map(sync_one, jobs)
        wall = time.perf_counter() - started
    shipped = sum(r[0] for r in results)
    assert shipped == rows, (shipped, rows)
    with psycopg.connect(dsn) as conn:
        row = conn.execute("SELECT count(*) FROM receipts").fetchone()
        assert row is not None and int(row[0]) == rows
    per_counter = statistics.median(r[1] for r in results)
    print(f"{counters} counters synced {rows} outbox rows ({rows // 4} payments) in {wall:.2f} s:"
          f" {rows / wall:,.0f} rows/s into the ledger (median counter {per_counter:.2f} s)")
    return rows / wall, wall


def lag(pg: PgServer, folder: Path, counters: int, payments: int) -> list[float]:
    from pos_terminal.emulator import start_emulator

    base = load_settings(default_config_path(), env={})
    with start_emulator(base.replace_section("emulator", processing_s=0.2),
                        host="127.0.0.1", port=0) as emulator:
        dsn = pg.dsn
        settings = [counter_settings(folder / f"L{c}.sqlite3", f"L{c}", counter_login(dsn, f"L{c}"),
                                     emulator.base_url, pg.ca_file) for c in range(counters)]
        syncs = [BackgroundSync(s).start() for s in settings]
        checkouts = [open_checkout(s) for s in settings]
        try:
            paid: list[str] = []
            for i in range(payments):
                co = checkouts[i % counters]
                code = emulator.control.rotate("an")[0]
                paid.append(co.pay(1000 + i, code).app_trans_id)
            deadline = time.monotonic() + 60
            with psycopg.connect(dsn, autocommit=True) as conn:
                while time.monotonic() < deadline:
                    row = conn.execute("SELECT count(*) FROM payments WHERE app_trans_id = "
                                       "ANY(%s) AND state='succeeded'", (paid,)).fetchone()
                    if row is not None and int(row[0]) == len(paid):
                        break
                    time.sleep(0.05)
                rows = conn.execute(
                    "SELECT extract(epoch FROM received_at) * 1000 - updated_ms FROM payments "
                    "WHERE app_trans_id = ANY(%s)", (paid,)).fetchall()
        finally:
            for s in syncs:
                s.stop()
            for co in checkouts:
                co.close()
    return sorted(float(r[0]) / 1000 for r in rows)


def print_lag(what: str, lags: list[float]) -> None:
    """The lag's median, p95 and max after `what`, and its bar (p95 <= LAG_BAR_S); `lags` sorted.
    bench_fleet_scale prints its lag the same way."""
    p95 = lags[min(len(lags) - 1, int(len(lags) * 0.95))]
    print(f"{what}: median {statistics.median(lags):.3f} s   p95 {p95:.3f} s   "
          f"max {lags[-1]:.3f} s")
    print(f"bar: p95 lag <= {LAG_BAR_S} s: {'PASS' if p95 <= LAG_BAR_S else 'FAIL'}")


def trigger_cost(folder: Path, payments: int = 1000) -> tuple[float, float]:
    """Median ms of one payment's two journal writes (intent + answer), in RAM so the disk's
    fsync does not hide it: without the outbox triggers (dropped on a copy) and with them."""
    import sqlite3

    result = []
    for drop in (True, False):
        path = folder / f"cost-{drop}.sqlite3"
        Journal.open(path).close()
        if drop:
            conn = sqlite3.connect(path)
            for (name,) in conn.execute("SELECT name FROM sqlite_master WHERE type='trigger' "
                                        "AND name LIKE 'outbox_%'").fetchall():
                conn.execute(f"DROP TRIGGER {name}")
            conn.commit()
            conn.close()
        times = []
        with Journal.open(path) as j:
            for i in range(payments):
                started = time.perf_counter()
                j.record_intent(app_trans_id=f"c{i}", amount=1000, generation="v2",
                                payment_code=f"{i:018d}")
                j.transition(f"c{i}", PaymentState.SUCCEEDED, message="paid", zp_trans_id="1")
                times.append(time.perf_counter() - started)
        result.append(statistics.median(times) * 1000)
    return result[0], result[1]


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--counters", type=int, default=20)
    parser.add_argument("--payments", type=int, default=150)
    parser.add_argument("--lag-counters", type=int, default=5)
    parser.add_argument("--lag-payments", type=int, default=40)
    args = parser.parse_args()
    with PgServer(fsync=True) as pg, tempfile.TemporaryDirectory(dir="/dev/shm") as tmp:
        folder = Path(tmp)
        print(f"PostgreSQL on 127.0.0.1:{pg.port} (fsync on, synchronous_commit on)")
        migrate(pg.dsn)  # `fleet migrate`, the owner's login
        plain = baseline_inserts(pg.dsn, 2000)
        print(f"baseline: single-row INSERT loop, one transaction each: {plain:,.0f} rows/s")
        rate, _ = throughput(pg, folder, args.counters, args.payments)
        verdict = "PASS" if rate >= plain else "FAIL"
        print(f"fleet sync / baseline: {rate / plain:.1f}x   bar: >= 1.0x: {verdict}")
        fill(folder / "one.sqlite3", "ONE", args.payments * 4)
        single = LedgerSync(counter_settings(folder / "one.sqlite3", "ONE",
                                             counter_login(pg.dsn, "ONE"), ca_file=pg.ca_file))
        single.ledger.check_schema()
        started = time.perf_counter()
        one = single.sync_once().shipped / (time.perf_counter() - started)
        single.close()
        print(f"one counter alone, connection open: {one:,.0f} rows/s "
              f"({one / plain:.1f}x the baseline)")
        bare, with_outbox = trigger_cost(folder)
        print(f"journal writes of one payment in RAM: {bare:.3f} ms without the outbox triggers,"
              f" {with_outbox:.3f} ms with them ({with_outbox / bare:.2f}x; on disk one fsync'd "
              "commit costs milliseconds)")
        lags = lag(pg, folder, args.lag_counters, args.lag_payments)
        print_lag(f"lag settled -> ledger row, {args.lag_counters} counters with the background "
                  f"sync (interval {INTERVAL_S} s), {len(lags)} payments", lags)
    return 0


if __name__ == "__main__":
    sys.exit(main())
