"""The counter's events as Server-Sent Events: `GET /v1/events` for the POS, and the customer
display's narrower stream.

One subscription to the counter's bus feeds every listener. Each event gets a number (the SSE
`id`); the last 500 are kept, so a POS that reconnects with `Last-Event-ID` misses nothing that
recent. Payment events carry the payment's `sale_ref` and `app_trans_id`; codes appear only
masked, as on the bus."""

from __future__ import annotations

import asyncio
import contextlib
import threading
import time
from collections import deque
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass, field
from typing import Any

from pos_terminal.counter import (
    AwaitingCode,
    CodeIgnored,
    CodeRead,
    CounterEvent,
    EventBus,
    GatewayShown,
    PaymentError,
    PaymentProgress,
    PaymentSettled,
    PaymentStarted,
    PaymentUnresolved,
    RefundSettled,
    SaleCancelled,
    ScannerStatus,
    ServiceStatus,
    answers,
)
from pos_terminal.counter.types import PaymentView

KEEP = 500
QUEUE = 1000

#: what the customer display receives (no codes, no messages meant for the cashier)
DISPLAY_TYPES = frozenset({"awaiting_code", "payment_started", "payment_progress",
                           "payment_unresolved", "payment_settled", "payment_error",
                           "gateway_shown", "sale_cancelled"})
#: `sale`: the counter's number of the sale, which ties together the events of a sale made on
#: the cashier's screen (it has no sale_ref, and no app_trans_id until it is recorded)
_DISPLAY_FIELDS = ("type", "sale", "sale_ref", "app_trans_id", "amount", "state", "outcome",
                   "paid", "late", "order_url", "amount_paid", "amount_missing")


_PAYMENT_FIELDS = ("sale_ref", "app_trans_id", "amount", "state", "outcome", "paid", "money",
                   "needs_review", "late", "abandoned", "message", "provider")


def payment_fields(view: PaymentView) -> dict[str, Any]:
    """What an event says of a payment: its latest state in the one vocabulary (the same
    `outcome`, `paid`, `late` and `money` as the answers; a shop QR paid in part: what arrived
    and what is missing)."""
    data = answers.payment_answer(view)
    return {**{k: data[k] for k in _PAYMENT_FIELDS}, **answers.part_paid(view)}


def event_json(event: CounterEvent, sale_refs: dict[int, str]) -> dict[str, Any] | None:
    """The event as the API sends it; None for the ones that concern only the cashier's
    screen (receipts printing, the pending count...)."""
    if isinstance(event, AwaitingCode):
        return {"type": "awaiting_code", "sale": event.sale, "sale_ref": event.sale_ref,
                "amount": event.amount}
    if isinstance(event, SaleCancelled):
        return {"type": "sale_cancelled", "sale": event.sale, "sale_ref": event.sale_ref,
                "app_trans_id": event.app_trans_id, "amount": event.amount}
    if isinstance(event, PaymentStarted):
        if event.sale_ref is not None:
            sale_refs[event.sale] = event.sale_ref
        return {"type": "payment_started", "sale": event.sale, "sale_ref": event.sale_ref,
                "amount": event.amount, "code": event.masked_code, "source": event.source}
    if isinstance(event, (PaymentProgress, PaymentUnresolved)):
        kind = "payment_progress" if isinstance(event, PaymentProgress) else "payment_unresolved"
        return {"type": kind, "sale": event.sale, **payment_fields(event.view)}
    if isinstance(event, PaymentSettled):
        return {"type": "payment_settled", "sale": event.sale, **payment_fields(event.view),
                "via": event.via}
    if isinstance(event, PaymentError):
        sale_ref = event.view.sale_ref if event.view is not None else (
            sale_refs.get(event.sale) if event.sale is not None else None)
        return {"type": "payment_error", "sale": event.sale, "sale_ref": sale_ref,
                "app_trans_id": event.app_trans_id, "amount": event.amount,
                "message": event.message,
                "state": event.view.state.value if event.view is not None else None,
                "provider": event.view.provider if event.view is not None else None}
    if isinstance(event, RefundSettled):
        r = event.refund
        return {"type": "refund_settled", "refund_ref": r.refund_ref, "m_refund_id":
                r.m_refund_id, "app_trans_id": r.app_trans_id, "amount": r.amount,
                "state": r.state.value, "outcome": answers.of_refund(r).value,
                "refunded": event.refunded, "auto": r.auto}
    if isinstance(event, GatewayShown):
        return {"type": "gateway_shown", "sale": event.sale, **payment_fields(event.view),
                "order_url": event.view.order_url}
    if isinstance(event, (CodeRead, CodeIgnored)):
        return {"type": "code_read" if isinstance(event, CodeRead) else "code_ignored",
                "code": event.masked, "source": event.source}
    if isinstance(event, ScannerStatus):
        return {"type": "scanner_status", "spec": event.spec, "state": event.state,
                "detail": event.detail, "lost": event.lost}
    if isinstance(event, ServiceStatus):
        return {"type": "service_status", "reachable": event.reachable, "state": event.state}
    return None


def for_display(data: dict[str, Any]) -> dict[str, Any] | None:
    if data.get("type") not in DISPLAY_TYPES:
        return None
    return {k: data[k] for k in _DISPLAY_FIELDS if k in data}


Item = tuple[int, dict[str, Any]]


@dataclass(eq=False)
class _Listener:
    loop: asyncio.AbstractEventLoop
    queue: asyncio.Queue[Item | None] = field(default_factory=lambda: asyncio.Queue(QUEUE))

    def offer(self, item: Item | None) -> None:
        """An event, or None: the feed is closing (the stream ends)."""
        if item is None:
            while not self.queue.empty():  # make room: the end must get through
                self.queue.get_nowait()
        with contextlib.suppress(asyncio.QueueFull):  # a client that reads nothing loses events
            self.queue.put_nowait(item)


#: the ids of one run of the stream: run * RUN_SPAN + 1, + 2... (safe integers in JavaScript
#: for millions of runs of a billion events each)
RUN_SPAN = 10**9
#: a POS that resumes from a run older than the last one gets the payments settled since
REPLAY_WINDOW_MS = 24 * 3600 * 1000
REPLAY_MAX = 1000

#: the payments that became final since a time (ms), oldest first: what a reset replays
SettledSince = Callable[[int], list[PaymentView]]


class EventFeed:
    """One bus subscription, numbered events, any number of SSE listeners.

    Ids keep increasing across restarts: each run of the feed starts above the last one's (its
    run number comes from the journal). A POS that resumes from an id this run cannot serve
    (an earlier run's, one too old to be kept, or one never sent) first gets `stream_reset`,
    then `payment_settled` again (`replayed: true`) for every payment that became final since
    the run of its id began: it never misses a settled payment, and knows to look up what it
    still waits for by sale_ref."""

    def __init__(self, bus: EventBus, keep: int = KEEP, *, run: int = 1,
                 run_started_ms: int | None = None, previous_run_started_ms: int | None = None,
                 settled_since: SettledSince | None = None) -> None:
        self._bus = bus
        self._lock = threading.Lock()
        self._run = run
        self._base = run * RUN_SPAN
        self._next = self._base + 1
        self._started_ms = int(time.time() * 1000) if run_started_ms is None else run_started_ms
        self._previous_started_ms = previous_run_started_ms
        self._settled_since = settled_since
        self._kept: deque[Item] = deque(maxlen=keep)
        self._kept_at: deque[float] = deque(maxlen=keep)  # each kept event's monotonic time
        self._closed = False
        self._listeners: set[_Listener] = set()
        self._sale_refs: dict[int, str] = {}
        self._sub = bus.subscribe(CounterEvent, self._on_event, name="terminal api events")

    def _on_event(self, event: CounterEvent) -> None:
        data = event_json(event, self._sale_refs)
        if data is None:
            return
        with self._lock:
            item = (self._next, data)
            self._next += 1
            self._kept.append(item)
            self._kept_at.append(time.monotonic())
            listeners = list(self._listeners)
        for listener in listeners:
            with contextlib.suppress(RuntimeError):  # its loop has closed
                listener.loop.call_soon_threadsafe(listener.offer, item)

    def _servable(self, last_id: int) -> bool:
        """Whether every event after `last_id` is still kept (and `last_id` was ever sent)."""
        newest = self._next - 1
        if not self._base <= last_id <= newest:
            return False
        return not self._kept or last_id >= self._kept[0][0] - 1

    def _missed_since_ms(self, last_id: int) -> tuple[str, int]:
        run = last_id // RUN_SPAN
        floor = int(time.time() * 1000) - REPLAY_WINDOW_MS
        if run == self._run:
            return ("too_old" if last_id < self._next else "unknown_id"), self._started_ms
        if run == self._run - 1 and self._previous_started_ms is not None:
            return "restarted", self._previous_started_ms
        return ("restarted" if run < self._run else "unknown_id"), floor

    def _reset(self, last_id: int, newest: int) -> list[Item]:
        reason, since_ms = self._missed_since_ms(last_id)
        items: list[Item] = [(newest, {"type": "stream_reset", "reason": reason,
                                       "since_ms": since_ms})]
        if self._settled_since is not None:
            views = self._settled_since(since_ms)[-REPLAY_MAX:]
            items += [(newest, {"type": "payment_settled", **payment_fields(view),
                                "via": "replay",
                                "replayed": True}) for view in views]
        return items

    def recent(self) -> tuple[list[tuple[int, dict[str, Any], int]], int]:
        """The kept events with their age (ms), and the newest id: stream from it to miss
        nothing after them (what the customer display replays when it connects)."""
        with self._lock:
            now = time.monotonic()
            aged = [(number, data, int((now - at) * 1000))
                    for (number, data), at in zip(self._kept, self._kept_at, strict=True)]
            return aged, self._next - 1

    async def stream(self, last_id: int | None = None) -> AsyncIterator[Item]:
        """The events after `last_id` that are still kept (or, if they are not, a reset and
        the payments settled since), then every new one until the feed closes."""
        listener = _Listener(asyncio.get_running_loop())
        with self._lock:
            if self._closed:
                return
            newest = self._next - 1
            servable = last_id is None or self._servable(last_id)
            backlog = [i for i in self._kept if last_id is not None and i[0] > last_id]
            self._listeners.add(listener)
        try:
            if not servable and last_id is not None:
                backlog = await asyncio.to_thread(self._reset, last_id, newest)
            for kept in backlog:
                yield kept
            seen = max(newest, backlog[-1][0]) if backlog else (
                last_id if servable and last_id is not None else newest)
            while (item := await listener.queue.get()) is not None:
                if item[0] > seen:
                    seen = item[0]
                    yield item
        finally:
            with self._lock:
                self._listeners.discard(listener)

    @property
    def listening(self) -> int:
        """How many streams are open."""
        with self._lock:
            return len(self._listeners)

    def close(self) -> None:
        """No more events: every open stream ends (so the server can stop at once)."""
        with self._lock:
            if self._closed:
                return
            self._closed = True
            listeners = list(self._listeners)
        for listener in listeners:
            with contextlib.suppress(RuntimeError):
                listener.loop.call_soon_threadsafe(listener.offer, None)
        self._bus.unsubscribe(self._sub)
