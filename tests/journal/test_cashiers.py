"""Cashiers in the journal: scrypt PIN hashes, lock-out, soft removal, shifts, per-cashier and
per-shift totals, and cashier_id on payments, refunds and overrides (real checkout + emulator)."""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import Any

import pytest

from pos_terminal.checkout import PaymentState
from pos_terminal.config import Settings
from pos_terminal.counter import open_checkout
from pos_terminal.journal import SCHEMA_VERSION, Journal
from pos_terminal.journal.cashiers import (
    SALT_BYTES,
    CashierError,
    CashierLocked,
    Cashiers,
    NotSupervisor,
    PinRejected,
    UnknownCashier,
    pin_matches,
)
from pos_terminal.sentences.reports import group_lines
from tests.checkout.conftest import add_fault, wallet_code


class Clock:
    def __init__(self) -> None:
        self.t = 1_795_000_000_000

    def __call__(self) -> int:
        return self.t


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
def book(tmp_path: Path, clock: Clock) -> Any:
    journal = Journal.open(tmp_path / "j.sqlite3", clock=clock)
    yield Cashiers(journal, max_attempts=3, lockout_s=60)
    journal.close()


def test_pins_are_salted_scrypt_hashes_only(book: Cashiers, tmp_path: Path) -> None:
    book.add("ann", "Ann Tran", "73914628")
    book.add("bao", "Bao Vu", "73914628", supervisor=True)
    raw = sqlite3.connect(tmp_path / "j.sqlite3")
    hashes = [r[0] for r in raw.execute("SELECT pin_hash FROM cashiers ORDER BY id")]
    raw.close()
    assert hashes[0] != hashes[1]  # same PIN, different salt
    for stored in hashes:
        scheme, n, r, p, salt, key = stored.split("$")
        assert (scheme, n, r, p) == ("scrypt", str(2**14), "8", "1")
        assert len(bytes.fromhex(salt)) == SALT_BYTES and len(bytes.fromhex(key)) == 32
        assert "73914628" not in stored
        assert pin_matches("73914628", stored) and not pin_matches("73914629", stored)
    assert b"73914628" not in (tmp_path / "j.sqlite3").read_bytes()
    assert "pin_hash" not in book.get("ann").to_json()
    assert book.verify_pin("ann", "73914628").name == "Ann Tran"


@pytest.mark.parametrize("pin", ["123", "123456789", "12a4", "１２３４", "٠١٢٣", " 1234"])
def test_pin_must_be_4_to_8_ascii_digits(book: Cashiers, pin: str) -> None:
    with pytest.raises(CashierError, match="4 to 8 digits"):
        book.add("ann", "Ann", pin)
    assert book.all() == []


def test_lockout_after_max_attempts_then_expiry_and_unlock(book: Cashiers,
                                                          clock: Clock) -> None:
    book.add("ann", "Ann", "2468")
    with pytest.raises(PinRejected) as first:
        book.verify_pin("ann", "1111")
    assert first.value.attempts_left == 2
    with pytest.raises(PinRejected):
        book.verify_pin("ann", "1111")
    with pytest.raises(CashierLocked, match="3 wrong PINs in a row"):
        book.verify_pin("ann", "1111")
    with pytest.raises(CashierLocked, match="unlock it now on the sign-in screen: Ctrl"):
        book.verify_pin("ann", "2468")  # the right PIN does not open a locked id
    kinds = [kind for _t, kind, _d in book.events("ann")]
    assert kinds == ["added", "pin_failed", "pin_failed", "pin_failed", "locked"]
    clock.t += 61_000
    assert book.verify_pin("ann", "2468").failed_attempts == 0
    for _ in range(2):
        with pytest.raises(PinRejected):
            book.verify_pin("ann", "0000")
    with pytest.raises(CashierLocked):
        book.verify_pin("ann", "0000")
    book.unlock("ann")
    assert book.verify_pin("ann", "2468").locked_until_ms is None


def test_a_good_pin_resets_the_count(book: Cashiers) -> None:
    book.add("ann", "Ann", "2468")
    for _ in range(2):
        with pytest.raises(PinRejected):
            book.verify_pin("ann", "1111")
    book.verify_pin("ann", "2468")
    with pytest.raises(PinRejected) as again:
        book.verify_pin("ann", "1111")
    assert again.value.attempts_left == 2


def test_removal_is_soft_and_ids_are_not_reused(book: Cashiers) -> None:
    book.add("ann", "Ann", "2468")
    book.open_shift("ann")
    removed = book.remove("ann")
    assert removed.removed_ms is not None
    assert book.names() == {"ann": "Ann"}
    assert book.shifts()[0].closed_ms is not None  # the open shift closed with the removal
    with pytest.raises(UnknownCashier, match="removed"):
        book.verify_pin("ann", "2468")
    with pytest.raises(CashierError, match="already taken"):
        book.add("ann", "Another Ann", "1357")
    with pytest.raises(sqlite3.IntegrityError):
        raw = sqlite3.connect(book.journal.path)
        raw.execute("DELETE FROM cashiers")


def test_require_supervisor(book: Cashiers) -> None:
    with pytest.raises(NotSupervisor, match="No supervisor"):
        book.require_supervisor("2468")
    book.add("ann", "Ann", "2468")
    book.add("boss", "Boss", "9753", supervisor=True)
    with pytest.raises(NotSupervisor, match="is a cashier, not a supervisor"):
        book.require_supervisor("2468", "ann")
    assert book.require_supervisor("9753").id == "boss"
    with pytest.raises(PinRejected):
        book.require_supervisor("2468", "boss")
    book.add("boss2", "Boss Two", "8642", supervisor=True)
    with pytest.raises(NotSupervisor, match="name the one"):
        book.require_supervisor("9753")


def test_cashier_on_payment_refund_override_and_reports(settings: Settings,
                                                        emulator: Any) -> None:
    with open_checkout(settings) as co:
        assert co.journal.schema_version == SCHEMA_VERSION
        book = Cashiers(co.journal)
        book.add("ann", "Ann Tran", "2468")
        book.add("boss", "Boss", "9753", supervisor=True)
        shift = book.open_shift("ann")
        paid = co.pay(30_000, wallet_code(emulator, "an"), cashier_id="ann")
        other = co.pay(7_000, wallet_code(emulator, "an"))
        refund = co.refund(paid.app_trans_id, 10_000, cashier_id="boss")
        add_fault(emulator, endpoint="quick_pay", mode="http500")
        add_fault(emulator, endpoint="query", mode="http500", count=0)
        open_one = co.pay(5_000, wallet_code(emulator, "binh"), cashier_id="ann",
                          deadline_s=0.2)
        assert open_one.state is PaymentState.UNKNOWN
        overridden = co.override(open_one.app_trans_id, PaymentState.FAILED, "portal: none",
                                 "Boss", cashier_id="boss")
        book.close_shift("ann")
        journal = co.journal
        assert journal.get(paid.app_trans_id).cashier_id == "ann"
        assert journal.get(other.app_trans_id).cashier_id is None
        assert journal.get_refund(refund.m_refund_id).cashier_id == "boss"
        assert journal.events(paid.app_trans_id)[0].cashier_id == "ann"
        assert journal.events(overridden.app_trans_id)[-1].to_json()["cashier_id"] == "boss"
        by_cashier = {g.key: g for g in journal.grouped_report("cashier")}
        assert set(by_cashier) == {"", "ann", "boss"}
        ann, boss, nobody = by_cashier["ann"], by_cashier["boss"], by_cashier[""]
        assert (ann.sales_count, ann.sales_amount, ann.failed_count) == (1, 30_000, 1)
        assert (boss.refunds_count, boss.refunds_amount, boss.sales_count) == (1, 10_000, 0)
        assert (nobody.sales_count, nobody.sales_amount) == (1, 7_000)
        assert group_lines(ann)[0] == "Ann Tran (ann)"
        [per_shift] = journal.grouped_report("shift")
        assert (per_shift.key, per_shift.cashier_id) == (str(shift.id), "ann")
        assert (per_shift.sales_count, per_shift.sales_amount) == (1, 30_000)
        z = journal.close_day()
        assert journal.grouped_report("cashier") == []
        closed = {g.key: g.net_amount for g in journal.grouped_report("cashier", z.number)}
        assert closed == {"": 7_000, "ann": 30_000, "boss": -10_000}


def test_outbox_carries_the_cashier(settings: Settings, emulator: Any) -> None:
    import json

    with open_checkout(settings) as co:
        paid = co.pay(30_000, wallet_code(emulator, "an"), cashier_id="ann")
        anonymous = co.pay(1_000, wallet_code(emulator, "an"))
        refund = co.refund(paid.app_trans_id, 10_000, cashier_id="boss")
    raw = sqlite3.connect(settings.terminal.journal)
    rows = [(kind, key, json.loads(payload)) for kind, key, payload in raw.execute(
        "SELECT kind, key, payload FROM outbox WHERE kind IN ('payment', 'refund') ORDER BY seq")]
    raw.close()
    cashiers = {(kind, key, p.get("cashier")) for kind, key, p in rows}
    assert ("payment", paid.app_trans_id, "ann") in cashiers
    assert ("payment", anonymous.app_trans_id, None) in cashiers
    assert ("refund", refund.m_refund_id, "boss") in cashiers
    assert all("cashier" in p for _k, _key, p in rows)


def test_a_new_pin_is_journaled_as_pin_changed_by_its_supervisor(book: Cashiers) -> None:
    book.add("ann", "Ann", "2468")
    book.set_pin("ann", "1357", by="boss")
    book.unlock("ann", by="boss")
    assert [(kind, detail) for _t, kind, detail in book.events("ann")][1:] == [
        ("pin_changed", "boss"), ("unlocked", "boss")]


def test_the_migration_reads_an_old_pin_change_as_pin_changed(tmp_path: Path) -> None:
    """A journal of the version before `pin_changed` journaled a new PIN as an unlock with a
    fixed detail: after the migration it is the `pin_changed` it was; ids, times and the other
    events are kept, and the table stays append-only."""
    from pos_terminal.journal.schema import MIGRATIONS, PIN_CHANGED_MIGRATION
    from pos_terminal.journal.store import _split_sql

    path = tmp_path / "old.sqlite3"
    before = MIGRATIONS.index(PIN_CHANGED_MIGRATION)
    conn = sqlite3.connect(path, isolation_level=None)
    for script in MIGRATIONS[:before]:
        for statement in _split_sql(script):
            conn.execute(statement)
    conn.execute(f"PRAGMA user_version={before}")
    conn.execute("INSERT INTO meta(key, value) VALUES ('fingerprint_secret', ?)", (b"s" * 32,))
    conn.execute("INSERT INTO cashiers(id, name, role, pin_hash, created_ms) "
                 "VALUES ('ann', 'Ann', 'cashier', 'scrypt$x', 1)")
    for t, kind, detail in ((1, "added", "cashier"), (2, "unlocked", ""),
                            (3, "unlocked", "new PIN set by a supervisor")):
        conn.execute("INSERT INTO cashier_events(cashier_id, time_ms, kind, detail) "
                     "VALUES ('ann', ?, ?, ?)", (t, kind, detail))
    conn.close()

    journal = Journal.open(path)
    try:
        book = Cashiers(journal)
        assert book.events("ann") == [(1, "added", "cashier"), (2, "unlocked", ""),
                                      (3, "pin_changed", "")]
        book.set_pin("ann", "1357", by="boss")
        assert book.events("ann")[-1][1:] == ("pin_changed", "boss")
    finally:
        journal.close()
    conn = sqlite3.connect(path, isolation_level=None)
    try:
        assert conn.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
        for change in ("DELETE FROM cashier_events", "UPDATE cashier_events SET detail = 'x'"):
            with pytest.raises(sqlite3.IntegrityError, match="append-only"):
                conn.execute(change)
        with pytest.raises(sqlite3.IntegrityError, match="CHECK"):
            conn.execute("INSERT INTO cashier_events(cashier_id, time_ms, kind) "
                         "VALUES ('ann', 9, 'nonsense')")
    finally:
        conn.close()
