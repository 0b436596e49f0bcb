"""Terminal API overhead per payment (run by `make bench`, never by the test suite).

The same instant payments (emulator wallet "an", no processing delay), alternately through
`Checkout.pay` alone and through `POST /v1/payments` (a real uvicorn server on loopback, a
keep-alive `requests` session, bearer token, sale_ref, JSON both ways): the API's overhead is the
difference of the medians, and the ratio of the two, measured in the same run on the same disk.
The design brief sets no bar: the numbers are reported (docs/benchmarks.md).

Usage: python bench/bench_api.py [--payments 200] [--dir PATH]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

import requests

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_checkout import ms, settings_for

from pos_terminal.api.server import ApiServer, Binding, open_terminal
from pos_terminal.checkout import PaymentState
from pos_terminal.config import default_config_path, load_settings
from pos_terminal.counter import open_checkout, open_counter
from pos_terminal.counter.admin import ApiTokens
from pos_terminal.emulator import start_emulator


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--payments", type=int, default=200)
    parser.add_argument("--dir", type=Path, default=None,
                        help="Folder for the journals (default: a temporary folder)")
    args = parser.parse_args()
    base = load_settings(default_config_path(), env={}).replace_section(
        "emulator", processing_s=0.0)
    with tempfile.TemporaryDirectory(dir=args.dir) as tmp, start_emulator(base) as emulator:
        folder = Path(tmp)
        direct_settings = settings_for(emulator.base_url, folder / "direct.sqlite3")
        api_settings = settings_for(emulator.base_url, folder / "api.sqlite3")
        counter = open_counter(api_settings, listeners=())
        token, _row = ApiTokens(counter.journal).add("bench")
        server = ApiServer(open_terminal(counter), Binding("127.0.0.1", 0)).start()
        session = requests.Session()
        session.headers["Authorization"] = f"Bearer {token}"
        direct: list[float] = []
        through_api: list[float] = []
        try:
            with open_checkout(direct_settings) as co:
                for n in range(args.payments):
                    code = emulator.control.code("an")
                    start = time.perf_counter()
                    view = co.pay(1_000, code)
                    direct.append(time.perf_counter() - start)
                    assert view.state is PaymentState.SUCCEEDED, view

                    code = emulator.control.code("an")
                    start = time.perf_counter()
                    answer = session.post(f"{server.url}/v1/payments", timeout=30, json={
                        "amount": 1_000, "sale_ref": f"bench-{n}", "payment_code": code})
                    through_api.append(time.perf_counter() - start)
                    assert answer.json()["state"] == "succeeded", answer.text
        finally:
            session.close()
            server.stop()
            counter.close()
    d, a = statistics.median(direct), statistics.median(through_api)
    print(f"Checkout.pay alone ({args.payments} payments):      {ms(direct)}")
    print(f"POST /v1/payments ({args.payments} payments):       {ms(through_api)}")
    print(f"Terminal API overhead per payment: {(a - d) * 1000:.2f} ms median "
          f"({a / d:.2f}x Checkout.pay alone)")


if __name__ == "__main__":
    main()
