"""Journal scale benchmark (run by `make bench`, never by the test suite).

A counter that runs for years: every everyday command costs the same at 1,000,000 payments as at
10,000. Journals are grown by the journal's own write path (grown_journal.py, cached under
bench/.corpus/) and copied for each run. Every command runs in this process (the CLI through
click, the UI's start and History through the counter), so the time is the command's own, not a
Python start-up: the best of several runs at each size (the machine is shared: the best run is
the command's own cost), sizes interleaved, warm (the file in the page cache) and cold (the file
evicted with posix_fadvise(DONTNEED) before each run). Wall and CPU time are both printed; the
warm ratio is of CPU time (the command's own work: what the other users of a shared machine run
cannot inflate it), the cold ratio of wall time (what it waits for the disk).

Then the payment's latency on the 1M journal, cold: `pay` alone; while reconcile and the X
report run in a loop on another copy of the journal (the same CPU and disk load on this 2-core
machine); and while they loop on the payment's own journal (in another process through the CLI,
and in this process on the payment's own Journal object, as the UI's background pass does). And
the file's size per payment a year into a counter's life (292,000 payments).

The small journal has 10,400 payments (13 full days), so that its open day holds 800 payments as
the large one's does: the X report and reconcile read the open day, and must read the same.

Bars: every ratio 1M / 10k <= 1.2 (warm and cold); pay's p99 with the loop on its own journal
<= 1.5x its p99 with the loop on another copy (a payment that waited for a report would add the
report's time); at most 1.2 KB per payment a year later.

Usage: python bench/bench_journal_scale.py [--small 10000] [--large 1000000] [--runs 5]
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from bars import Bar, report_bars
from click.testing import CliRunner
from grown_journal import DAY_MS, grown

from pos_terminal.base.clock import day_bounds_ms, iso_day
from pos_terminal.checkout import Checkout, PaymentState
from pos_terminal.cli import main as cli_main
from pos_terminal.cli.ui_cmds import open_counter_or_exit
from pos_terminal.config import Settings, default_config_path, load_settings
from pos_terminal.emulator import start_emulator
from pos_terminal.journal import Journal

RATIO_BAR = 1.2
PAY_P99_BAR = 1.5
YEAR = 292_000
SIZE_BAR = 1200


class Evictor:
    """Eviction in a process of its own: closing a descriptor of the journal in a process that
    has it open through SQLite would drop that process's POSIX locks on it (SQLite's own
    warning), and a reader could then see pages a checkpoint is rewriting."""

    def __init__(self) -> None:
        self.proc = subprocess.Popen([sys.executable, __file__, "--evictor"], text=True,
                                     stdin=subprocess.PIPE, stdout=subprocess.PIPE)
        self.lock = threading.Lock()

    def __call__(self, path: Path) -> None:
        assert self.proc.stdin is not None and self.proc.stdout is not None
        with self.lock:  # one request at a time (the pays and the background thread)
            self.proc.stdin.write(f"{path}\n")
            self.proc.stdin.flush()
            if self.proc.stdout.readline().strip() != "ok":
                raise RuntimeError("the evictor stopped")

    def close(self) -> None:
        self.proc.kill()
        self.proc.wait()


def evictor_loop() -> None:
    """Run in a child process: evict each path read from stdin, answer "ok"."""
    try:
        for line in sys.stdin:
            evict_here(Path(line.strip()))
            print("ok", flush=True)
    except BrokenPipeError:  # the process it served was killed (the load loop is)
        pass


_EVICTOR: Evictor | None = None


def evict(path: Path) -> None:
    """Drop the journal and its write-ahead log from the page cache, through the evictor."""
    global _EVICTOR
    if _EVICTOR is None:
        _EVICTOR = Evictor()
    _EVICTOR(path)


def evict_here(path: Path) -> None:
    """Drop the journal and its write-ahead log from the page cache (no root needed). Not the
    -shm file: SQLite maps it into memory (and a counter always has it in memory)."""
    for suffix in ("", "-wal"):
        name = Path(f"{path}{suffix}")
        if not name.exists():
            continue
        fd = os.open(name, os.O_RDONLY)
        try:
            os.fdatasync(fd)
            os.posix_fadvise(fd, 0, 0, os.POSIX_FADV_DONTNEED)
        finally:
            os.close(fd)


def toml_config(settings: Settings, journal: Path, out: Path) -> Path:
    sv = settings.service
    key1, key2 = sv.key1.get_secret_value(), sv.key2.get_secret_value()
    out.write_text(
        "[service]\n"
        f'generation = "{sv.generation}"\nbase_url = "{sv.base_url}"\n'
        f'gateway_url = "{sv.gateway_url}"\napp_id = {sv.app_id}\nkey1 = "{key1}"\n'
        f'key2 = "{key2}"\nrsa_public_key = "{sv.rsa_public_key}"\ntimeout_s = 10\n\n'
        f'[terminal]\njournal = "{journal}"\napp_user = "bench"\n', encoding="utf-8")
    return out


class Size:
    """One grown journal copied for this run, with its config and the day it ends on."""

    def __init__(self, payments: int, settings: Settings, folder: Path) -> None:
        self.payments = payments
        self.path = folder / f"journal-{payments}.sqlite3"
        shutil.copyfile(grown(payments), self.path)
        self.settings = settings.replace_section("terminal", journal=self.path)
        self.config = toml_config(self.settings, self.path, folder / f"pos-{payments}.toml")
        with Journal.open(self.path) as journal:
            last = journal.list_payments(limit=1, newest_first=True)[0]
            day = journal.list_payments(since_ms=last.created_ms - DAY_MS // 2,
                                        until_ms=last.created_ms + 1, limit=400)
        # a whole day inside the history at both sizes (800 payments): two days before the last
        self.day = iso_day(last.created_ms - 2 * DAY_MS)
        self.tid = next(p.app_trans_id for p in day if p.state is PaymentState.SUCCEEDED)


def cli(size: Size, *args: str, stdin: str | None = None, ok: tuple[int, ...] = (0,)) -> None:
    result = CliRunner().invoke(cli_main, ["--config", str(size.config), *args], input=stdin)
    if result.exit_code not in ok:
        raise RuntimeError(f"{' '.join(args)}: exit {result.exit_code}\n{result.stderr}"
                           f"\n{result.exception!r}")


def ui_start(size: Size) -> None:
    counter = open_counter_or_exit(size.settings)
    counter.close()


def sign_in(size: Size) -> None:
    cli(size, "shift", "open", "c1", "--pin-stdin", stdin="482916\n")
    cli(size, "shift", "close", "c1")


def history(size: Size) -> None:
    """The History screen's read of a day: its payments and their refunds."""
    counter = open_counter_or_exit(size.settings)
    try:
        since, until = day_bounds_ms(size.day)
        rows = counter.history.list(since_ms=since, until_ms=until, newest_first=True)
        for p in rows:
            counter.refunds.list(p.app_trans_id)
    finally:
        counter.close()


def commands(emulator: Any, folder: Path) -> dict[str, Callable[[Size], None]]:
    out = str(folder / "export.out")
    return {
        "report x": lambda s: cli(s, "report", "x"),
        "report x --by cashier": lambda s: cli(s, "report", "x", "--by", "cashier"),
        "report x --by shift": lambda s: cli(s, "report", "x", "--by", "shift"),
        "reconcile (the UI's pass)": lambda s: cli(s, "reconcile", ok=(0, 3)),
        "status": lambda s: cli(s, "status", s.tid, ok=(0, 1)),
        "journal list (a day)": lambda s: cli(s, "journal", "list", "--from", s.day, "--to",
                                              s.day),
        "journal list --limit 50": lambda s: cli(s, "journal", "list", "--limit", "50"),
        "export csv (a day)": lambda s: cli(s, "journal", "export", "--from", s.day, "--to",
                                            s.day, "-o", out),
        "export json (a day)": lambda s: cli(s, "journal", "export", "--format", "json",
                                             "--from", s.day, "--to", s.day, "-o", out),
        "export refunds (a day)": lambda s: cli(s, "journal", "export", "--what", "refunds",
                                                "--from", s.day, "--to", s.day, "-o", out),
        "sign-in (shift open+close)": sign_in,
        "pay": lambda s: cli(s, "pay", "--amount", "1000", "--code",
                             emulator.control.code("an")),
        "UI start": ui_start,
        "History (a day)": history,
    }


def timed(run: Callable[[], None]) -> float:
    start = time.perf_counter()
    run()
    return time.perf_counter() - start


def timed_both(run: Callable[[], None]) -> tuple[float, float]:
    """(wall, CPU) seconds of `run` in this process (CPU: every thread of it)."""
    wall, cpu = time.perf_counter(), time.process_time()
    run()
    return time.perf_counter() - wall, time.process_time() - cpu


def measure(sizes: list[Size], run: Callable[[Size], None], runs: int,
            cold: bool) -> list[list[tuple[float, float]]]:
    """(wall, CPU) times of `run` at each size, sizes interleaved."""
    samples: list[list[tuple[float, float]]] = [[] for _ in sizes]
    if not cold:
        for size in sizes:  # a first run each: imports, the emulator's first answer
            run(size)
    for _ in range(runs):
        for i, size in enumerate(sizes):
            if cold:
                evict(size.path)
            samples[i].append(timed_both(lambda s=size: run(s)))  # type: ignore[misc]
    return samples


def load_loop(config: str, journal: str, *also_evicted: str) -> None:
    """Run in a child process: reconcile and the X report, cold, until killed."""
    paths = [Path(journal), *(Path(p) for p in also_evicted)]
    parent = os.getppid()
    while os.getppid() == parent:  # never outlives the benchmark
        for args in (["reconcile"], ["report", "x"]):
            for path in paths:
                evict(path)
            CliRunner().invoke(cli_main, ["--config", config, *args])


def pay_latency(size: Size, emulator: Any, n: int,
                folder: Path) -> dict[str, list[float]]:
    """`pay` latencies (seconds): alone; while reconcile and the X report loop on another copy
    of the journal (the same CPU and disk load, the payment's own file evicted as often, no
    journal shared); and while they loop on the
    payment's own journal (in another process through the CLI, and in this process on the
    payment's own Journal object, as the UI's background pass does). Only a payment that waits
    for a report or a reconcile makes the last slower than the second."""
    settings = size.settings.replace_section("checkout", poll_intervals_s=(0.05,),
                                             poll_deadline_s=30.0, not_found_grace_s=0.0)
    other = folder / "other.sqlite3"
    shutil.copyfile(size.path, other)
    other_config = toml_config(size.settings, other, folder / "pos-other.toml")
    out: dict[str, list[float]] = {}
    with Checkout(settings) as co, Journal.open(other) as other_journal:
        def pays() -> list[float]:
            times = []
            for _ in range(n):
                code = emulator.control.code("an")
                evict(size.path)
                start = time.perf_counter()
                view = co.pay(1_000, code)
                times.append(time.perf_counter() - start)
                assert view.state is PaymentState.SUCCEEDED, view
            return times

        out["alone"] = pays()
        for phase, config, path, journal in (
                ("load on another journal", other_config, other, other_journal),
                ("load on the same journal", size.config, size.path, co.journal)):
            stop = threading.Event()

            def background(path: Path = path, journal: Journal = journal,
                           stop: threading.Event = stop) -> None:
                while not stop.is_set():
                    evict(path)
                    evict(size.path)  # both phases keep the payment's own file cold
                    journal.pending()
                    journal.failed_since(journal.now() - 20 * 60_000)
                    journal.late_charges_to_return(journal.now() - 24 * 3_600_000)
                    journal.x_report()

            child = subprocess.Popen([sys.executable, __file__, "--load", str(config),
                                      str(path), str(size.path)], cwd=Path(__file__).parent)
            thread = threading.Thread(target=background, daemon=True)
            thread.start()
            try:
                time.sleep(1.0)
                out[phase] = pays()
            finally:
                stop.set()
                child.kill()  # the CLI takes SIGTERM as "finish, then answer"
                child.wait()
                thread.join()
    other.unlink()
    return out


def p99(values: list[float]) -> float:
    values = sorted(values)
    return values[min(len(values) - 1, int(len(values) * 0.99))]


def main() -> int:
    parser = argparse.ArgumentParser()
    # 13 full days: the open day holds 800 payments, as the 1M journal's does
    parser.add_argument("--small", type=int, default=10_400)
    parser.add_argument("--large", type=int, default=1_000_000)
    parser.add_argument("--runs", type=int, default=9)
    parser.add_argument("--pays", type=int, default=100)
    parser.add_argument("--year", type=int, default=YEAR, help="payments in a year's journal")
    parser.add_argument("--load", nargs="+", metavar="CONFIG JOURNAL [EVICTED...]")
    parser.add_argument("--evictor", action="store_true")
    args = parser.parse_args()
    if args.evictor:
        evictor_loop()
        return 0
    if args.load:
        load_loop(*args.load)
        return 0
    print(f"machine: {os.cpu_count()} cores, {os.uname().sysname} {os.uname().release}; "
          f"loadavg {os.getloadavg()[0]:.1f}", flush=True)
    for payments in (args.small, args.large, args.year):
        grown(payments)
    base = load_settings(default_config_path(), env={})
    emulator = start_emulator(base, host="127.0.0.1", port=0)
    bars: list[Bar] = []
    try:
        settings = base.replace_service(base_url=emulator.base_url,
                                        gateway_url=emulator.base_url, timeout_s=10.0)
        with tempfile.TemporaryDirectory(prefix="bench-scale-") as tmp:
            folder = Path(tmp)
            sizes = [Size(args.small, settings, folder), Size(args.large, settings, folder)]
            print(f"\n{'command':<27} {'':<4} {'wall ' + f'{args.small:,}':>13} "
                  f"{'wall ' + f'{args.large:,}':>15} {'CPU ' + f'{args.small:,}':>12} "
                  f"{'CPU ' + f'{args.large:,}':>14}  ratio (of)", flush=True)
            for name, run in commands(emulator, folder).items():
                for cold in (False, True):
                    times = measure(sizes, run, args.runs, cold)
                    (wall_s, wall_l), (cpu_s, cpu_l) = (
                        [min(t[k] for t in ts) for ts in times] for k in (0, 1))
                    # warm: the command's own work (CPU: what other users of this shared
                    # machine do cannot inflate it); cold: the time it waits for the disk (wall)
                    ratio, of = (wall_l / wall_s, "wall") if cold else (cpu_l / cpu_s, "CPU")
                    label = "cold" if cold else "warm"
                    print(f"{name:<27} {label:<4} {wall_s * 1000:10.1f} ms {wall_l * 1000:12.1f} ms"
                          f" {cpu_s * 1000:9.1f} ms {cpu_l * 1000:11.1f} ms  {ratio:5.2f}x ({of})",
                          flush=True)
                    bars.append((f"{name}, {label}: 1M / 10k <= {RATIO_BAR}",
                                 ratio <= RATIO_BAR, f"{ratio:.2f}x"))
            for size in sizes:  # the Z report closes the open day: once per size, last
                evict(size.path)
                took = timed(lambda s=size: cli(s, "report", "z"))  # type: ignore[misc]
                print(f"{'report z (closes the day)':<30} cold  {size.payments:>10,}: "
                      f"{took * 1000:.1f} ms (one run)", flush=True)
            lat = pay_latency(sizes[1], emulator, args.pays, folder)
            print(f"\npay on the {args.large:,} journal, cold, {args.pays} payments each:")
            for phase, values in lat.items():
                print(f"  {phase:<26} median {statistics.median(values) * 1000:7.1f} ms   "
                      f"p99 {p99(values) * 1000:7.1f} ms", flush=True)
            ratio = p99(lat["load on the same journal"]) / p99(lat["load on another journal"])
            bars.append((f"pay p99, reconcile + report x on its journal <= {PAY_P99_BAR}x the "
                         "same load on another journal", ratio <= PAY_P99_BAR, f"{ratio:.2f}x"))
        with Journal.open(grown(args.year)) as journal:
            info = journal.info()
        per = info.size_bytes / info.rows["payments"]
        print(f"\na year of payments ({args.year:,}): {info.size_bytes / 1e6:.1f} MB on disk, "
              f"{per:.0f} bytes per payment (outbox rows kept: {info.rows['outbox']:,}; free "
              f"inside: {info.free_bytes / 1e6:.1f} MB)")
        bars.append((f"size a year later <= {SIZE_BAR} bytes per payment", per <= SIZE_BAR,
                     f"{per:.0f} B"))
    finally:
        emulator.stop()
        if _EVICTOR is not None:
            _EVICTOR.close()
    return report_bars("journal scale bars", bars)


if __name__ == "__main__":
    sys.exit(main())
