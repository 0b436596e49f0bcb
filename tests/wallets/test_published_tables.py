"""Each wallet's code table against its published page: the markdown tables of the specs are
parsed, so a published row missing from the code (or read another way) fails here.

The specs live outside the repository (shared/spec); `tests/wallets/published/` keeps a verbatim
copy of their code sections, checked against the specs whenever they are there."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from pos_terminal.wallets.code_table import CodeClass, Operation
from pos_terminal.wallets.momo import codes
from pos_terminal.wallets.zalopay.code_table import TABLES

HERE = Path(__file__).parent / "published"
SHARED = Path(__file__).resolve().parents[2].parent / "shared" / "spec"
#: MoMo's codes that answer a refund (the rest answer a payment or its status query)
MOMO_REFUND_CODES = frozenset({1080, 1081, 1088})


def _rows(text: str, heading: str) -> list[list[str]]:
    """The cells of the first markdown table under `heading` (its header row left out)."""
    section = text[text.index(heading):]
    rows: list[list[str]] = []
    for line in section.splitlines()[1:]:
        if line.startswith("|"):
            cells = [c.strip() for c in line.strip().strip("|").split("|")]
            if not set("".join(cells)) <= set("-: "):
                rows.append(cells)
        elif rows:
            break
    return rows[1:]


def _momo_table() -> list[tuple[int, str, str]]:
    rows = _rows((HERE / "momo.md").read_text(encoding="utf-8"), "## Result codes")
    return [(int(code), meaning, final) for code, meaning, final in rows]


def test_the_copies_are_the_specs_own_words() -> None:
    if not SHARED.is_dir():
        pytest.skip("shared/spec is not beside this checkout")
    copy = (HERE / "momo.md").read_text(encoding="utf-8").split("\n", 2)[2]
    assert copy.strip() in (SHARED / "momo.md").read_text(encoding="utf-8")
    notes = (SHARED / "wallet-api-notes.md").read_text(encoding="utf-8")
    for part in (HERE / "zalopay.md").read_text(encoding="utf-8").split("\n", 2)[2].split(
            "\n## "):
        assert part.strip().removeprefix("## ") in notes


def test_momo_s_whole_published_table_is_in_the_code() -> None:
    published = _momo_table()
    assert len(published) == 37  # the page's 36 codes and 8000 (older pages): none cut off
    for code, meaning, final in published:
        operation = Operation.REFUND if code in MOMO_REFUND_CODES else Operation.QUICK_PAY
        row = codes.TABLE.classify(operation, code)
        assert row.published, f"MoMo {code} ({meaning}) is not in codes.py"
        assert row.source == codes.RESULT_PAGE and row.meaning_vi, code
        if final == "yes":
            assert codes.is_final(row), f"MoMo {code} ({meaning}) is final"
        elif final.startswith("yes"):  # 99: final, but "says nothing about where the money is"
            assert row.cls is CodeClass.NO_INFORMATION, code
        else:
            assert final == "no" and not codes.is_final(row), f"MoMo {code} is not final"
        if operation is Operation.QUICK_PAY:
            status = codes.TABLE.classify(Operation.STATUS, code)
            assert (status.cls, status.published) == (row.cls, True), code


def test_every_momo_row_in_the_code_is_published() -> None:
    published = {code for code, _meaning, _final in _momo_table()}
    assert {row.code for row in codes.TABLE} <= published


@pytest.mark.parametrize("code", [98, 1004, 1005, 1006, 1007, 1017, 1026, 2019, 4001, 4002,
                                  4100])
def test_momo_s_final_declines_prove_nothing_was_charged(code: int) -> None:
    for operation in (Operation.QUICK_PAY, Operation.STATUS):
        assert codes.TABLE.classify(operation, code).cls is CodeClass.NOT_CHARGED


def _zalopay_codes(text: str) -> set[int]:
    return {int(cells[0]) for cells in _rows(text, "## Return codes seen in public material")}


def _bullet(text: str, label: str) -> set[int]:
    """The codes of one bullet of the spec's "codes the service publishes" list."""
    start = text.index(f"- {label}:")
    end = re.compile(r"\n(?! )").search(text, start + 1)
    bullet = text[start:end.start() if end else None]
    bullet = re.sub(r'"[^"]*"|\([^)]*\)', "", bullet)  # quoted words and asides hold numbers
    return {int(n) for n in re.findall(r"(?<![\w.])-?\d+(?=\s)", bullet)}


def test_zalopay_s_published_codes_are_all_in_the_code() -> None:
    text = (HERE / "zalopay.md").read_text(encoding="utf-8")
    v2, v001 = TABLES["v2"], TABLES["v001"]
    v2_codes = {key[1] for key in v2.rows} | {key[2] for key in v2.rows if key[2] is not None}
    for code in _zalopay_codes(text):
        assert code in v2_codes or (code, None) in {k[1:] for k in v001.rows}, code
    for operation in (Operation.STATUS, Operation.REFUND_STATUS):
        for code in _bullet(text, "return codes"):
            assert (operation, code, None) in v2.rows or code == 2, (operation, code)
        for sub in _bullet(text, "sub codes") - {1}:
            assert (operation, 2, sub) in v2.rows, (operation, sub)
    for sub in _bullet(text, "For order creation"):
        assert (Operation.GATEWAY_ORDER, 2, sub) in v2.rows, sub


@pytest.mark.parametrize(("code", "cls"), [
    (1, CodeClass.PAID), (3, CodeClass.PROCESSING), (-54, CodeClass.NOT_CHARGED),
    (-63, CodeClass.NOT_CHARGED), (-217, CodeClass.NOT_CHARGED), (-322, CodeClass.NOT_CHARGED),
    (-329, CodeClass.NOT_CHARGED), (-101, CodeClass.NOT_FOUND),
    (-429, CodeClass.NO_INFORMATION), (-500, CodeClass.NO_INFORMATION),
    (-999, CodeClass.NO_INFORMATION)])
def test_zalopay_s_codes_read_on_a_status_query_as_published(code: int, cls: CodeClass) -> None:
    sub = code if code < 0 else None
    row = TABLES["v2"].classify(Operation.STATUS, 2 if sub is not None else code, sub)
    assert row.cls is cls
    assert TABLES["v001"].classify(Operation.STATUS, code).cls is cls
