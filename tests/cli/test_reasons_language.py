"""Issue 22 item 1: the journal keeps reasons, not sentences, so it reads in any language.

A payment taken in Vietnamese reads entirely in English with ``--language en`` (its outcome and
every event of its timeline), and the other way round; the stored row holds the reason's code
and parameters (``reason_code``), never a sentence.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from pos_terminal.base import i18n
from pos_terminal.base.reasons import TEXT, Reason
from pos_terminal.config import Settings
from pos_terminal.journal import Journal
from pos_terminal.sentences import render
from tests.checkout.conftest import wallet_code

VIETNAMESE_LETTERS = set("ăâđêôơưạảấầẩẫậắằẳẵặẹẻẽếềểễệỉịọỏốồổỗộớờởỡợụủứừửữựỳỵỷỹ")


@pytest.fixture(autouse=True)
def _restore_language() -> Iterator[None]:
    before = i18n._language
    yield
    i18n._language = before


def _said(data: dict[str, Any]) -> list[tuple[str, Reason]]:
    """(the message shown, its reason) of a `journal show --json` answer and its events."""
    rows = [data, *data["events"]]
    return [(r["message"], Reason(r["reason_code"], r["reason_params"])) for r in rows]


def _language_of(text: str) -> str:
    return "vi" if set(text.lower()) & VIETNAMESE_LETTERS else "en"


@pytest.mark.parametrize(("wrote", "reads"), [("vi", "en"), ("en", "vi")])
@pytest.mark.parametrize("wallet", ["dung", "an"])  # declined (balance too low); paid
def test_a_journal_written_in_one_language_reads_in_the_other(
        cli: Any, emulator: Any, settings: Settings, wallet: str, wrote: str, reads: str) -> None:
    paid = cli("pay", "--amount", "6000", "--code", wallet_code(emulator, wallet), "--json",
               "--language", wrote)
    first = json.loads(paid.stdout)
    assert _language_of(first["message"]) == wrote, first["message"]
    tid = first["app_trans_id"]

    shown = cli("journal", "show", tid, "--json", "--language", reads)
    said = _said(json.loads(shown.stdout))
    assert len(said) >= 3  # the row, its intent and its verdict
    for message, reason in said:
        assert reason.code != TEXT, message  # a reason, never a stored sentence
        assert message == render(reason, reads)
        assert message != render(reason, wrote)  # translated, not kept as written
        assert _language_of(message) == reads, message

    status = cli("status", tid, "--json", "--language", reads)
    assert json.loads(status.stdout)["message"] == said[0][0]

    with sqlite3.connect(settings.terminal.journal) as conn:
        stored = [m for (m,) in conn.execute(
            "SELECT message FROM events WHERE app_trans_id=? UNION ALL "
            "SELECT message FROM payments WHERE app_trans_id=?", (tid, tid))]
    assert stored and all(json.loads(m)["reason"] for m in stored)


def test_a_row_written_before_reasons_is_shown_as_it_was_written(tmp_path: Path) -> None:
    """Old rows hold free text: it reads back as the reason `text`, word for word."""
    journal = Journal.open(tmp_path / "j.sqlite3")
    journal.close()
    with sqlite3.connect(tmp_path / "j.sqlite3") as conn:  # as a version before reasons wrote it
        conn.execute(
            "INSERT INTO payments(app_trans_id, kind, generation, state, amount, message, "
            "created_ms, submitted_ms, updated_ms) VALUES ('261125_old_1', 'quick_pay', 'v2', "
            "'submitting', 5000, 'Đang gửi thanh toán', 1, 1, 1)")
    journal = Journal.open(tmp_path / "j.sqlite3")
    try:
        view = journal.get("261125_old_1")
    finally:
        journal.close()
    assert view.why == Reason.text("Đang gửi thanh toán")
    i18n.set_language("en")
    assert view.message == "Đang gửi thanh toán" == view.to_json()["message"]
