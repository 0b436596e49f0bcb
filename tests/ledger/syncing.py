"""Driving a counter's sync from a test: one sync now, or many counters paying and syncing on
threads at once."""

from __future__ import annotations

import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

from pos_terminal.config import Settings
from pos_terminal.journal import Journal, PaymentState
from pos_terminal.ledger import LedgerSync, SyncReport
from tests.ledger.helpers import backup, pay, restore


def sync_now(settings: Settings) -> SyncReport:
    """One sync of this counter's journal to the ledger, the connection closed after."""
    sync = LedgerSync(settings)
    try:
        return sync.sync_once()
    finally:
        sync.close()


def settled_twice(counter: Settings, copy: Path, app_trans_id: str,
                  first: Callable[[Journal], object], then: Callable[[Journal], object]) -> None:
    """A payment PROCESSING when the journal was copied to `copy`, settled by `first` and
    synced; then the journal restored from the copy, settled by `then` and synced."""
    path = counter.terminal.journal
    with Journal.open(path) as journal:
        journal.record_intent(app_trans_id=app_trans_id, amount=5000, generation="v2")
        journal.transition(app_trans_id, PaymentState.PROCESSING, message="processing")
    backup(path, copy)
    with Journal.open(path) as journal:
        first(journal)
    sync_now(counter)
    restore(copy, path)
    with Journal.open(path) as journal:
        then(journal)
    sync_now(counter)


def pay_and_sync_concurrently(make_terminal: Any, emulator: Any, *, prefix: str, count: int,
                              rounds: int, batch_size: int, amount_step: int) -> list[Settings]:
    """`count` counters (ids prefix00, prefix01, ...), each on its own thread paying `rounds`
    times (amounts distinct per counter and round) and syncing after every payment."""
    terminals: list[Settings] = [make_terminal(f"{prefix}{i:02d}", batch_size=batch_size)
                                 for i in range(count)]
    errors: list[BaseException] = []

    def counter(settings: Settings, index: int) -> None:
        try:
            sync = LedgerSync(settings)
            try:
                for round_ in range(rounds):
                    pay(settings, emulator, [amount_step * (index + 1) + round_])
                    sync.sync_once()
            finally:
                sync.close()
        except BaseException as exc:  # pragma: no cover - reported below
            errors.append(exc)

    threads = [threading.Thread(target=counter, args=(s, i)) for i, s in enumerate(terminals)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(120)
    assert not errors, errors
    return terminals
