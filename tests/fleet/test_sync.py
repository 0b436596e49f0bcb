"""The sync against a real PostgreSQL: counters paying concurrently, then the ledger equals the
union of their journals row for row."""

from __future__ import annotations

import threading
from typing import Any

from pos_terminal.ledger import LedgerSync
from tests.fleet.helpers import assert_ledger_is_union, pay


def _pay_and_sync_concurrently(make_terminal: Any, emulator: Any, count: int,
                               payments: int) -> list[Any]:
    terminals = [make_terminal(f"T{i:02d}", batch_size=7) for i in range(count)]
    errors: list[BaseException] = []

    def counter(settings: Any, index: int) -> None:
        try:
            sync = LedgerSync(settings)
            try:
                for round_ in range(payments):
                    pay(settings, emulator, [1000 * (index + 1) + round_])
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


def test_two_counters_paying_concurrently_end_in_the_ledger_once(make_terminal: Any,
                                                                 emulator: Any,
                                                                 ledger_dsn: str) -> None:
    terminals = _pay_and_sync_concurrently(make_terminal, emulator, 2, 4)
    for settings in terminals:  # a second sync ships nothing and duplicates nothing
        sync = LedgerSync(settings)
        assert sync.sync_once().shipped == 0
        sync.close()
    assert_ledger_is_union(ledger_dsn, [(s.terminal.terminal_id, s.terminal.journal)
                                        for s in terminals])
