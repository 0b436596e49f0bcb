"""The wallet provider as data (issue 31): a journal of the previous schema is migrated (every
row it holds is ZaloPay's), each new payment and refund names its provider, a refund's is its
payment's, neither ever changes, and the outbox ships it."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest

from pos_terminal.journal import Journal, PaymentEvent, RefundEvent
from pos_terminal.journal.machine import Answer
from pos_terminal.journal.outbox import Outbox
from pos_terminal.journal.schema import PROVIDER_MIGRATION, SCHEMA_VERSION
from tests.journal.old_schema import journal_before


def _paid(journal: Journal, app_trans_id: str, provider: str | None = None) -> None:
    more = {} if provider is None else {"provider": provider}
    journal.record_intent(app_trans_id=app_trans_id, amount=50_000, generation="v2",
                          payment_code=f"{app_trans_id}-1234567890", **more)
    journal.apply(app_trans_id, PaymentEvent.PAID,
                  Answer(return_code=1, wallet_id=f"zp-{app_trans_id}"), message="paid")


def _previous_journal(path: Path) -> None:
    """A journal the previous release wrote: a paid payment, a part refunded, one still open."""
    conn = journal_before(path, PROVIDER_MIGRATION)
    conn.execute("INSERT INTO payments(app_trans_id, kind, generation, state, amount, "
                 "zp_trans_id, created_ms, updated_ms) VALUES "
                 "('old_paid', 'quick_pay', 'v2', 'submitting', 80000, NULL, 1, 1)")
    conn.execute("UPDATE payments SET state='succeeded', zp_trans_id='zp1', updated_ms=2 "
                 "WHERE app_trans_id='old_paid'")
    conn.execute("INSERT INTO refunds(m_refund_id, app_trans_id, amount, state, request_ms, "
                 "created_ms, updated_ms) VALUES ('old_refund', 'old_paid', 30000, "
                 "'refunding', 3, 3, 3)")
    conn.execute("INSERT INTO payments(app_trans_id, kind, generation, state, amount, "
                 "created_ms, updated_ms) VALUES ('old_open', 'quick_pay', 'v2', 'unknown', "
                 "9000, 4, 4)")
    conn.close()


def test_a_journal_of_the_previous_schema_holds_zalopay_rows_after_migration(
        tmp_path: Path) -> None:
    path = tmp_path / "old.sqlite3"
    _previous_journal(path)
    with Journal.open(path) as journal:
        assert journal.schema_version == SCHEMA_VERSION
        assert journal.get("old_paid").provider == "zalopay"
        assert journal.get("old_open").provider == "zalopay"
        refund = journal.get_refund("old_refund")
        assert refund.provider == "zalopay"
        # the old open refund settles as before, and its snapshot ships with its provider
        journal.apply(refund, RefundEvent.DONE, Answer(return_code=1, wallet_id="r1"),
                      message="done")
        _paid(journal, "new_momo", "momo")
        assert journal.get("new_momo").provider == "momo"
        assert journal.get("new_momo").to_json()["provider"] == "momo"
        momo_refund = journal.record_refund_intent(
            m_refund_id="momo_refund", app_trans_id="new_momo", amount=1_000,
            description="", request_ms=5)
        assert momo_refund.provider == "momo"  # a refund goes where its payment was charged
    with Outbox(path) as box:
        rows = box.rows(0, 1000)
    payloads = {(r.kind, r.key): json.loads(r.payload) for r in rows}  # the newest of each
    assert payloads[("refund", "old_refund")]["provider"] == "zalopay"
    assert payloads[("payment", "new_momo")]["provider"] == "momo"
    assert payloads[("refund", "momo_refund")]["provider"] == "momo"
    assert payloads[("refund", "momo_refund")]["authorised_by"] is None  # still shipped


def test_a_provider_never_changes_and_a_refund_keeps_its_payments(tmp_path: Path) -> None:
    path = tmp_path / "j.sqlite3"
    with Journal.open(path) as journal:
        _paid(journal, "zp")
        assert journal.get("zp").provider == "zalopay"  # not named: the wallet of old
    conn = sqlite3.connect(path, isolation_level=None)
    with pytest.raises(sqlite3.IntegrityError, match="provider of a payment never changes"):
        conn.execute("UPDATE payments SET provider='momo' WHERE app_trans_id='zp'")
    with pytest.raises(sqlite3.IntegrityError, match="wallet provider of its payment"):
        conn.execute("INSERT INTO refunds(m_refund_id, app_trans_id, amount, state, request_ms,"
                     " created_ms, updated_ms, provider) VALUES ('r', 'zp', 1, 'refunding', 1, "
                     "1, 1, 'momo')")
    conn.execute("INSERT INTO refunds(m_refund_id, app_trans_id, amount, state, request_ms, "
                 "created_ms, updated_ms) VALUES ('r', 'zp', 1, 'refunding', 1, 1, 1)")
    with pytest.raises(sqlite3.IntegrityError, match="provider of a refund never changes"):
        conn.execute("UPDATE refunds SET provider='momo' WHERE m_refund_id='r'")
    conn.close()
