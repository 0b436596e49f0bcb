"""The sale system's references in the journal: unique, checked in the intent's transaction,
never changed, whoever writes (two connections stand for two processes)."""

from __future__ import annotations

import sqlite3
import threading
from pathlib import Path

import pytest

from pos_terminal.config import Settings
from pos_terminal.counter import open_checkout
from pos_terminal.journal import Journal, JournalError, SaleRefTaken
from pos_terminal.journal.schema import SCHEMA_VERSION
from tests.conftest import ProcessingHold, fresh_code


def _intent(journal: Journal, app_trans_id: str, sale_ref: str) -> None:
    journal.record_intent(app_trans_id=app_trans_id, amount=1000, generation="v2",
                          payment_code="1234567890123456789", sale_ref=sale_ref)


def test_a_sale_ref_is_taken_once_and_a_second_intent_writes_nothing(tmp_path: Path) -> None:
    path = tmp_path / "j.sqlite3"
    with Journal.open(path) as one, Journal.open(path) as two:
        assert one.schema_version == SCHEMA_VERSION
        _intent(one, "261125_a_1", "1001")
        with pytest.raises(SaleRefTaken) as taken:
            _intent(two, "261125_a_2", "1001")
        assert taken.value.app_trans_id == "261125_a_1"
        assert two.find("261125_a_2") is None
        assert two.find_by_sale_ref("1001").app_trans_id == "261125_a_1"  # type: ignore[union-attr]
        _intent(two, "261125_a_3", "1002")  # another sale is fine


def test_the_database_itself_refuses_a_second_row_or_a_changed_reference(
        tmp_path: Path) -> None:
    path = tmp_path / "j.sqlite3"
    with Journal.open(path) as journal:
        _intent(journal, "261125_b_1", "2001")
    db = sqlite3.connect(path)
    try:
        with pytest.raises(sqlite3.IntegrityError):
            db.execute("INSERT INTO payments(app_trans_id, kind, generation, state, amount, "
                       "created_ms, updated_ms, sale_ref) VALUES ('261125_b_2', 'quick_pay', "
                       "'v2', 'submitting', 5, 1, 1, '2001')")
        with pytest.raises(sqlite3.IntegrityError, match="sale reference"):
            db.execute("UPDATE payments SET sale_ref='2002' WHERE app_trans_id='261125_b_1'")
    finally:
        db.close()


def test_two_checkouts_racing_on_one_sale_charge_once(
        settings: Settings, emulator: object, hold_processing: ProcessingHold) -> None:
    """Two processes' worth of Checkout (each its own connection) pay the same sale_ref with
    two codes at once: one charge, the other refused before it records or sends anything."""
    codes = [fresh_code(emulator, "an"), fresh_code(emulator, "binh")]
    outcomes: list[object] = []

    def pay(code: str) -> None:
        with open_checkout(settings) as checkout:
            try:
                outcomes.append(checkout.pay(10000, code, sale_ref="race-1", deadline_s=0.5))
            except SaleRefTaken as exc:
                outcomes.append(exc)

    threads = [threading.Thread(target=pay, args=(c,)) for c in codes]
    for t in threads:
        t.start()
    for t in threads:
        t.join(30)
    hold_processing.release()
    refused = [o for o in outcomes if isinstance(o, SaleRefTaken)]
    assert len(outcomes) == 2 and len(refused) == 1
    assert isinstance(refused[0], JournalError)
    books = emulator.control.books  # type: ignore[attr-defined]
    assert len(books.orders) == 1
