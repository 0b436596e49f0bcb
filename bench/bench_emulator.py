"""Quick-pay throughput of the wallet-service emulator on loopback (bar: >= 500 requests/s).

The emulator runs in its own process (as `pos-terminal emulator` does); several concurrent
clients (one aiohttp session, N connections) send correctly signed, RSA-encrypted quick-pay
requests, each with a fresh single-use payment code minted beforehand. Requests are built before
the clock starts, so the number measures the server. As a baseline measured in the same run, the
raw cost of one RSA-1024 PKCS#1 v1.5 decryption (the server's heaviest step) is printed too.

    PYTHONPATH=. .venv/bin/python bench/bench_emulator.py [--requests 3000] [--concurrency 8]

Loopback only; stops by itself after --requests requests (or --max-seconds).
"""

from __future__ import annotations

import argparse
import asyncio
import base64
import hashlib
import hmac
import multiprocessing
import os
import statistics
import sys
import time
from datetime import datetime, timedelta, timezone
from pathlib import Path
from typing import Any

import aiohttp
import requests
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import padding, rsa

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from pos_terminal.config import load_settings  # noqa: E402
from pos_terminal.emulator.pkcs1 import load_private_key  # noqa: E402

BAR_RPS = 500
VN = timezone(timedelta(hours=7))


def _serve(ready: Any) -> None:
    from pos_terminal.emulator import serve

    settings = load_settings(REPO / "config" / "default.toml", env={})
    serve(settings, "127.0.0.1", 0, on_ready=ready.put)


def _forms(settings: Any, codes: list[str], generation: str) -> list[dict[str, str]]:
    key = serialization.load_der_public_key(base64.b64decode(settings.service.rsa_public_key))
    assert isinstance(key, rsa.RSAPublicKey)
    app_id, key1 = str(settings.service.app_id), settings.service.key1.get_secret_value()
    day = datetime.now(VN).strftime("%y%m%d")
    forms = []
    for index, code in enumerate(codes):
        trans_id, app_time, amount = f"{day}_bench_{time.time_ns()}{index}", str(
            int(time.time() * 1000)), "1000"
        mac = hmac.new(key1.encode(), "|".join(
            [app_id, trans_id, "bench", amount, app_time, "{}", "[]", code]).encode(),
            hashlib.sha256).hexdigest()
        encrypted = base64.b64encode(key.encrypt(code.encode(), padding.PKCS1v15())).decode()
        if generation == "v2":
            forms.append({"app_id": app_id, "app_trans_id": trans_id, "app_user": "bench",
                          "app_time": app_time, "amount": amount, "embed_data": "{}",
                          "item": "[]", "description": "bench", "payment_code": encrypted,
                          "mac": mac})
        else:
            forms.append({"appid": app_id, "apptransid": trans_id, "appuser": "bench",
                          "apptime": app_time, "amount": amount, "embeddata": "{}",
                          "item": "[]", "description": "bench", "paymentcode": encrypted,
                          "mac": mac})
    return forms


async def _drive(url: str, forms: list[dict[str, str]], concurrency: int,
                 max_seconds: float) -> tuple[float, list[float], list[int]]:
    queue: asyncio.Queue[dict[str, str]] = asyncio.Queue()
    for form in forms:
        queue.put_nowait(form)
    latencies: list[float] = []
    codes: list[int] = []
    deadline = time.perf_counter() + max_seconds
    connector = aiohttp.TCPConnector(limit=concurrency)
    timeout = aiohttp.ClientTimeout(total=10)
    async with aiohttp.ClientSession(connector=connector, timeout=timeout) as session:
        async def client() -> None:
            while not queue.empty() and time.perf_counter() < deadline:
                form = queue.get_nowait()
                start = time.perf_counter()
                async with session.post(url, data=form) as response:
                    body = await response.json()
                latencies.append(time.perf_counter() - start)
                codes.append(int(body.get("return_code", body.get("returncode", 0))))

        began = time.perf_counter()
        await asyncio.gather(*(client() for _ in range(concurrency)))
        return time.perf_counter() - began, latencies, codes


def _cpu_seconds(pid: int | None) -> float | None:
    """User+system CPU time of a process (Linux /proc), None where unavailable."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    except (OSError, ValueError, IndexError):
        return None


def _decrypt_baseline(settings: Any, rounds: int = 2000) -> float:
    """Seconds per RSA private-key decryption of one payment code (the server's key)."""
    private = load_private_key(settings.emulator.private_key.read_text())
    blob = private.public_key().encrypt(b"123456789012345678", padding.PKCS1v15())
    start = time.perf_counter()
    for _ in range(rounds):
        private.decrypt(blob, padding.PKCS1v15())
    return (time.perf_counter() - start) / rounds


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--requests", type=int, default=3000)
    parser.add_argument("--concurrency", type=int, default=8)
    parser.add_argument("--generation", choices=["v2", "v001"], default="v2")
    parser.add_argument("--max-seconds", type=float, default=60.0)
    args = parser.parse_args()
    settings = load_settings(REPO / "config" / "default.toml", env={})

    context = multiprocessing.get_context("spawn")
    ready = context.Queue()
    server = context.Process(target=_serve, args=(ready,), daemon=True)
    server.start()
    try:
        base_url = ready.get(timeout=30)
        minted = requests.post(f"{base_url}/_emulator/wallets/an/rotate",
                               params={"count": args.requests}, json={},
                               timeout=30).json()["codes"]
        forms = _forms(settings, minted, args.generation)
        path = "/v2/quick_pay" if args.generation == "v2" else "/v001/tpe/submitqrcodepay"
        # warm-up: connections, first-request costs (not counted)
        warm = requests.post(f"{base_url}/_emulator/wallets/an/rotate", json={}, timeout=5).json()
        asyncio.run(_drive(base_url + path, _forms(settings, warm["codes"], args.generation),
                           1, 10))
        cpu_before = _cpu_seconds(server.pid)
        client_before = time.process_time()
        elapsed, latencies, codes = asyncio.run(
            _drive(base_url + path, forms, args.concurrency, args.max_seconds))
        cpu_after = _cpu_seconds(server.pid)
        client_cpu = time.process_time() - client_before
        ledger = requests.get(f"{base_url}/_emulator/ledger", timeout=10).json()
    finally:
        server.terminate()
        server.join(10)

    decrypt_s = _decrypt_baseline(settings)
    done = len(latencies)
    rps = done / elapsed
    ok = sum(1 for code in codes if code == 1)
    quantiles = statistics.quantiles(latencies, n=100) if done >= 2 else [0.0] * 99
    print(f"emulator quick pay ({args.generation}), {done} requests, "
          f"{args.concurrency} concurrent clients, loopback")
    print(f"  throughput      {rps:8.0f} requests/s   (bar {BAR_RPS}: {rps / BAR_RPS:.2f}x)")
    print(f"  latency         p50 {quantiles[49] * 1000:6.2f} ms   "
          f"p95 {quantiles[94] * 1000:6.2f} ms")
    print(f"  answers         {ok} success of {done}; ledger charges "
          f"{len(ledger['charges'])} (+1 warm-up)")
    print(f"  baseline        one RSA-1024 decrypt {decrypt_s * 1e6:6.1f} us "
          f"(= {1 / decrypt_s:,.0f}/s on one core); "
          f"per request {elapsed / max(done, 1) * 1e6:6.1f} us wall, "
          f"{decrypt_s / (elapsed / max(done, 1)) * 100:.0f}% of it decrypting")
    if cpu_before is not None and cpu_after is not None and cpu_after > cpu_before:
        per_request = (cpu_after - cpu_before) / max(done, 1)
        print(f"  server CPU      {per_request * 1e6:6.1f} us per request "
              f"(= {1 / per_request:,.0f} requests/s on one free core; "
              f"{(cpu_after - cpu_before) / elapsed * 100:.0f}% of a core used; load average "
              f"{os.getloadavg()[0]:.1f} on {os.cpu_count()} cores)")
    print(f"  client CPU      {client_cpu / max(done, 1) * 1e6:6.1f} us per request "
          f"({client_cpu / elapsed * 100:.0f}% of a core)")
    if rps < BAR_RPS:
        print(f"  BELOW THE BAR of {BAR_RPS} requests/s: see the load average and server CPU "
              "lines (other work on this machine takes the cores)")
    charged = sum(1 for charge in ledger["charges"] if charge["state"] == "succeeded")
    if not ok == done == args.requests or charged != done + 1:
        print("  WRONG ANSWERS: not every request was charged exactly once")
        return 1
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
