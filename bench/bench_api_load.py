"""The Terminal API while payments hang at the wallet (run by `make bench`, never by the tests).

Bar (DESIGN.md): look-ups while N payments hang, p99 at N = 200 <= 2x at N = 0.

One server per N (N = 0, 50, 200), each in a process of its own with its own emulator (the
wallet's every request on wallet "binh" held in transit: fault `delay_before_commit`), all up
at the same time. This process sends the N hanging payments to each, waits until every one has
reached its wallet, then measures the servers INTERLEAVED: round after round, one
`GET /v1/payments?sale_ref=` of a paid sale to each server in a shuffled order, and every
few rounds one new payment (another wallet) to each; all inside the wallet's hold, so every
sample is taken while all N still hang (checked). A load spike on the shared machine falls on
every N alike, which sequential runs (N = 0 first, N = 200 minutes later) could not promise.
It also counts what each server does while its payments hang and nobody asks: CPU per second
of the server's process. Several repeats; the medians of the ratios are the figures.

Usage: python bench/bench_api_load.py [--hanging 0,50,200] [--lookups 600] [--payments 20]
       [--repeats 3]
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

import requests

sys.path.insert(0, str(Path(__file__).resolve().parent))

HOLD_S = 110.0  # the wallet holds each hanging payment ([service] timeout_s is 120 at most)
BAR_P99 = 2.0


def pct(samples: list[float], p: float) -> float:
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, round(p / 100 * (len(ordered) - 1)))] * 1000


def serve(folder: Path) -> None:
    """One emulator and one Terminal API in this process, until stdin closes."""
    from bench_checkout import settings_for

    from pos_terminal.api.server import ApiServer, Binding, open_terminal
    from pos_terminal.config import default_config_path, load_settings
    from pos_terminal.counter import open_counter
    from pos_terminal.counter.admin import ApiTokens
    from pos_terminal.emulator import start_emulator

    base = load_settings(default_config_path(), env={}).replace_section(
        "emulator", processing_s=0.0)
    emulator = start_emulator(base)
    emulator.__enter__()
    settings = settings_for(emulator.base_url, folder / "journal.sqlite3")
    settings = settings.replace_service(timeout_s=120.0).replace_section(
        "checkout", poll_deadline_s=HOLD_S + 60)
    counter = open_counter(settings, listeners=())
    token, _row = ApiTokens(counter.journal).add("bench")
    server = ApiServer(open_terminal(counter), Binding("127.0.0.1", 0)).start()
    print(json.dumps({"api": server.url, "token": token, "emulator": emulator.base_url}),
          flush=True)
    sys.stdin.read()  # the benchmark closes it when done
    os._exit(0)  # payments still hang at the wallet: nothing to wait for


class Target:
    """One server under test (N payments hanging at its wallet)."""

    def __init__(self, hanging: int, folder: Path) -> None:
        self.hanging = hanging
        self.proc = subprocess.Popen(
            [sys.executable, __file__, "--serve", str(folder)], stdin=subprocess.PIPE,
            stdout=subprocess.PIPE, text=True)
        assert self.proc.stdout is not None
        ready = json.loads(self.proc.stdout.readline())
        self.url = ready["api"] + "/v1/payments"
        self.emulator = ready["emulator"]
        self.auth = {"Authorization": f"Bearer {ready['token']}"}
        self.session = requests.Session()
        self.session.headers.update(self.auth)
        self.times: dict[str, list[float]] = {"lookup": [], "payment": []}
        self.threads: list[threading.Thread] = []
        self.paid = 0

    def quick_pays(self) -> int:
        answer = requests.get(self.emulator + "/_emulator/ledger", timeout=30).json()
        return int(answer["requests"].get("quick_pay", 0))

    def code(self, wallet: str) -> str:
        wallets = requests.get(self.emulator + "/_emulator/wallets", timeout=30).json()
        return str(next(w["code"] for w in wallets["wallets"] if w["id"] == wallet))

    def pay(self, sale_ref: str) -> requests.Response:
        return self.session.post(self.url, timeout=120, json={
            "amount": 1000, "sale_ref": sale_ref, "payment_code": self.code("an")})

    def start_hanging(self) -> None:
        paid = self.pay("paid-0")
        assert paid.json()["outcome"] == "paid", paid.text
        requests.post(self.emulator + "/_emulator/faults", timeout=30, json={
            "endpoint": "quick_pay", "mode": "delay_before_commit", "delay_s": HOLD_S,
            "count": 0, "wallet": "binh"}).raise_for_status()
        self.before = self.quick_pays()
        if not self.hanging:
            return
        rotated = requests.post(self.emulator + "/_emulator/wallets/binh/rotate", timeout=30,
                                params={"count": self.hanging}, json={})
        assert rotated.status_code == 200, rotated.text
        codes = rotated.json()["codes"]

        def hang(n: int) -> None:
            with contextlib.suppress(requests.RequestException):
                requests.post(self.url, headers=self.auth, timeout=HOLD_S + 90, json={
                    "amount": 1000, "sale_ref": f"hang-{n}", "payment_code": codes[n]})

        self.threads = [threading.Thread(target=hang, args=(n,), daemon=True)
                        for n in range(self.hanging)]
        for thread in self.threads:
            thread.start()

    def reached(self) -> int:
        return self.quick_pays() - self.before

    def cpu_s(self) -> float:
        fields = Path(f"/proc/{self.proc.pid}/stat").read_text().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")

    def lookup(self) -> None:
        t = time.perf_counter()
        answer = self.session.get(self.url, params={"sale_ref": "paid-0"}, timeout=120)
        self.times["lookup"].append(time.perf_counter() - t)
        assert answer.status_code == 200, answer.text

    def payment(self) -> None:
        code = self.code("an")
        self.paid += 1
        t = time.perf_counter()
        answer = self.session.post(self.url, timeout=120, json={
            "amount": 1000, "sale_ref": f"new-{self.paid}", "payment_code": code})
        self.times["payment"].append(time.perf_counter() - t)
        assert answer.json()["outcome"] == "paid", answer.text

    def close(self) -> None:
        self.session.close()
        assert self.proc.stdin is not None
        self.proc.stdin.close()
        self.proc.wait(60)


def run(counts: list[int], lookups: int, payments: int, folder: Path) -> dict[str, Any]:
    for n in counts:
        (folder / f"n{n}").mkdir()
    targets = [Target(n, folder / f"n{n}") for n in counts]
    try:
        started = time.monotonic()
        for target in targets:
            target.start_hanging()
        while any(t.reached() < t.hanging for t in targets):
            if time.monotonic() - started > 300:
                raise SystemExit("FAIL: only " + ", ".join(
                    f"{t.reached()} of {t.hanging}" for t in targets)
                    + " payments reached the wallet")
            time.sleep(0.2)
        cpu = [t.cpu_s() for t in targets]
        idle_s = 5.0
        time.sleep(idle_s)
        idle = {t.hanging: (t.cpu_s() - c) / idle_s for t, c in zip(targets, cpu, strict=True)}
        load = os.getloadavg()[0]
        # every sample while all N still hang: the first reached the wallet after `started`
        deadline = started + HOLD_S - 5
        every = max(1, lookups // max(1, payments))
        for round_ in range(lookups):
            if time.monotonic() > deadline:
                print(f"note: the hold ({HOLD_S:.0f} s) ended the measuring after {round_} "
                      f"rounds of look-ups")
                break
            for target in random.sample(targets, len(targets)):
                target.lookup()
            if round_ % every == every - 1:
                for target in random.sample(targets, len(targets)):
                    target.payment()
        load = max(load, os.getloadavg()[0])
        still = {t.hanging: sum(th.is_alive() for th in t.threads) for t in targets}
        assert all(still[n] == n for n in still), f"hanging payments ended early: {still}"
        return {"times": {t.hanging: t.times for t in targets}, "idle_cpu": idle, "load": load}
    finally:
        for target in targets:
            target.close()


def report(result: dict[str, Any], counts: list[int]) -> dict[int, tuple[float, ...]]:
    times = result["times"]
    baseline = times[counts[0]]
    print(f"{'hanging':>8} | {'idle CPU':>8} | {'lookup p50':>10} {'p99':>8} {'x p50':>6} "
          f"{'x p99':>6} | {'payment p50':>11} {'p99':>8} {'x p50':>6} {'x p99':>6}")
    ratios = {}
    for n in counts:
        row = [f"{n:>8} | {result['idle_cpu'][n] * 100:>7.1f}% |"]
        found = []
        for kind in ("lookup", "payment"):
            p50, p99 = pct(times[n][kind], 50), pct(times[n][kind], 99)
            b50, b99 = pct(baseline[kind], 50), pct(baseline[kind], 99)
            width = 10 if kind == "lookup" else 11
            row.append(f"{p50:>{width}.1f} {p99:>8.1f} {p50 / b50:>6.2f} {p99 / b99:>6.2f} |")
            found += [p50 / b50, p99 / b99]
        ratios[n] = tuple(found)
        print(" ".join(row).rstrip(" |"))
    print(f"(ms; ratios against N = {counts[0]} measured interleaved with it; "
          f"{len(baseline['lookup'])} look-ups and {len(baseline['payment'])} payments per N; "
          f"load average up to {result['load']:.1f} on {os.cpu_count()} cores)")
    return ratios


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--hanging", default="0,50,200")
    parser.add_argument("--lookups", type=int, default=600)
    parser.add_argument("--payments", type=int, default=20)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--dir", type=Path, default=None)
    parser.add_argument("--serve", type=Path, default=None, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.serve is not None:
        serve(args.serve)
        return
    counts = [int(n) for n in args.hanging.split(",")]
    all_ratios: list[dict[int, tuple[float, ...]]] = []
    loads = []
    for repeat in range(args.repeats):
        print(f"-- run {repeat + 1} of {args.repeats}", flush=True)
        with tempfile.TemporaryDirectory(dir=args.dir) as tmp:
            result = run(counts, args.lookups, args.payments, Path(tmp))
        loads.append(result["load"])
        all_ratios.append(report(result, counts))
    print(f"medians of {args.repeats} runs (load average {min(loads):.1f}-{max(loads):.1f}):")
    for n in counts[1:]:
        lookup50, lookup99, pay50, pay99 = (
            statistics.median(r[n][i] for r in all_ratios) for i in range(4))
        print(f"  N = {n}: look-up p50 {lookup50:.2f}x p99 {lookup99:.2f}x; "
              f"new payment p50 {pay50:.2f}x p99 {pay99:.2f}x")
    top = max(counts)
    worst = statistics.median(r[top][1] for r in all_ratios)
    if worst > BAR_P99:
        print(f"FAIL: look-up p99 at N = {top} is {worst:.2f}x N = {counts[0]} "
              f"(bar {BAR_P99:.1f}x)")


if __name__ == "__main__":
    main()
