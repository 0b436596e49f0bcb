"""The Terminal API while payments hang at the wallet (run by `make bench`, never by the tests).

N payments (N = 0, 50, 200) are sent to a wallet whose every request is held in transit
(emulator fault `delay_before_commit` on wallet "binh"); once all N have reached the wallet, the
API is timed on what must keep answering: `GET /v1/payments?sale_ref=` of a paid sale, and a new
payment on another wallet. p50/p99 of each, as ratios against N = 0 in the same run (a fresh
server and emulator per N). Before api/pools.py, 40 hanging payments took every thread: a
look-up then waited for the wallet's timeout.

Usage: python bench/bench_api_load.py [--hanging 0,50,200] [--lookups 60] [--payments 20]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path

import requests

sys.path.insert(0, str(Path(__file__).resolve().parent))

import contextlib

from bench_checkout import settings_for

from pos_terminal.api.server import ApiServer, Binding, open_terminal
from pos_terminal.config import default_config_path, load_settings
from pos_terminal.counter import open_counter
from pos_terminal.counter.admin import ApiTokens
from pos_terminal.emulator import start_emulator

HOLD_S = 60.0  # how long the wallet holds each hanging payment: the measuring fits inside


def pct(samples: list[float], p: float) -> float:
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, round(p / 100 * (len(ordered) - 1)))] * 1000


def quick_pays(base_url: str) -> int:
    answer = requests.get(base_url + "/_emulator/ledger", timeout=10).json()
    return int(answer["requests"].get("quick_pay", 0))


def run(hanging: int, lookups: int, payments: int, folder: Path) -> dict[str, list[float]]:
    base = load_settings(default_config_path(), env={}).replace_section(
        "emulator", processing_s=0.0)
    with start_emulator(base) as emulator:
        settings = settings_for(emulator.base_url, folder / f"load-{hanging}.sqlite3")
        settings = settings.replace_service(timeout_s=HOLD_S + 30).replace_section(
            "checkout", poll_deadline_s=HOLD_S + 60)
        counter = open_counter(settings, listeners=())
        token, _row = ApiTokens(counter.journal).add("bench")
        server = ApiServer(open_terminal(counter), Binding("127.0.0.1", 0)).start()
        auth = {"Authorization": f"Bearer {token}"}
        session = requests.Session()
        session.headers.update(auth)
        url = server.url + "/v1/payments"
        try:
            paid = session.post(url, timeout=30, json={
                "amount": 1000, "sale_ref": "paid-0", "payment_code": emulator.control.code("an")})
            assert paid.json()["outcome"] == "paid", paid.text
            requests.post(emulator.base_url + "/_emulator/faults", timeout=10, json={
                "endpoint": "quick_pay", "mode": "delay_before_commit", "delay_s": HOLD_S,
                "count": 0, "wallet": "binh"}).raise_for_status()
            before = quick_pays(emulator.base_url)
            codes = emulator.control.rotate("binh", hanging) if hanging else []

            def hang(n: int) -> None:
                with contextlib.suppress(requests.RequestException):
                    requests.post(url, headers=auth, timeout=HOLD_S + 90, json={
                        "amount": 1000, "sale_ref": f"hang-{n}", "payment_code": codes[n]})

            threads = [threading.Thread(target=hang, args=(n,), daemon=True)
                       for n in range(hanging)]
            started = time.monotonic()
            for thread in threads:
                thread.start()
            while quick_pays(emulator.base_url) - before < hanging:
                if time.monotonic() - started > HOLD_S / 2:
                    raise SystemExit(f"FAIL: only {quick_pays(emulator.base_url) - before} of "
                                     f"{hanging} payments reached the wallet")
                time.sleep(0.1)
            times: dict[str, list[float]] = {"lookup": [], "payment": []}
            for _ in range(lookups):
                t = time.perf_counter()
                answer = session.get(url, params={"sale_ref": "paid-0"}, timeout=HOLD_S)
                times["lookup"].append(time.perf_counter() - t)
                assert answer.status_code == 200, answer.text
            for n in range(payments):
                code = emulator.control.code("an")
                t = time.perf_counter()
                answer = session.post(url, timeout=HOLD_S, json={
                    "amount": 1000, "sale_ref": f"new-{n}", "payment_code": code})
                times["payment"].append(time.perf_counter() - t)
                assert answer.json()["outcome"] == "paid", answer.text
            if time.monotonic() - started > HOLD_S:
                print(f"note: N={hanging}: the measuring outlasted the hold ({HOLD_S:.0f} s)")
            for thread in threads:  # the wallet answers after HOLD_S; they settle
                thread.join(HOLD_S + 90)
            return times
        finally:
            session.close()
            server.stop()
            counter.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--hanging", default="0,50,200")
    parser.add_argument("--lookups", type=int, default=60)
    parser.add_argument("--payments", type=int, default=20)
    parser.add_argument("--dir", type=Path, default=None)
    args = parser.parse_args()
    counts = [int(n) for n in args.hanging.split(",")]
    results: dict[int, dict[str, list[float]]] = {}
    with tempfile.TemporaryDirectory(dir=args.dir) as tmp:
        for n in counts:
            results[n] = run(n, args.lookups, args.payments, Path(tmp))
    baseline = results[counts[0]]
    print(f"{'hanging':>8} | {'lookup p50':>10} {'p99':>8} {'x p50':>6} {'x p99':>6} | "
          f"{'payment p50':>11} {'p99':>8} {'x p50':>6} {'x p99':>6}")
    for n in counts:
        row = [f"{n:>8} |"]
        for kind in ("lookup", "payment"):
            p50, p99 = pct(results[n][kind], 50), pct(results[n][kind], 99)
            b50, b99 = pct(baseline[kind], 50), pct(baseline[kind], 99)
            width = 10 if kind == "lookup" else 11
            row.append(f"{p50:>{width}.1f} {p99:>8.1f} {p50 / b50:>6.2f} {p99 / b99:>6.2f} |")
        print(" ".join(row).rstrip(" |"))
    print(f"(ms; ratios against N = {counts[0]}; medians of {args.lookups} look-ups and "
          f"{args.payments} payments: {statistics.median(baseline['lookup']) * 1000:.1f} ms, "
          f"{statistics.median(baseline['payment']) * 1000:.1f} ms at N = {counts[0]})")


if __name__ == "__main__":
    main()
