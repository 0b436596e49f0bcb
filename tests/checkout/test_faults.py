"""The fault matrix: whatever the emulator does to the answer, the payment ends in the right
state and its ledger shows exactly one charge or none. Plus a journal that cannot be written:
nothing is sent. Plus: the raw payment code is in no byte of the journal files or the logs."""

from __future__ import annotations

import json
import logging
import re
import shutil
import sqlite3
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

import pytest

from pos_terminal.checkout import JournalUnavailable, PaymentState, outcomes
from pos_terminal.checkout.errors import AnswerNotRecorded
from pos_terminal.config import Settings
from pos_terminal.counter import open_checkout
from pos_terminal.journal import Journal
from tests.checkout.conftest import (
    BALANCES,
    add_fault,
    charged,
    journal_and_holder,
    ledger,
    quick_pay_requests,
    wallet_code,
    write_config,
)
from tests.processes import REPO, child_env
from tests.tmpfs import TinyTmpfs

S = PaymentState

# mode, extra rule fields, final state, charges expected.
# `delay` commits the charge and answers after the 1 s timeout: the first status query finds it.
# `delay_before_commit` holds the request *before* processing it (a request slow in transit): a
# status query sent after the timeout finds no order yet. Only the not-found grace (here 2.5 s,
# longer than the hold) stops the terminal from calling that payment failed while the charge is
# about to land: this row proves the grace period is what makes it safe.
MATRIX = [
    ("delay", {"delay_s": 1.6}, S.SUCCEEDED, 1),
    ("delay_before_commit", {"delay_s": 1.6}, S.SUCCEEDED, 1),
    ("http500", {}, S.FAILED, 0),
    ("html", {}, S.FAILED, 0),
    ("garbage", {}, S.SUCCEEDED, 1),
    ("truncated", {}, S.SUCCEEDED, 1),
    ("drop", {}, S.FAILED, 0),
    ("drop_after_commit", {}, S.SUCCEEDED, 1),
]


@pytest.mark.parametrize(("mode", "extra", "final", "charges"), MATRIX,
                         ids=[m[0] for m in MATRIX])
def test_fault_on_the_charge(any_settings: Settings, emulator: Any, mode: str,
                             extra: dict[str, Any], final: S, charges: int) -> None:
    settings = any_settings.replace_service(timeout_s=1.0)
    if mode == "delay_before_commit":
        settings = settings.replace_section("checkout", not_found_grace_s=2.5)
    add_fault(emulator, endpoint="quick_pay", mode=mode, **extra)
    with open_checkout(settings) as co:
        view = co.pay(15_000, wallet_code(emulator, "an"))
        path = [(e.from_state, e.to_state) for e in co.journal.events(view.app_trans_id)]
    assert view.state is final
    # The answer was missing or unreadable: UNKNOWN first, then settled by a status query.
    assert path[:2] == [("new", "submitting"), ("submitting", "unknown")]
    assert path[-1] == ("unknown", final.value)
    assert len(charged(emulator, view.app_trans_id)) == charges
    book = ledger(emulator)
    assert book["requests"]["quick_pay"] == 1  # never sent twice
    assert book["balances"]["an"] == BALANCES["an"] - 15_000 * charges


def test_commit_then_drop_while_processing_settles_by_polling(settings: Settings,
                                                              emulator: Any) -> None:
    add_fault(emulator, endpoint="quick_pay", mode="drop_after_commit")
    add_fault(emulator, endpoint="query", mode="garbage", count=2)
    with open_checkout(settings) as co:
        view = co.pay(9_000, wallet_code(emulator, "binh"))
    assert view.state is S.SUCCEEDED
    assert len(charged(emulator, view.app_trans_id)) == 1
    assert ledger(emulator)["requests"]["quick_pay"] == 1


def test_status_queries_that_fail_never_settle_the_payment(settings: Settings,
                                                           emulator: Any) -> None:
    add_fault(emulator, endpoint="quick_pay", mode="drop_after_commit")
    add_fault(emulator, endpoint="query", mode="http500", count=0)  # until cleared
    with open_checkout(settings) as co:
        view = co.pay(9_000, wallet_code(emulator, "an"), deadline_s=0.5)
        assert view.state is S.UNKNOWN
        assert view.message.startswith("No final result after")
        emulator.control.clear_faults()
        assert co.reconcile().payments[0].state is S.SUCCEEDED
    assert len(charged(emulator, view.app_trans_id)) == 1


def test_locked_journal_sends_nothing(settings: Settings, emulator: Any) -> None:
    journal = Journal.open(settings.terminal.journal, busy_timeout_s=0.2)
    holder = sqlite3.connect(settings.terminal.journal, isolation_level=None)
    holder.execute("BEGIN EXCLUSIVE")
    try:
        with open_checkout(settings, journal=journal) as co, pytest.raises(
                JournalUnavailable, match=r"locked by another program\. New payments are stopped"):
            co.pay(5_000, wallet_code(emulator, "an"))
    finally:
        holder.execute("ROLLBACK")
        holder.close()
        journal.close()
    assert quick_pay_requests(emulator) == 0


def _probe(settings: Settings, tmpfs: TinyTmpfs, tmp_path: Path, condition: str,
           code: str = "") -> dict[str, Any]:
    """tests/checkout/journal_probe.py where the tmpfs is mounted: Checkout on its journal."""
    config = write_config(settings, tmp_path / "pos.toml")
    done = subprocess.run(tmpfs.command([sys.executable, "-m", "tests.checkout.journal_probe",
                                         str(config), condition]),
                          input=code, capture_output=True, text=True, env=child_env(),
                          cwd=REPO, timeout=60, check=False)
    assert done.returncode == 0, done.stderr
    answer: dict[str, Any] = json.loads(done.stdout)
    return answer


def test_read_only_journal_sends_nothing(settings: Settings, emulator: Any,
                                         tiny_tmpfs: TinyTmpfs, tmp_path: Path) -> None:
    made = tmp_path / "j.sqlite3"
    Journal.open(made).close()  # an existing journal, then the mount goes read-only
    shutil.copyfile(made, tiny_tmpfs.reach(tiny_tmpfs.path / "j.sqlite3"))
    tiny_tmpfs.read_only()
    settings = settings.replace_section("terminal", journal=tiny_tmpfs.path / "j.sqlite3")
    answer = _probe(settings, tiny_tmpfs, tmp_path, "read-only")
    assert answer["reason"] == "read-only"
    assert re.search(r"is read-only\. New payments are stopped", answer["message"]), answer
    assert quick_pay_requests(emulator) == 0


def test_full_disk_sends_nothing(settings: Settings, emulator: Any, tiny_tmpfs: TinyTmpfs,
                                 tmp_path: Path) -> None:
    settings = settings.replace_section("terminal", journal=tiny_tmpfs.path / "j.sqlite3")
    answer = _probe(settings, tiny_tmpfs, tmp_path, "full", wallet_code(emulator, "an"))
    assert answer["reason"] == "full"
    assert re.search(r"is full\. New payments are stopped", answer["message"]), answer
    assert quick_pay_requests(emulator) == 0


def test_raw_code_is_in_no_byte_of_the_journal_or_the_logs(
        settings: Settings, emulator: Any, caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.DEBUG)
    codes = [wallet_code(emulator, w) for w in ("an", "binh", "dung")]
    add_fault(emulator, endpoint="quick_pay", mode="drop_after_commit", wallet="binh")
    with open_checkout(settings) as co:
        paid = co.pay(20_000, codes[0])
        co.pay(20_000, codes[1])
        co.pay(20_000, codes[2])
        co.refund(paid.app_trans_id, 5_000)
        co.journal.close_day()
        # While the connection is open the -wal and -shm files exist: check them too.
        files = [Path(f"{settings.terminal.journal}{s}") for s in ("", "-wal", "-shm")]
        assert all(f.exists() for f in files)
        blobs = {f.name.split(".")[-1]: f.read_bytes() for f in files}
    blobs["log"] = caplog.text.encode()
    for code in codes:
        for name, blob in blobs.items():
            assert code.encode() not in blob, name
        # ... while its last 4 characters are there (so the check above looks at real data).
        assert code[-4:].encode() in blobs["sqlite3"] + blobs["sqlite3-wal"]


def test_journal_locked_after_sending_keeps_the_intent_for_reconcile(
        settings: Settings, emulator: Any) -> None:
    journal, holder = journal_and_holder(settings)

    # The answer comes 1 s late; the journal is locked once the charge has reached the service
    # (after the sender's last write before the send: the claim of its lease).
    add_fault(emulator, endpoint="quick_pay", mode="delay", delay_s=1.0)

    def lock_once_sent() -> None:
        while quick_pay_requests(emulator) == 0:
            time.sleep(0.01)
        holder.execute("BEGIN EXCLUSIVE")

    locker = threading.Thread(target=lock_once_sent)
    locker.start()
    with open_checkout(settings, journal=journal) as co:
        with pytest.raises(JournalUnavailable, match=r"was sent, but its answer could not be "
                           r"recorded: .* once the journal is fixed") as err:
            co.pay(5_000, wallet_code(emulator, "an"))
        locker.join()
        holder.execute("ROLLBACK")
        holder.close()
        [row] = co.journal.pending()
        assert row.state is S.SUBMITTING and row.app_trans_id in err.value.message
        # Not "nothing was charged": the CLI reports this payment as unresolved (exit 3).
        assert isinstance(err.value, AnswerNotRecorded)
        assert err.value.app_trans_id == row.app_trans_id
        assert co.reconcile().payments[0].state is S.SUCCEEDED
    journal.close()
    assert len(charged(emulator, row.app_trans_id)) == 1


def test_refusals_of_the_charge(any_settings: Settings, emulator: Any) -> None:
    """Issue 29: -429 (rate limit) refuses the request for its own sake and -500 may hide a
    charge: neither is "not paid" by itself. The status query decides: here the service has no
    record of either, so past the not-found grace (0 s in these settings) both end failed."""
    add_fault(emulator, endpoint="quick_pay", mode="refuse", return_code=-429)
    add_fault(emulator, endpoint="quick_pay", mode="refuse", return_code=-500)
    with open_checkout(any_settings) as co:
        for _ in range(2):
            refused = co.pay(3_000, wallet_code(emulator, "an"))
            assert refused.state is S.FAILED
            assert [e.to_state for e in co.journal.events(refused.app_trans_id)] == [
                "submitting", "unknown", "failed"]
            assert str(refused.why) == str(outcomes.NEVER_ARRIVED)
    assert ledger(emulator)["charges"] == []


def test_a_refused_status_query_never_settles_the_payment(any_settings: Settings,
                                                          emulator: Any) -> None:
    add_fault(emulator, endpoint="quick_pay", mode="drop_after_commit")
    add_fault(emulator, endpoint="query", mode="refuse", return_code=-402, count=3)
    with open_checkout(any_settings) as co:
        view = co.pay(3_000, wallet_code(emulator, "an"))
        assert view.state is S.SUCCEEDED
        assert ledger(emulator)["requests"]["query"] >= 4  # 3 refused, then the real answer
    assert len(charged(emulator, view.app_trans_id)) == 1


def _closed_port() -> int:
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def test_unreachable_service_fails_at_once_and_the_code_stays_usable(
        any_settings: Settings, emulator: Any) -> None:
    """Connection refused: the charge never left, so it is FAILED at once (no UNKNOWN, no
    status queries, no waiting out the deadline) with a sentence naming the cause."""
    code = wallet_code(emulator, "an")
    unreachable = any_settings.replace_service(base_url=f"http://127.0.0.1:{_closed_port()}")
    with open_checkout(unreachable) as co:
        view = co.pay(15_000, code, deadline_s=600)
        assert view.state is S.FAILED
        assert view.message == (
            "Cannot reach the wallet service (connection refused): nothing was charged. Check "
            "the network cable or Wi-Fi, then charge again; if it keeps happening, tell your "
            "supervisor.")
        assert [e.to_state for e in co.journal.events(view.app_trans_id)] == [
            "submitting", "failed"]
        assert co.requests_sent == 1  # the charge only: no status query followed
    assert ledger(emulator)["requests"] == {}
    # The code was not used up: the same code charges once the service is reachable.
    with open_checkout(any_settings) as co:
        again = co.pay(15_000, code)
    assert again.state is S.SUCCEEDED
    assert len(charged(emulator, again.app_trans_id)) == 1


@pytest.mark.parametrize("mode", ["drop", "drop_after_commit"])
def test_a_dropped_reused_connection_stays_unknown(settings: Settings, emulator: Any,
                                                   mode: str) -> None:
    """A close on a kept-alive connection may hide a charge: UNKNOWN, then the status query."""
    with open_checkout(settings) as co:
        first = co.pay(1_000, wallet_code(emulator, "an"))  # opens the kept-alive connection
        assert first.state is S.SUCCEEDED
        add_fault(emulator, endpoint="quick_pay", mode=mode)
        view = co.pay(2_000, wallet_code(emulator, "binh"))
        path = [(e.from_state, e.to_state) for e in co.journal.events(view.app_trans_id)]
    assert path[1] == ("submitting", "unknown")
    expected = S.SUCCEEDED if mode == "drop_after_commit" else S.FAILED
    assert view.state is expected
    assert len(charged(emulator, view.app_trans_id)) == (mode == "drop_after_commit")
    assert ledger(emulator)["requests"]["quick_pay"] == 2
