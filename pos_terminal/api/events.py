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
from collections import deque
from collections.abc import AsyncIterator
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
                           "gateway_shown"})
_DISPLAY_FIELDS = ("type", "sale_ref", "app_trans_id", "amount", "state", "outcome", "paid",
                   "order_url")


def payment_fields(view: PaymentView) -> dict[str, Any]:
    return {"sale_ref": view.sale_ref, "app_trans_id": view.app_trans_id,
            "amount": view.amount, "state": view.state.value,
            "outcome": answers.of_payment(view).value, "needs_review": view.needs_review,
            "late": view.late, "abandoned": view.abandoned, "message": view.message,
            "provider": view.provider}


def event_json(event: CounterEvent, sale_refs: dict[int, str]) -> dict[str, Any] | None:
    """The event as the API sends it; None for the ones that concern only the cashier's
    screen (receipts printing, the pending count...)."""
    if isinstance(event, AwaitingCode):
        return {"type": "awaiting_code", "sale_ref": event.sale_ref, "amount": event.amount}
    if isinstance(event, PaymentStarted):
        if event.sale_ref is not None:
            sale_refs[event.sale] = event.sale_ref
        return {"type": "payment_started", "sale_ref": event.sale_ref, "amount": event.amount,
                "code": event.masked_code, "source": event.source}
    if isinstance(event, (PaymentProgress, PaymentUnresolved)):
        kind = "payment_progress" if isinstance(event, PaymentProgress) else "payment_unresolved"
        return {"type": kind, **payment_fields(event.view)}
    if isinstance(event, PaymentSettled):
        return {"type": "payment_settled", **payment_fields(event.view), "paid": event.paid,
                "via": event.via}
    if isinstance(event, PaymentError):
        sale_ref = event.view.sale_ref if event.view is not None else (
            sale_refs.get(event.sale) if event.sale is not None else None)
        return {"type": "payment_error", "sale_ref": sale_ref, "app_trans_id":
                event.app_trans_id, "amount": event.amount, "message": event.message,
                "state": event.view.state.value if event.view is not None else None,
                "provider": event.view.provider if event.view is not None else None}
    if isinstance(event, RefundSettled):
        r = event.refund
        return {"type": "refund_settled", "refund_ref": r.refund_ref, "m_refund_id":
                r.m_refund_id, "app_trans_id": r.app_trans_id, "amount": r.amount,
                "state": r.state.value, "refunded": event.refunded, "auto": r.auto}
    if isinstance(event, GatewayShown):
        return {"type": "gateway_shown", **payment_fields(event.view),
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


class EventFeed:
    """One bus subscription, numbered events, any number of SSE listeners."""

    def __init__(self, bus: EventBus, keep: int = KEEP) -> None:
        self._bus = bus
        self._lock = threading.Lock()
        self._next = 1
        self._kept: deque[Item] = deque(maxlen=keep)
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
            listeners = list(self._listeners)
        for listener in listeners:
            with contextlib.suppress(RuntimeError):  # its loop has closed
                listener.loop.call_soon_threadsafe(listener.offer, item)

    async def stream(self, last_id: int | None = None) -> AsyncIterator[Item]:
        """The events after `last_id` that are still kept, then every new one until the feed
        closes (the server stops)."""
        listener = _Listener(asyncio.get_running_loop())
        with self._lock:
            if self._closed:
                return
            backlog = [i for i in self._kept if last_id is not None and i[0] > last_id]
            self._listeners.add(listener)
        try:
            for kept in backlog:
                yield kept
            seen = backlog[-1][0] if backlog else (last_id or 0)
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
