"""Every key from the terminal, in the order typed: first through the keyboard-wedge detector
(tui/wedge.py), then to the UI one at a time.

A key is delivered only once the key before it has been handled: when it reached the App (its
binding has run) or when the widget it went to stopped it (a KeyDelivered posted right behind
it comes back). So a key that closes a screen (a digit on Result, Enter on a dialog) has done
so before the next key is delivered, and the next key lands on whatever screen is on top then;
a key is never delivered to a screen on its way out, nor to one that F8 is drawing again (it
waits until the screen is whole, and the answer the screen got meanwhile applied), and never
overtakes the one before it.

A key is never delivered to a screen still being pushed either: a key that opens a screen or a
dialog (F on a payment's detail) has put it on top of the stack before it is composed, and the
keys after it wait until it is mounted (Textual's own `is_mounted`, set once its widgets are
composed and its on_mount has run) and the focus it asked for there has been given. A fast
cashier's Enter lands in the dialog's field, however long the machine takes to compose it.

A key that closes a Result hands the next sale to the Sale screen through two screens' answers
(Result to Pay, Pay to Sale), each a message of its own: the Result is gone before Sale has its
answer. Until Sale has taken it (`handover`, then `handed_over`), the keys after it wait, or a
digit typed meanwhile would land in the amount that the answer then replaces (issue 32: `234567`
became `24.567 ₫`)."""

from __future__ import annotations

import time
from collections import deque
from collections.abc import Awaitable, Callable
from typing import Any

from textual import events
from textual.app import App
from textual.message import Message
from textual.widget import Widget

from pos_terminal.tui.wedge import KeyWedge

SETTLE_POLL_S = 0.005
HANDOVER_MAX_S = 2.0  # an answer that never arrives holds the keys no longer than this


class KeyDelivered(Message):
    """Posted to the widget a key went to, right behind the key: it bubbles up to the App
    after the key was handled there (or stopped on its way)."""

    def __init__(self, key: events.Key, echo: bool = False) -> None:
        super().__init__()
        self.key = key
        self.echo = echo  # the second one, behind what handling the key posted


class WedgeFlush(Message):
    """Queued behind any keys already waiting, so a burst is never cut by a busy loop."""

    def __init__(self, keys_seen: int) -> None:
        super().__init__()
        self.keys_seen = keys_seen


class KeyRouter:
    """Owns the key order. The App calls `take` for each key from the driver, `delivered` for
    KeyDelivered, `reached_app` from its on_key, `flush` for WedgeFlush."""

    def __init__(self, app: App[Any], wedge: KeyWedge,
                 deliver: Callable[[events.Key], Awaitable[None]],
                 scanned: Callable[[str], None],
                 hold: Callable[[], bool] = lambda: False,
                 is_scan: Callable[[str], bool] = lambda _text: True) -> None:
        self._app = app
        self._hold = hold  # the screen on top cannot take a key yet (F8 draws it again)
        self._held = False  # a retry of the queue is set
        self._wedge = wedge
        self._deliver_to_ui = deliver
        self._scanned = scanned
        self._is_scan = is_scan  # a burst read as a scan here (else it was typed: its keys go on)
        self.seen = 0                      # keys taken from the terminal so far
        self._ready: deque[events.Key] = deque()  # decided as typing, waiting their turn
        self._unsettled: events.Key | None = None  # delivered, not yet handled
        self._target: Widget | None = None
        self._pumping = False
        self.replaying: set[int] = set()  # ids of keys the router itself hands to the App
        self._handover_until: float | None = None  # an answer on its way to a screen below

    def handover(self) -> None:
        """A screen closed with an answer for one below it: the keys after wait for it."""
        self._handover_until = time.monotonic() + HANDOVER_MAX_S

    def handed_over(self) -> None:
        """The answer has been taken: the keys typed after it go on, to the screen on top."""
        if self._handover_until is not None:
            self._handover_until = None
            self._app.call_later(self._pump)

    def _waiting_for_answer(self) -> bool:
        until = self._handover_until
        if until is not None and time.monotonic() > until:
            self._handover_until = until = None
        return until is not None

    @property
    def quiet(self) -> bool:
        """Nothing held back, queued or on its way: every key taken has been handled."""
        return not self._ready and self._unsettled is None and not self._wedge.holding

    def owns(self, event: events.Key) -> bool:
        return id(event) in self.replaying

    async def take(self, event: events.Key) -> None:
        """A key from the terminal: through the wedge, then queued for the UI."""
        self.seen += 1
        # event.time is when the driver read the key: the scanner's own rhythm, not ours.
        decision = self._wedge.feed(event, event.time)
        self._ready.extend(decision.release)
        if decision.scan is not None:
            if self._is_scan(decision.scan):
                self._scanned(decision.scan)
            else:  # a fast typist's burst into a text field: typing, every key delivered
                self._ready.extend(decision.burst)
        if self._wedge.holding:
            seen = self.seen
            self._app.set_timer(self._wedge.threshold_s * 1.5,
                                lambda: self._app.post_message(WedgeFlush(seen)))
        if decision.passthrough:
            self._ready.append(event)
        await self._pump()

    async def flush(self, message: WedgeFlush) -> None:
        if message.keys_seen != self.seen:
            return  # another key came in since: its own timer decides
        self._ready.extend(self._wedge.flush_due(time.monotonic()))
        await self._pump()

    async def delivered(self, message: KeyDelivered) -> None:
        if message.key is not self._unsettled:
            return
        target = self._target
        if not message.echo and target is not None and target.is_attached:
            # The key has been handled; what its handling posted to the same widget (Enter
            # in an Input: Submitted, which the dialog answers) is queued there now. A second
            # one posted behind it comes back after that has bubbled up and been answered.
            target.post_message(KeyDelivered(message.key, echo=True))
            return
        await self._settle()

    def reached_app(self, event: events.Key) -> None:
        # The App's on_key runs before its own key handling (bindings); the callback after.
        if event is self._unsettled:
            self._app.call_later(self._settle_if, event)

    async def _settle_if(self, event: events.Key) -> None:
        if event is self._unsettled:
            await self.delivered(KeyDelivered(event))

    async def _settle(self) -> None:
        self._unsettled = None
        await self._pump()

    async def _pump(self) -> None:
        if self._pumping:
            return
        self._pumping = True
        try:
            while self._ready and self._unsettled is None:
                # the screen on top is still being pushed, its widgets are being composed again,
                # or its answer is on its way: the key waits
                if not self._screen_ready() or self._hold() or self._waiting_for_answer():
                    if not self._held:
                        self._held = True
                        self._app.set_timer(SETTLE_POLL_S, self._unhold)
                    return
                await self._send(self._ready.popleft())
        finally:
            self._pumping = False

    def _screen_ready(self) -> bool:
        return self._app.screen.is_mounted

    async def _unhold(self) -> None:
        self._held = False
        # Behind whatever the screen queued on the App while it mounted (a focus() is a
        # callback of the App's): the key goes to the widget it focused, not to the screen.
        self._app.call_later(self._pump)

    async def _send(self, event: events.Key) -> None:
        app = self._app
        target = app.focused or app.screen  # where Textual forwards a key
        self._unsettled, self._target = event, target
        app.set_timer(SETTLE_POLL_S, lambda: self._check_settled(event))
        self.replaying.add(id(event))
        try:
            await self._deliver_to_ui(event)
        finally:
            self.replaying.discard(id(event))
        if event is self._unsettled:
            target.post_message(KeyDelivered(event))

    async def _check_settled(self, key: events.Key) -> None:
        if key is not self._unsettled:
            return  # settled already
        # A key some widget stopped never reaches the App (KeyDelivered settles it); a key
        # whose screen closed under it settles as soon as that screen has gone: the only way
        # its KeyDelivered is lost. No time limit: a key merely slow on a loaded machine is
        # waited for, or the next one would go to a screen about to close.
        target = self._target
        gone = target is not None and (not target.is_attached or not target.is_running)
        if gone:
            await self._settle()
        else:
            self._app.set_timer(SETTLE_POLL_S, lambda: self._check_settled(key))
