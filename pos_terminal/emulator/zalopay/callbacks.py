"""Server-to-server callbacks: the emulator POSTs a signed payment result to the merchant.

Written from the notes ("Server-to-server callback"), not from the client: the body is JSON
``{"data": "<json string>", "mac": HMAC-SHA256(key2, data), "type": 1}``, sent on success only.
The merchant answers ``{"return_code": 1}`` (accepted), ``-1`` (bad mac: not retried) or ``0``
(retry). A transport failure, an HTTP status other than 200, an unreadable answer or any other
return code is retried too. The service retries up to 3 times; when is not documented, so the
delays between attempts are ``[emulator] callback_retry_delays_s`` (default 5, 15, 60 s).
Every attempt is kept and shown by ``GET /_emulator/callbacks``.
"""

from __future__ import annotations

import asyncio
import json
import logging
import threading
import time
from dataclasses import asdict, dataclass, field
from typing import Any, Literal
from urllib.parse import urlsplit

import aiohttp

from pos_terminal.emulator.guard import callback_allowed
from pos_terminal.emulator.options import DEFAULT_RETRY_DELAYS_S
from pos_terminal.emulator.zalopay import wire
from pos_terminal.emulator.zalopay.state import Order
from pos_terminal.emulator.zalopay.verify import hmac_sha256_hex

CALLBACK_TYPE_ORDER = 1
#: skipped: the order's callback_url names a host outside [emulator] callback_hosts; the order
#: was accepted (as the real service would) and that host is never called
log = logging.getLogger(__name__)

DeliveryState = Literal["sending", "delivered", "rejected", "failed", "skipped"]

# Field names of the callback's data, per generation (the request names of each generation).
_DATA_NAMES: dict[wire.Generation, tuple[str, ...]] = {
    "v2": ("app_id", "app_trans_id", "app_time", "app_user", "amount", "embed_data", "item",
           "zp_trans_id", "server_time", "channel", "merchant_user_id", "user_fee_amount",
           "discount_amount"),
    "v001": ("appid", "apptransid", "apptime", "appuser", "amount", "embeddata", "item",
             "zptransid", "servertime", "channel", "merchantuserid", "userfeeamount",
             "discountamount"),
}


def callback_data(order: Order, app_id: int, now: float) -> str:
    """The ``data`` string: the order's own values, compact JSON (what the mac covers)."""
    values: list[object] = [
        app_id, order.app_trans_id, order.app_time, order.app_user, order.amount,
        order.embed_text, order.item_text, order.zp_trans_id, int(now * 1000),
        order.pmcid if order.pmcid is not None else 38, f"emu-{order.wallet_id or ''}", 0, 0]
    names = _DATA_NAMES[order.generation]
    return json.dumps(dict(zip(names, values, strict=True)), ensure_ascii=False,
                      separators=(",", ":"))


def envelope(data: str, key2: str) -> dict[str, object]:
    return {"data": data, "mac": hmac_sha256_hex(key2, data), "type": CALLBACK_TYPE_ORDER}


@dataclass
class Attempt:
    number: int
    at_ms: int
    at: str                     # the same time, ISO 8601 UTC, for people reading the control API
    http_status: int | None     # None: no HTTP answer (see error)
    return_code: int | None     # the merchant's return_code, when its answer was readable
    error: str
    outcome: Literal["accepted", "rejected", "retry"]


@dataclass
class Delivery:
    app_trans_id: str
    url: str
    body: dict[str, object]
    state: DeliveryState = "sending"
    attempts: list[Attempt] = field(default_factory=list)
    next_attempt_at_ms: int | None = None
    note: str = ""

    def to_json(self) -> dict[str, Any]:
        return asdict(self)


class CallbackSender:
    """Sends callbacks on the emulator's event loop and remembers every attempt."""

    def __init__(self, key2: str, retry_delays_s: tuple[float, ...] = DEFAULT_RETRY_DELAYS_S,
                 timeout_s: float = 5.0,
                 hosts: tuple[str, ...] = ("127.0.0.1", "::1", "localhost")) -> None:
        self.key2 = key2
        self.hosts = hosts
        self.retry_delays_s = retry_delays_s
        self.timeout_s = timeout_s
        self._lock = threading.Lock()
        self._deliveries: list[Delivery] = []
        self._tasks: set[asyncio.Task[None]] = set()

    def schedule(self, order: Order, app_id: int, url: str) -> Delivery:
        """Start delivering the callback of a paid ``order`` (call on the event loop)."""
        delivery = Delivery(order.app_trans_id, url,
                            envelope(callback_data(order, app_id, time.time()), self.key2))
        if not callback_allowed(url, self.hosts):
            host = urlsplit(url).hostname or "?"
            delivery.state = "skipped"
            delivery.note = (f"not sent: {host} is not one of [emulator] callback_hosts "
                             f"{list(self.hosts)}; the order was accepted as the real service "
                             "accepts it")
            with self._lock:
                self._deliveries.append(delivery)
            # the host only: a callback URL may carry a merchant's secret in its query
            log.warning("callback of %s not sent: host %s is not in [emulator] callback_hosts",
                        order.app_trans_id, host)
            return delivery
        with self._lock:
            self._deliveries.append(delivery)
        task = asyncio.get_running_loop().create_task(self._deliver(delivery))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)
        return delivery

    def deliveries(self, app_trans_id: str | None = None) -> list[dict[str, Any]]:
        with self._lock:
            return [d.to_json() for d in self._deliveries
                    if app_trans_id is None or d.app_trans_id == app_trans_id]

    def reset(self) -> None:
        """Forget every delivery and stop the ones still retrying."""
        for task in list(self._tasks):
            task.get_loop().call_soon_threadsafe(task.cancel)
        with self._lock:
            self._deliveries.clear()

    async def close(self) -> None:
        for task in list(self._tasks):
            task.cancel()
        if self._tasks:
            await asyncio.gather(*self._tasks, return_exceptions=True)

    async def _deliver(self, delivery: Delivery) -> None:
        timeout = aiohttp.ClientTimeout(total=self.timeout_s)
        body = json.dumps(delivery.body, ensure_ascii=False).encode("utf-8")
        async with aiohttp.ClientSession(timeout=timeout) as session:
            for number in range(1, len(self.retry_delays_s) + 2):
                attempt = await self._attempt(session, delivery.url, body, number)
                with self._lock:
                    delivery.attempts.append(attempt)
                    if attempt.outcome != "retry":
                        delivery.state = ("delivered" if attempt.outcome == "accepted"
                                          else "rejected")
                        delivery.next_attempt_at_ms = None
                        return
                    if number > len(self.retry_delays_s):
                        delivery.state = "failed"
                        delivery.next_attempt_at_ms = None
                        return
                    delay = self.retry_delays_s[number - 1]
                    delivery.next_attempt_at_ms = int((time.time() + delay) * 1000)
                await asyncio.sleep(delay)

    @staticmethod
    async def _attempt(session: aiohttp.ClientSession, url: str, body: bytes,
                       number: int) -> Attempt:
        now = time.time()
        stamp = (time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(now))
                 + f".{int(now % 1 * 1000):03d}Z")

        def made(status: int | None, code: int | None, error: str,
                 outcome: Literal["accepted", "rejected", "retry"]) -> Attempt:
            return Attempt(number, int(now * 1000), stamp, status, code, error, outcome)

        try:
            async with session.post(url, data=body, allow_redirects=False,  # no hop elsewhere
                                    headers={"Content-Type": "application/json"}) as response:
                text = await response.text(errors="replace")
                status = response.status
        except (TimeoutError, aiohttp.ClientError, OSError) as exc:
            return made(None, None, f"{type(exc).__name__}: {exc}".rstrip(": "), "retry")
        if status != 200:
            return made(status, None, f"HTTP {status}", "retry")
        try:
            answer = json.loads(text)
        except ValueError:
            return made(status, None, "the answer is not JSON", "retry")
        code = answer.get("return_code") if isinstance(answer, dict) else None
        if not isinstance(code, int) or isinstance(code, bool):
            return made(status, None, "the answer has no whole-number return_code", "retry")
        if code == 1:
            return made(status, code, "", "accepted")
        if code == -1:
            return made(status, code, "the merchant says the mac is wrong", "rejected")
        return made(status, code, "the merchant asks for a retry", "retry")
