"""Issue 32, items 1-3: X and Z reports, the shift's settlement slip and receipts as printed on
32, 42 and 48 columns in Vietnamese and English. The ESC/POS bytes the printer got (a `file:`
target) are decoded back to text: no line is wider than the paper, no amount is cut, labels
wrap, the shop's name and a header are there, dates are day first."""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from pos_terminal.base import i18n
from pos_terminal.base.clock import format_datetime
from pos_terminal.base.money import format_vnd
from pos_terminal.config import Settings
from pos_terminal.counter import open_checkout
from pos_terminal.counter.receipts import print_slip
from pos_terminal.journal import Journal
from pos_terminal.journal.reports import Report
from pos_terminal.receipts import LABELS, Shop, payment_receipt
from pos_terminal.receipts.service import receipt_bytes
from pos_terminal.tui.screens.shift import ShiftTotals
from pos_terminal.tui.slips import report_slip
from tests.checkout.conftest import wallet_code

SHOP_NAME = "Cà phê Sữa Đá Nguyễn Huệ"
CUT = b"\x1dV"
WIDTHS = (32, 42, 48)
# 28/11/2026 14:03:07 and 28/11/2026 22:10:45, Vietnam time
OPENED, CLOSED = 1795849387000, 1795878645000


@pytest.fixture(autouse=True)
def english_after() -> Iterator[None]:
    yield
    i18n.set_language("en")


def decoded(data: bytes) -> list[str]:
    """The text of one or more ESC/POS jobs as CP1258 (or ASCII) printed it."""
    out: list[str] = []
    for job in data.split(CUT):
        if not job.strip(b"\x00\x01A"):
            continue
        body = job.split(b"\x1b@", 1)[-1]
        assert body.startswith(b"\x1bt"), body[:8]  # the code page, then text: no raster
        text = body[3:].decode("cp1258")
        out += unicodedata.normalize("NFC", text).splitlines()
    return out


def paper(settings: Settings, tmp_path: Path, width: int) -> Settings:
    target = tmp_path / f"slip-{width}.bin"
    target.unlink(missing_ok=True)
    with_shop = settings.replace_section("shop", name=SHOP_NAME, address="12 Lê Lợi, Q.1")
    return with_shop.replace_section("printer", target=f"file:{target}", codepage="CP1258",
                                     width=width)


def printed(settings: Settings) -> list[str]:
    return decoded(Path(settings.printer.target.removeprefix("file:")).read_bytes())


def big_report(kind: str) -> Report:
    return Report(kind=kind, number=12 if kind == "z" else None, opened_ms=OPENED,
                  closed_ms=CLOSED if kind == "z" else None, generated_ms=CLOSED,
                  sales_count=1234, sales_amount=1_234_567_890, refunds_count=27,
                  refunds_amount=40_000_500, net_amount=1_194_567_390, failed_count=3,
                  refunds_failed_count=1, unresolved_count=2, unresolved_amount=105_000,
                  refunds_pending_count=1, refunds_pending_amount=5_000, needs_review_count=1,
                  late_count=1, late_amount=65_000, auto_returned_count=1,
                  auto_returned_amount=65_000, late_review_count=1)


def assert_on_paper(lines: list[str], width: int, amounts: list[int]) -> None:
    assert all(len(line) <= width for line in lines), [line for line in lines
                                                         if len(line) > width]
    text = "\n".join(lines)
    for amount in amounts:
        shown = format_vnd(amount)
        assert any(re.search(rf"(^|\s){re.escape(shown)}$", line) for line in lines), (
            shown, text)
    assert SHOP_NAME in text and "12 Lê Lợi, Q.1" in text
    assert not any(line.endswith("…") for line in lines)


@pytest.mark.parametrize("width", WIDTHS)
@pytest.mark.parametrize("language", ["vi", "en"])
@pytest.mark.parametrize("kind", ["x", "z"])
def test_reports_fit_the_paper(settings: Settings, tmp_path: Path, width: int, language: str,
                               kind: str) -> None:
    i18n.set_language(language)
    chosen = paper(settings, tmp_path, width)
    report = big_report(kind)
    outcome = print_slip(chosen, f"{kind}-report", report_slip(report, "counter1"))
    assert outcome.printed, outcome.message
    lines = printed(chosen)
    assert_on_paper(lines, width, [1_234_567_890, -40_000_500, 1_194_567_390, 105_000, 65_000])
    text = "\n".join(lines)
    title = ("Báo cáo Z số 12" if language == "vi" else "Z report #12") if kind == "z" else (
        "Báo cáo X" if language == "vi" else "X report")
    assert title in text
    # the period whole: both dates day first, never cut
    assert format_datetime(OPENED) in text and format_datetime(CLOSED) in text
    # every label's words are there, wrapped if need be (none cut off)
    words = "thực thu" if language == "vi" else "net"
    assert words in text
    note = ("kiểm tra trên trang quản lý của ví" if language == "vi"
            else "check the wallet's merchant portal")
    assert note in " ".join(line.strip() for line in lines)


@pytest.mark.parametrize("width", WIDTHS)
@pytest.mark.parametrize("language", ["vi", "en"])
def test_a_reprinted_z_is_marked(settings: Settings, tmp_path: Path, width: int,
                                 language: str) -> None:
    i18n.set_language(language)
    chosen = paper(settings, tmp_path, width)
    slip = report_slip(big_report("z"), "counter1", reprint=True, printed_ms=CLOSED + 86_400_000)
    assert print_slip(chosen, "z-12", slip).printed
    text = "\n".join(printed(chosen))
    assert LABELS[language].reprint in text
    assert format_datetime(CLOSED + 86_400_000) in text


@pytest.mark.parametrize("width", WIDTHS)
@pytest.mark.parametrize("language", ["vi", "en"])
def test_the_shift_slip_fits_the_paper(settings: Settings, tmp_path: Path, width: int,
                                       language: str) -> None:
    i18n.set_language(language)
    chosen = paper(settings, tmp_path, width)
    totals = ShiftTotals(7, "Nguyễn Thị Thu Hương (c-0042)", "counter1", OPENED,
                         {"quick_pay": (41, 987_654_321), "gateway": (2, 105_000)}, 3, 40_000,
                         987_719_321, 5, collected_otherwise=(1, 35_000))
    assert print_slip(chosen, "shift-7", totals.as_slip(CLOSED, signature=True)).printed
    lines = printed(chosen)
    assert_on_paper(lines, width, [987_654_321, 105_000, 987_759_321, -40_000, 987_719_321,
                                   35_000])
    # the part of a part-paid QR sale the cashier took in cash: in the till, said apart
    another = "thu cách khác" if language == "vi" else "another way"
    assert any(line.startswith(another) for line in lines), lines
    text = "\n".join(lines)
    joined = " ".join(line.strip() for line in lines)
    method = "Ví (quét mã của khách)" if language == "vi" else "Wallet (code scanned)"
    assert method in joined  # the closing bracket too: wrapped, not cut
    assert ("KẾT CA" if language == "vi" else "SHIFT SETTLEMENT") in text
    assert "Nguyễn Thị Thu Hương (c-0042)" in joined
    assert format_datetime(OPENED) in text and format_datetime(CLOSED) in text


def _paid(settings: Settings, emulator: Any, description: str) -> str:
    with open_checkout(settings) as co:
        view = co.pay(65_000, wallet_code(emulator, "an"), description=description)
    assert view.state.value == "succeeded"
    return view.app_trans_id


@pytest.mark.parametrize("width", WIDTHS)
@pytest.mark.parametrize("language", ["vi", "en"])
def test_a_sale_with_no_description_prints_payment_not_its_order_id(
        settings: Settings, emulator: Any, tmp_path: Path, width: int, language: str) -> None:
    app_trans_id = _paid(settings, emulator, "")
    chosen = paper(settings, tmp_path, width)
    with Journal.open(settings.terminal.journal) as journal:
        view = journal.get(app_trans_id)
    receipt = payment_receipt(view, shop=Shop(SHOP_NAME, "12 Lê Lợi, Q.1"),
                              terminal_id="counter1", cashier=None, width=width,
                              labels=LABELS[language])
    lines = decoded(receipt_bytes(receipt, chosen))
    assert_on_paper(lines, width, [65_000])
    item = "Thanh toán" if language == "vi" else "Payment"
    rule = lines.index("-" * width, lines.index("-" * width) + 1)  # the rule under the header
    assert lines[rule + 1].startswith(item) and lines[rule + 1].endswith(format_vnd(65_000))
    # the order id only on its own labelled line, whole
    assert sum(app_trans_id in line for line in lines) == 1
    assert not any(app_trans_id[:10] in line and app_trans_id not in line for line in lines)
    # the date as the screens say it: day first
    assert format_datetime(view.created_ms) in "\n".join(lines)
    assert re.search(r"\d{4}-\d{2}-\d{2}", "\n".join(lines)) is None


def test_a_long_description_wraps_and_keeps_its_amount(settings: Settings, emulator: Any,
                                                       tmp_path: Path) -> None:
    description = "Hai ly cà phê sữa đá và một bánh mì thịt nướng mang đi"
    app_trans_id = _paid(settings, emulator, description)
    chosen = paper(settings, tmp_path, 32)
    with Journal.open(settings.terminal.journal) as journal:
        view = journal.get(app_trans_id)
    receipt = payment_receipt(view, shop=Shop(SHOP_NAME, "12 Lê Lợi, Q.1"),
                              terminal_id="counter1", cashier=None, width=32,
                              labels=LABELS["vi"])
    lines = decoded(receipt_bytes(receipt, chosen))
    assert_on_paper(lines, 32, [65_000])
    assert description in " ".join(lines)
