"""Ship a terminal's journal outbox to the fleet ledger: once (`pos-terminal sync`) or in the
background of the UI and headless mode.

A cycle: tell the ledger which journal this is and learn how far it has it (its high-water
mark); if the ledger has more than the local cursor says, compare those rows' digests (a crash
after the ledger committed: just move the cursor; a different row under the same seq: this file
is an older copy, so its rows from there on continue under a new journal_id); then ship batches
in order, each one ledger transaction, and move the local cursor only after it committed.

The sync has its own SQLite connection, its own PostgreSQL connection with short timeouts and its
own thread: a payment never waits for it.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from contextlib import suppress
from dataclasses import dataclass
from pathlib import Path

from pos_terminal.config import Settings
from pos_terminal.journal import Journal
from pos_terminal.journal.outbox import Outbox, OutboxState
from pos_terminal.journal.upkeep import OUTBOX_KEEP_MS
from pos_terminal.ledger.dsn import ledger_dsn
from pos_terminal.ledger.errors import LedgerError, LedgerUnavailable
from pos_terminal.ledger.store import Ledger, pause_point

MAX_RESTARTS = 20
PRUNE_AFTER_MS = OUTBOX_KEEP_MS  # shipped outbox rows are kept this long locally
FULL_CHECK_EVERY_S = 60.0


@dataclass(frozen=True)
class SyncReport:
    shipped: int
    behind: int
    journal_id: str
    rotated: bool  # this journal was found to be an older copy and got a new journal_id


@dataclass(frozen=True)
class SyncStatus:
    behind: int | None
    reachable: bool | None  # None: not tried yet
    error: str | None = None
    last_ok_ms: int | None = None

    @property
    def line(self) -> str:
        """What the UI header shows."""
        if self.behind is None:
            return "ledger …"
        text = f"ledger: {self.behind} behind"
        if self.reachable is False:
            return text + " (unreachable)"
        return text + " (refused)" if self.error else text

    def to_json(self) -> dict[str, object]:
        return {"behind": self.behind, "reachable": self.reachable, "error": self.error,
                "last_ok_ms": self.last_ok_ms}


class LedgerSync:
    def __init__(self, settings: Settings, *, dsn: str | None = None,
                 journal_path: Path | None = None) -> None:
        self.settings = settings
        self.dsn = dsn if dsn is not None else ledger_dsn(settings)
        if not self.dsn:
            raise LedgerError("no ledger configured: set [ledger] dsn in the configuration or "
                              "the POS_LEDGER_DSN environment variable")
        if not settings.terminal_id_set:
            # Derived from app_user, two counters of a shop easily share an id; in a fleet the
            # id is what keeps app_trans_id unique across counters and names the counter.
            raise LedgerError(
                f"{settings.source}: [terminal] terminal_id is required when a fleet ledger is "
                "configured: give every counter its own id (letters and digits, at most 8), "
                'e.g. terminal_id = "Q1C01"')
        self.path = journal_path or settings.terminal.journal
        self.terminal_id = settings.terminal.terminal_id
        self.app_user = settings.terminal.app_user
        self.batch_size = settings.ledger.batch_size
        self.ledger = Ledger.from_settings(settings, self.dsn)
        self._outbox: Outbox | None = None
        self._lock = threading.Lock()

    @property
    def where(self) -> str:
        return self.ledger.where

    def outbox(self) -> Outbox:
        if self._outbox is None:
            wait_s = self.settings.terminal.journal_wait_s
            # creates or migrates the file (outbox, journal_id)
            Journal.open(self.path, busy_timeout_s=wait_s).close()
            self._outbox = Outbox(self.path, busy_timeout_s=wait_s)
        return self._outbox

    def behind(self) -> int:
        # under the lock: the outbox's one connection is never used while `close` closes it
        with self._lock:
            return self.outbox().state().behind

    def close(self) -> None:
        with self._lock:
            self.ledger.close()
            if self._outbox is not None:
                self._outbox.close()
                self._outbox = None

    def sync_once(self) -> SyncReport:
        """Ship everything pending now. Raises LedgerUnavailable / LedgerRefused; whatever was
        committed before that stays committed and is not sent again."""
        with self._lock:
            return self._sync()

    def _sync(self) -> SyncReport:
        box = self.outbox()
        shipped, rotated = 0, False
        for _ in range(MAX_RESTARTS):
            st = box.state()
            cursor = self._handshake(box, st)
            if cursor is None:  # rotated to a new journal_id: start over under it
                rotated = True
                continue
            while True:
                rows = box.rows(cursor, self.batch_size)
                if not rows:
                    box.prune(int(time.time() * 1000) - PRUNE_AFTER_MS)
                    return SyncReport(shipped, box.state().behind, st.journal_id, rotated)
                if not self.ledger.apply_batch(self.terminal_id, self.app_user, st.journal_id,
                                               cursor, rows):
                    break  # someone else moved the ledger's mark: handshake again
                pause_point("after_commit")
                box.mark_shipped(st.journal_id, rows[-1].seq)
                cursor = rows[-1].seq
                shipped += len(rows)
        raise LedgerError("the ledger's mark for this journal kept moving (another sync of the "
                          "same journal?); try again")

    def _handshake(self, box: Outbox, st: OutboxState) -> int | None:
        """The seq to ship after, or None when the journal was rotated."""
        mark = self.ledger.register(self.terminal_id, self.app_user, st.journal_id,
                                    st.epoch_seq, st.parent_journal_id)
        if mark < st.shipped_seq:  # the ledger lost rows (restored from a backup): ship again
            box.rewind(st.journal_id, mark)
            return mark
        if mark == st.shipped_seq:
            return mark
        # The ledger has rows the local cursor does not count: compare them.
        upto = min(mark, st.last_seq)
        after = st.shipped_seq
        while after < upto:
            local = box.rows(after, self.batch_size, upto)
            if not local:
                break
            theirs = self.ledger.digests(self.terminal_id, st.journal_id, after,
                                         local[-1].seq)
            for row in local:
                if theirs.get(row.seq) != row.digest:
                    box.rotate(st.journal_id, row.seq)
                    return None
            box.mark_shipped(st.journal_id, local[-1].seq)
            after = local[-1].seq
        return mark if mark <= st.last_seq else upto


class BackgroundSync:
    """A daemon thread that keeps the ledger up to date, backing off while it is unreachable.

    `on_status` is called from the thread after every cycle (and whenever the count changes)."""

    def __init__(self, settings: Settings, *, dsn: str | None = None,
                 journal_path: Path | None = None,
                 on_status: Callable[[SyncStatus], None] | None = None) -> None:
        self.sync = LedgerSync(settings, dsn=dsn, journal_path=journal_path)
        self.interval_s = settings.ledger.interval_s
        self.max_backoff_s = settings.ledger.max_backoff_s
        self.on_status = on_status
        self._status = SyncStatus(behind=None, reachable=None)
        self._stop = threading.Event()
        self._wake = threading.Event()
        self._thread = threading.Thread(target=self._run, name="ledger-sync", daemon=True)

    @property
    def status(self) -> SyncStatus:
        return self._status

    def start(self) -> BackgroundSync:
        self._thread.start()
        return self

    def wake(self) -> None:
        self._wake.set()

    def stop(self, timeout_s: float = 5.0) -> None:
        self._stop.set()
        self._wake.set()
        if self._thread.is_alive():
            self._thread.join(timeout_s)
        self.sync.close()

    def _publish(self, status: SyncStatus) -> None:
        changed = status != self._status
        self._status = status
        if changed and self.on_status is not None:
            with suppress(Exception):  # a closed UI must not stop the sync
                self.on_status(status)

    def _run(self) -> None:
        delay = self.interval_s
        last_full = 0.0
        while not self._stop.is_set():
            try:
                behind = self.sync.behind()
                now = time.monotonic()
                if behind or self._status.reachable is not True or (
                        now - last_full > FULL_CHECK_EVERY_S):
                    report = self.sync.sync_once()
                    last_full = now
                    behind = report.behind
                self._publish(SyncStatus(behind, True, None, int(time.time() * 1000)))
                delay = self.interval_s
            except LedgerError as exc:
                reachable = not isinstance(exc, LedgerUnavailable)
                self._publish(SyncStatus(self._safe_behind(), reachable, exc.message,
                                         self._status.last_ok_ms))
                delay = min(max(delay * 2, 1.0), self.max_backoff_s)
            except Exception as exc:  # the journal itself (locked, missing): retry later
                self._publish(SyncStatus(self._safe_behind(), self._status.reachable,
                                         str(exc), self._status.last_ok_ms))
                delay = min(max(delay * 2, 1.0), self.max_backoff_s)
            self._wake.wait(delay)
            self._wake.clear()

    def _safe_behind(self) -> int | None:
        try:
            return self.sync.behind()
        except Exception:
            return None


def start_background_sync(settings: Settings,
                          on_status: Callable[[SyncStatus], None] | None = None
                          ) -> BackgroundSync | None:
    """The background sync when a ledger is configured, else None."""
    if not ledger_dsn(settings):
        return None
    return BackgroundSync(settings, on_status=on_status).start()
