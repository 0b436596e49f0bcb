"""`journal export --output` never overwrites the journal, says what to do for a missing folder,
and nothing a command prints carries a terminal escape sequence or a spreadsheet formula."""

from __future__ import annotations

import csv
import io
import os
from pathlib import Path
from typing import Any

import pytest

from pos_terminal.config import Settings
from pos_terminal.journal import Journal, PaymentState

TID = "261123_pos_0000000042"
ESCAPES = "\x1b]0;pwned\x07\x1b[2J\x1b[31m"


@pytest.fixture
def journal_with_escapes(settings: Settings) -> Path:
    """A row written by an older version, before service text was cleaned on arrival."""
    path = settings.terminal.journal
    with Journal.open(path) as journal:
        journal.record_intent(app_trans_id=TID, amount=25_000, generation="v2",
                              description="=HYPERLINK(\"http://x\")", message=ESCAPES + "sent")
        journal.transition(TID, PaymentState.FAILED, message=f"{ESCAPES}declined [/] -63")
    return path


@pytest.mark.parametrize("suffix", ["", "-wal", "-shm"])
def test_export_onto_the_journal_or_its_side_files_is_refused(
        cli: Any, journal_with_escapes: Path, suffix: str) -> None:
    target = Path(f"{journal_with_escapes}{suffix}")
    before = target.read_bytes() if target.exists() else None
    result = cli("journal", "export", "--output", str(target))
    assert result.exit_code == 2
    assert f"is the payment journal's own file {target}" in result.stderr
    assert "Nothing was written; choose another file" in result.stderr
    assert (target.read_bytes() if target.exists() else None) == before
    with Journal.open(journal_with_escapes) as journal:
        assert journal.get(TID).state is PaymentState.FAILED


def test_export_through_a_symlink_or_a_relative_path_to_the_journal_is_refused(
        cli: Any, journal_with_escapes: Path, tmp_path: Path) -> None:
    link = tmp_path / "elsewhere" / "payments.csv"
    link.parent.mkdir()
    link.symlink_to(journal_with_escapes)
    before = journal_with_escapes.read_bytes()
    assert cli("journal", "export", "--output", str(link)).exit_code == 2
    hard = tmp_path / "hard.csv"
    os.link(journal_with_escapes, hard)
    assert cli("journal", "export", "--output", str(hard)).exit_code == 2
    dotted = journal_with_escapes.parent / "x" / ".." / journal_with_escapes.name
    (journal_with_escapes.parent / "x").mkdir()
    assert cli("journal", "export", "--output", str(dotted)).exit_code == 2
    assert journal_with_escapes.read_bytes() == before


def test_export_to_a_missing_folder_says_so(cli: Any, journal_with_escapes: Path,
                                            tmp_path: Path) -> None:
    target = tmp_path / "no" / "such" / "folder" / "payments.csv"
    result = cli("journal", "export", "--output", str(target))
    assert result.exit_code == 2
    assert result.stderr == (
        f"error: --output {target}: the folder {target.parent} does not exist. Nothing was "
        "written; create the folder first or choose another --output.\n")
    assert cli("journal", "export", "--output", str(tmp_path)).exit_code == 2


def test_no_escape_sequence_or_formula_leaves_the_cli(cli: Any, journal_with_escapes: Path,
                                                      tmp_path: Path) -> None:
    for args in (("journal", "show", TID), ("journal", "list"), ("status", TID),
                 ("journal", "export")):
        result = cli(*args)
        assert "\x1b" not in result.stdout + result.stderr, args
        assert "\x07" not in result.stdout + result.stderr, args
    shown = cli("journal", "show", TID).stdout
    assert "declined [/] -63" in shown  # the text itself is kept, literally
    exported = cli("journal", "export").stdout
    [row] = list(csv.DictReader(io.StringIO(exported)))
    assert row["description"] == "'=HYPERLINK(\"http://x\")"
    assert row["message"] == "declined [/] -63"
    out = tmp_path / "payments.csv"
    assert cli("journal", "export", "--output", str(out)).exit_code == 0
    assert b"\x1b" not in out.read_bytes()


@pytest.mark.parametrize("args", [("pay", "--code", "123456789012345678", "--amount"),
                                  ("refund", TID, "--amount")])
def test_a_huge_amount_is_a_sentence(cli: Any, args: tuple[str, ...]) -> None:
    """Python refuses int() of more than 4300 digits with a ValueError: that was a traceback."""
    result = cli(*args, "9" * 5000)
    assert result.exit_code == 2
    assert "is far above the maximum of 100.000.000 ₫ for one payment." in result.stderr
    assert len(result.stderr) < 300  # the number is not echoed whole
