"""A small, thread-safe publish/subscribe bus for counter events.

Every subscription has its own queue and delivery thread: `publish` only enqueues, so a payment
never waits for a listener, a slow listener (a printer) never delays another (the screen), and
each listener sees its events in the order they were published. An exception in a listener is
logged and reported as a ListenerFailed event to the others; it never reaches the publisher."""

from __future__ import annotations

import logging
import queue
import threading
from collections.abc import Callable
from typing import Any, TypeVar

from pos_terminal.counter.events import CounterEvent, ListenerFailed

log = logging.getLogger(__name__)

E = TypeVar("E", bound=CounterEvent)
Handler = Callable[[Any], None]
_STOP = object()


class Subscription:
    """One listener: the event types it wants, its queue and its delivery thread."""

    def __init__(self, bus: EventBus, types: tuple[type[CounterEvent], ...], handler: Handler,
                 name: str) -> None:
        self.bus = bus
        self.types = types
        self.handler = handler
        self.name = name
        self._queue: queue.Queue[object] = queue.Queue()
        self._thread = threading.Thread(target=self._deliver, name=f"counter-listener:{name}",
                                        daemon=True)
        self._thread.start()

    def wants(self, event: CounterEvent) -> bool:
        return isinstance(event, self.types)

    def put(self, event: object) -> None:
        self._queue.put(event)

    def _deliver(self) -> None:
        while True:
            event = self._queue.get()
            try:
                if event is _STOP:
                    return
                if isinstance(event, threading.Event):  # a drain marker
                    event.set()
                    continue
                self.handler(event)
            except Exception as exc:
                log.exception("counter listener %s failed on %s", self.name,
                              type(event).__name__)
                if not isinstance(event, ListenerFailed):
                    self.bus.publish(ListenerFailed(self.name, type(event).__name__,
                                                    str(exc) or type(exc).__name__),
                                     skip=self)

    def drain(self, timeout_s: float) -> bool:
        """Wait (at most `timeout_s`) until every event published so far was handled."""
        if not self._thread.is_alive() or self._thread is threading.current_thread():
            return True
        marker = threading.Event()
        self._queue.put(marker)
        return marker.wait(timeout_s)

    def stop(self, timeout_s: float) -> None:
        self._queue.put(_STOP)
        if self._thread is not threading.current_thread():
            self._thread.join(timeout_s)


class EventBus:
    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._subscriptions: list[Subscription] = []

    def subscribe(self, types: type[CounterEvent] | tuple[type[CounterEvent], ...],
                  handler: Handler, *, name: str | None = None) -> Subscription:
        """Call `handler(event)` for every published event of `types` (on its own thread)."""
        wanted = types if isinstance(types, tuple) else (types,)
        label = name or str(getattr(handler, "__qualname__", None) or repr(handler))
        sub = Subscription(self, wanted, handler, label)
        with self._lock:
            self._subscriptions.append(sub)
        return sub

    def unsubscribe(self, sub: Subscription, timeout_s: float = 1.0) -> None:
        with self._lock:
            if sub in self._subscriptions:
                self._subscriptions.remove(sub)
        sub.stop(timeout_s)

    def publish(self, event: CounterEvent, *, skip: Subscription | None = None) -> None:
        with self._lock:
            targets = [s for s in self._subscriptions if s is not skip and s.wants(event)]
        for sub in targets:
            sub.put(event)

    def drain(self, timeout_s: float = 5.0) -> bool:
        """Wait until every listener handled what was published so far (a one-shot command
        before it prints its answer and exits); False if one is still busy after `timeout_s`."""
        with self._lock:
            subs = list(self._subscriptions)
        return all([sub.drain(timeout_s) for sub in subs])

    def close(self, timeout_s: float = 2.0) -> None:
        """Deliver what is queued, then stop every delivery thread."""
        with self._lock:
            subs, self._subscriptions = self._subscriptions, []
        for sub in subs:
            sub.stop(timeout_s)
