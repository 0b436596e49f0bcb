"""A small Python client of the Terminal API: what a POS integration needs, and nothing else.

    client = TerminalClient("http://127.0.0.1:8780", token)
    payment = client.pay("1001", 25000)             # waits for the counter's scanner
    payment = client.pay("1002", 25000, code)       # a code your own scanner read
    client.refund(payment["app_trans_id"], 5000, "1001-r1", supervisor="lan", pin="4321")

The rule that keeps a sale from being charged twice: every retry of a sale uses the SAME
sale_ref. `pay` retries by itself when the answer is lost (a timeout, a dropped connection,
the terminal restarting) and, after the last try, asks for the sale by its sale_ref instead of
guessing. Run it as a script for a quick test:

    python examples/pos_client.py --url http://127.0.0.1:8780 --token pt_... pay 1001 25000
    python examples/pos_client.py --url http://127.0.0.1:8780 --token pt_... pay 1002 25000 \
        --code 8123456789012345678
    python examples/pos_client.py --url http://127.0.0.1:8780 --token pt_... status 1002

It needs only what the project installs (`requests`). Exit 0 paid, 1 not paid, 2 refused,
3 not known yet (never pay again: ask with `status`).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Iterator
from typing import Any

import requests

#: errors after which the request may or may not have reached the terminal: ask again
LOST = (requests.ConnectionError, requests.Timeout)


class TerminalError(Exception):
    """The terminal refused the request (`{"error": {"code", "message"}}`): nothing happened."""

    def __init__(self, status: int, code: str, message: str) -> None:
        super().__init__(f"{status} {code}: {message}")
        self.status, self.code, self.message = status, code, message


class TerminalClient:
    def __init__(self, url: str, token: str, *, timeout_s: float = 150.0, tries: int = 3,
                 verify: bool | str = True) -> None:
        self.url = url.rstrip("/")
        self.timeout_s = timeout_s
        self.tries = tries
        self.session = requests.Session()
        self.session.headers["Authorization"] = f"Bearer {token}"
        self.session.verify = verify

    def _call(self, method: str, path: str, **kwargs: Any) -> dict[str, Any]:
        answer = self.session.request(method, self.url + path,
                                      timeout=kwargs.pop("timeout", self.timeout_s), **kwargs)
        data: dict[str, Any] = answer.json()
        if answer.status_code >= 400:
            error = data.get("error", {})
            raise TerminalError(answer.status_code, error.get("code", "?"),
                                error.get("message", answer.text[:200]))
        return data

    def _retried(self, method: str, path: str, body: dict[str, Any]) -> dict[str, Any]:
        """The same request again after a lost answer: safe, the terminal is idempotent on
        the body's reference."""
        for attempt in range(self.tries):
            try:
                return self._call(method, path, json=body)
            except LOST:
                if attempt == self.tries - 1:
                    raise
                time.sleep(min(2.0 ** attempt, 5.0))
        raise AssertionError("unreachable")

    # ---------------------------------------------------------------- payments
    def pay(self, sale_ref: str, amount: int, payment_code: str | None = None, *,
            description: str = "") -> dict[str, Any]:
        """Charge the sale once; the answer's "outcome" is paid, not_paid or unknown (then ask
        again with `payment(sale_ref)` later: never start another payment for the sale)."""
        body: dict[str, Any] = {"amount": amount, "sale_ref": sale_ref}
        if payment_code is not None:
            body["payment_code"] = payment_code
        if description:
            body["description"] = description
        return self._retried("POST", "/v1/payments", body)

    def payment(self, sale_ref: str) -> dict[str, Any]:
        return self._call("GET", "/v1/payments", params={"sale_ref": sale_ref})

    def abort(self, sale_ref: str) -> dict[str, Any]:
        return self._call("POST", "/v1/payments/abort", json={"sale_ref": sale_ref})

    # ---------------------------------------------------------------- refunds, reports
    def refund(self, app_trans_id: str, amount: int, refund_ref: str, *,
               supervisor: str | None = None, pin: str | None = None) -> dict[str, Any]:
        body: dict[str, Any] = {"app_trans_id": app_trans_id, "amount": amount,
                                "refund_ref": refund_ref}
        if supervisor is not None:
            body.update(supervisor=supervisor, pin=pin)
        return self._retried("POST", "/v1/refunds", body)

    def x_report(self) -> dict[str, Any]:
        return self._call("GET", "/v1/reports/x")

    def receipt(self, subject_id: str, lang: str = "vi") -> list[str]:
        return list(self._call("GET", f"/v1/receipts/{subject_id}",
                               params={"lang": lang})["lines"])

    def events(self) -> Iterator[dict[str, Any]]:
        """The counter's events as they happen (Server-Sent Events), forever: reconnects with
        Last-Event-ID after a dropped connection or a restart. After `stream_reset` (the
        terminal could not replay what was missed) the payments settled meanwhile follow,
        marked `replayed`: look up by sale_ref whatever you still wait for."""
        last_id: str | None = None
        while True:
            headers = {"Last-Event-ID": last_id} if last_id else {}
            try:
                with self.session.get(self.url + "/v1/events", stream=True, headers=headers,
                                      timeout=(10, 60)) as sse:
                    if sse.status_code != 200:  # a refusal (token, scope): not worth retrying
                        error = sse.json().get("error", {})
                        raise TerminalError(sse.status_code, error.get("code", "?"),
                                            error.get("message", ""))
                    for line in sse.iter_lines(decode_unicode=True):
                        if line.startswith("id:"):
                            last_id = line[3:].strip()
                        elif line.startswith("data:"):
                            yield json.loads(line[5:])
            except LOST:
                time.sleep(1.0)  # the terminal restarts, or the network is gone: retry


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description="Drive a pos-terminal from the command line.")
    parser.add_argument("--url", default="http://127.0.0.1:8780")
    parser.add_argument("--token", required=True)
    sub = parser.add_subparsers(dest="call", required=True)
    pay = sub.add_parser("pay")
    pay.add_argument("sale_ref")
    pay.add_argument("amount", type=int)
    pay.add_argument("--code")
    sub.add_parser("status").add_argument("sale_ref")
    args = parser.parse_args(argv)
    client = TerminalClient(args.url, args.token)
    try:
        answer = (client.pay(args.sale_ref, args.amount, args.code) if args.call == "pay"
                  else client.payment(args.sale_ref))
    except TerminalError as exc:
        print(exc, file=sys.stderr)
        return 2
    print(json.dumps(answer, ensure_ascii=False))
    return {"paid": 0, "not_paid": 1}.get(answer.get("outcome", ""), 3)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
