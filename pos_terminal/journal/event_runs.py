"""The Terminal API's event stream runs, kept in the journal's `meta` table so that event ids
keep increasing across restarts: each start of the stream takes the next run number (one
transaction, so two `serve` processes on one journal never share one) and remembers when it
started, and when the run before it did (what a POS that resumes from the last run missed
began then)."""

from __future__ import annotations

from dataclasses import dataclass

from pos_terminal.journal.store import Journal

_RUN = "api_event_run"
_RUN_MS = "api_event_run_ms"


@dataclass(frozen=True)
class EventRun:
    number: int
    started_ms: int
    previous_started_ms: int | None


def start_event_run(journal: Journal) -> EventRun:
    t = journal.now()
    with journal._tx() as conn:
        rows = dict(conn.execute("SELECT key, value FROM meta WHERE key IN (?, ?)",
                                 (_RUN, _RUN_MS)).fetchall())
        number = int(rows.get(_RUN, 0)) + 1
        previous = rows.get(_RUN_MS)
        conn.executemany("INSERT INTO meta(key, value) VALUES (?, ?) ON CONFLICT(key) DO "
                         "UPDATE SET value=excluded.value", ((_RUN, number), (_RUN_MS, t)))
    return EventRun(number, t, None if previous is None else int(previous))
