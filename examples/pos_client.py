"""A small Python client of the Terminal API: what a POS integration needs, and nothing else.

    client = TerminalClient("http://127.0.0.1:8780", token)
    payment = client.pay("1001", 25000)             # waits for the counter's scanner
    payment = client.pay("1002", 25000, code)       # a code your own scanner read
    client.refund(payment["app_trans_id"], 5000, "1001-r1", supervisor="lan", pin="4321")

The rule that keeps a sale from being charged twice: every retry of a sale uses the SAME
sale_ref. `pay` retries by itself when the answer is lost (a timeout, a dropped connection,
the terminal restarting) and, after the last try, asks for the sale by its sale_ref instead of
guessing. Run it as a script for a quick test, against `pos-terminal serve` and the emulator
(docs/terminal-api.md); the second payment uses the code the emulator's customer An shows now
(she pays at once; a code is good for one payment within 60 s, so it is fetched, not written):

    python3 examples/pos_client.py --url http://127.0.0.1:8780 --token pt_... pay 1001 25000
    CODE=$(python3 -c 'import json, urllib.request as u; print(json.load(u.urlopen(
      "http://127.0.0.1:8765/_emulator/wallets"))["wallets"][0]["code"])')
    python3 examples/pos_client.py --url http://127.0.0.1:8780 --token pt_... pay 1002 25000 \
        --code "$CODE"
    python3 examples/pos_client.py --url http://127.0.0.1:8780 --token pt_... status 1002

It needs the Python standard library alone (urllib, no pip package): the system's python3
runs it. Exit 0 paid, 1 not paid, 2 refused, 3 not known yet (never pay again: ask
with `status`).
"""

from __future__ import annotations

import argparse
import http.client
import json
import ssl
import sys
import time
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Iterator
from typing import Any

#: errors after which the request may or may not have reached the terminal: ask again
LOST = (urllib.error.URLError, http.client.HTTPException, ConnectionError, TimeoutError)


class TerminalError(Exception):
    """The terminal refused the request (`{"error": {"code", "message"}}`): nothing happened."""

    def __init__(self, status: int, code: str, message: str) -> None:
        super().__init__(f"{status} {code}: {message}")
        self.status, self.code, self.message = status, code, message


def _refusal(status: int, raw: bytes) -> TerminalError:
    try:
        error = json.loads(raw).get("error", {})
    except ValueError:  # not the terminal's JSON (a proxy's page): its first words
        return TerminalError(status, "?", raw[:200].decode("utf-8", "replace"))
    return TerminalError(status, error.get("code", "?"), error.get("message", ""))


class TerminalClient:
    def __init__(self, url: str, token: str, *, timeout_s: float = 150.0, tries: int = 3,
                 verify: bool | str = True) -> None:
        if not url.startswith(("http://", "https://")):
            raise ValueError(f"the terminal's URL must start with http:// or https://: {url!r}")
        self.url = url.rstrip("/")
        self.timeout_s = timeout_s
        self.tries = tries
        self.headers = {"Authorization": f"Bearer {token}", "Accept": "application/json"}
        # verify: True (the system's CAs), a CA file's path, or False (a test counter only)
        self.tls = (ssl.create_default_context(cafile=verify) if isinstance(verify, str)
                    else ssl.create_default_context())
        if verify is False:
            self.tls.check_hostname = False
            self.tls.verify_mode = ssl.CERT_NONE

    def _open(self, method: str, path: str, *, params: dict[str, str] | None = None,
              body: dict[str, Any] | None = None, headers: dict[str, str] | None = None,
              timeout: float | None = None) -> Any:
        query = "?" + urllib.parse.urlencode(params) if params else ""
        data = None if body is None else json.dumps(body).encode("utf-8")
        request = urllib.request.Request(  # noqa: S310 (the terminal's own http(s) URL)
            self.url + path + query, data=data, method=method,
            headers={**self.headers, **(headers or {})})
        if data is not None:
            request.add_header("Content-Type", "application/json")
        try:
            return urllib.request.urlopen(  # noqa: S310 (the terminal's own http(s) URL)
                request, timeout=self.timeout_s if timeout is None else timeout,
                context=self.tls if self.url.startswith("https:") else None)
        except urllib.error.HTTPError as refused:  # an answer: never retried
            raise _refusal(refused.code, refused.read()) from None

    def _call(self, method: str, path: str, **kwargs: Any) -> dict[str, Any]:
        with self._open(method, path, **kwargs) as answer:
            raw = answer.read()
        data: dict[str, Any] = json.loads(raw)
        return data

    def _retried(self, method: str, path: str, body: dict[str, Any]) -> dict[str, Any]:
        """The same request again after a lost answer: safe, the terminal is idempotent on
        the body's reference."""
        for attempt in range(self.tries):
            try:
                return self._call(method, path, body=body)
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
        return self._call("POST", "/v1/payments/abort", body={"sale_ref": sale_ref})

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
            headers = {"Accept": "text/event-stream"}
            if last_id:
                headers["Last-Event-ID"] = last_id
            try:  # a refusal (token, scope) is raised as TerminalError: not worth retrying
                with self._open("GET", "/v1/events", headers=headers, timeout=60) as sse:
                    for raw in sse:
                        line = raw.decode("utf-8").rstrip("\r\n")
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
