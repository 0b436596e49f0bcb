"""The event bus on its own: every listener sees its events in order, on its own thread; a stuck
listener holds up neither the publisher nor the others; drain says when one is still busy."""

from __future__ import annotations

import threading

from pos_terminal.counter import EventBus, PendingCount, ServiceStatus


def test_each_listener_gets_its_types_in_order_and_a_stuck_one_blocks_nobody() -> None:
    bus = EventBus()
    counts: list[int | None] = []
    reach: list[bool] = []
    release = threading.Event()
    others = [bus.subscribe(PendingCount, lambda e: counts.append(e.count), name="counts"),
              bus.subscribe(ServiceStatus, lambda e: reach.append(e.reachable), name="reach")]
    stuck = bus.subscribe((PendingCount, ServiceStatus), lambda _e: release.wait(30),
                          name="stuck")
    for n in range(50):
        bus.publish(PendingCount(n))
    bus.publish(ServiceStatus(False))
    try:
        assert not stuck.drain(0.2)  # still busy with the first event
        assert all(sub.drain(10) for sub in others)
        assert counts == list(range(50)) and reach == [False]
    finally:
        release.set()
    assert bus.drain(10)
    bus.close()
