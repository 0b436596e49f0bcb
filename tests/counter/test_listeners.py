"""The counter's events and its bus, with real payments against the emulator and a real journal:
a listener is one module and one line of wiring; listeners never break or hold up a payment."""

from __future__ import annotations

import queue
import threading
from pathlib import Path
from typing import Any

from pos_terminal.config import Settings
from pos_terminal.counter import (
    CodeRead,
    Counter,
    CounterEvent,
    ListenerFailed,
    PaymentProgress,
    PaymentSettled,
    PaymentStarted,
    RefundSettled,
    open_counter,
)
from pos_terminal.counter.listeners import LISTENERS
from pos_terminal.counter.types import PaymentState
from tests.checkout.conftest import wallet_code
from tests.counter import settled_recorder

WAIT_S = 20.0


def test_a_new_listener_is_one_module_and_one_line_of_wiring(settings: Settings,
                                                             emulator: Any) -> None:
    # The one line of wiring: the module's name next to the listeners every counter gets.
    with open_counter(settings, listeners=(*LISTENERS, "tests.counter.settled_recorder")) as co:
        view = co.payments.pay(12_000, wallet_code(emulator, "an"), description="Tea")
        event = settled_recorder.SETTLED.get(timeout=WAIT_S)
        assert event.view == view == co.payments.get(view.app_trans_id)
        assert event.paid and event.via == "pay" and event.sale is not None
        assert event.view.state is PaymentState.SUCCEEDED and event.view.amount == 12_000


def _recorder(co: Counter, *types: type[CounterEvent]) -> queue.Queue[Any]:
    seen: queue.Queue[Any] = queue.Queue()
    co.bus.subscribe(types or (CounterEvent,), seen.put, name="test recorder")
    return seen


def test_a_failing_listener_is_isolated_and_reported(settings: Settings, emulator: Any) -> None:
    with Counter(settings) as co:
        def broken(_event: PaymentSettled) -> None:
            raise RuntimeError("printer on fire")

        co.bus.subscribe(PaymentSettled, broken, name="broken printer")
        failures = _recorder(co, ListenerFailed)
        view = co.payments.pay(15_000, wallet_code(emulator, "an"))
        assert view.state is PaymentState.SUCCEEDED
        failure = failures.get(timeout=WAIT_S)
        assert failure == ListenerFailed("broken printer", "PaymentSettled", "printer on fire")
        assert co.payments.get(view.app_trans_id).state is PaymentState.SUCCEEDED


def test_a_payment_never_waits_for_a_listener(settings: Settings, emulator: Any) -> None:
    entered, release, finished = threading.Event(), threading.Event(), threading.Event()

    def slow(_event: PaymentStarted) -> None:
        entered.set()
        release.wait(WAIT_S)
        finished.set()

    with Counter(settings) as co:
        co.bus.subscribe(PaymentStarted, slow, name="slow display")
        view = co.payments.pay(16_000, wallet_code(emulator, "an"))
        # The payment settled while the listener of its very first event was still busy.
        assert view.state is PaymentState.SUCCEEDED
        assert entered.wait(WAIT_S) and not finished.is_set()
        release.set()


def test_events_of_a_slow_payment_in_order_with_the_code_masked(settings: Settings,
                                                                 emulator: Any) -> None:
    code = wallet_code(emulator, "binh")  # processing, then paid
    with Counter(settings) as co:
        seen = _recorder(co)
        scanned = co.accept_code(code, "camera:0")
        assert scanned is not None
        view = co.payments.pay(30_000, scanned, sale=co.payments.start_sale())
        assert co.bus.drain(WAIT_S)
        events = []
        while not seen.empty():
            events.append(seen.get_nowait())
    kinds = [type(e).__name__ for e in events]
    assert kinds[:2] == ["CodeRead", "PaymentStarted"] and kinds[-1] == "PaymentSettled"
    assert set(kinds[2:-1]) == {"PaymentProgress"}
    assert events[0] == CodeRead("••••" + code[-4:], "camera:0")
    progress = [e for e in events if isinstance(e, PaymentProgress)]
    assert PaymentState.PROCESSING in {e.view.state for e in progress}
    assert events[-1].view == view and events[-1].sale == events[1].sale
    assert not any(code in repr(e) for e in events)


def test_a_wedge_read_that_is_not_a_payment_code_is_ignored(settings: Settings) -> None:
    with Counter(settings) as co:
        seen = _recorder(co)
        assert co.accept_code("8934588012345", "wedge") is None  # a product's EAN-13
        assert co.bus.drain(WAIT_S)
        [event] = [seen.get_nowait() for _ in range(seen.qsize())]
    assert type(event).__name__ == "CodeIgnored" and event.masked == "••••2345"


def test_refund_settled_is_published(settings: Settings, emulator: Any) -> None:
    with Counter(settings) as co:
        refunds = _recorder(co, RefundSettled)
        paid = co.payments.pay(20_000, wallet_code(emulator, "an"))
        refund = co.refunds.create(paid.app_trans_id, 5_000)
        event = refunds.get(timeout=WAIT_S)
    assert event.refunded and event.via == "refund" and event.refund == refund


def test_receipt_printer_listener_prints_after_a_settled_payment(settings: Settings,
                                                                 emulator: Any,
                                                                 tmp_path: Path) -> None:
    target = tmp_path / "printer.bin"
    auto = settings.replace_section("printer", auto=True, target=f"file:{target}")
    with open_counter(auto) as co:
        view = co.payments.pay(25_000, wallet_code(emulator, "an"))
        assert co.bus.drain(WAIT_S)
        assert target.stat().st_size > 0
        assert co.checkout.journal.receipt_prints("payment", view.app_trans_id) == 1
        declined = co.payments.pay(26_000, wallet_code(emulator, "dung"))
        assert declined.state is PaymentState.FAILED
        assert co.bus.drain(WAIT_S)
        assert co.checkout.journal.receipt_prints("payment", declined.app_trans_id) == 0
