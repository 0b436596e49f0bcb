"""Issue 39, item 5: slips printed as pictures (`[printer] pictures`, and the raster image an
ESC/POS printer without a Vietnamese code page gets) say their Vietnamese right. Read back as a
person reads them, with Tesseract's Vietnamese OCR: every letter with two marks drawn whole on
its own character ("Quầy", never "Quâỳ")."""

from __future__ import annotations

import dataclasses
import shutil
import subprocess
import unicodedata
from pathlib import Path
from typing import Any

import pytest
from PIL import Image

from pos_terminal.base import i18n
from pos_terminal.config import DEFAULT_RECEIPT_FONT, Settings
from pos_terminal.counter import open_checkout
from pos_terminal.counter.receipts import print_slip, save_picture
from pos_terminal.journal import Journal
from pos_terminal.receipts import VIETNAMESE, Receipt, Shop, encode_cp1258, payment_receipt
from pos_terminal.receipts.printing import to_escpos
from pos_terminal.receipts.raster import CellFonts
from pos_terminal.tui.slips import report_slip
from tests.checkout.conftest import wallet_code
from tests.processes import child_env
from tests.receipts.test_paper_slips import big_report

pytestmark = pytest.mark.skipif(
    shutil.which("tesseract") is None, reason="needs tesseract-ocr and tesseract-ocr-vie")

SHOP = Shop("Cà phê Đồng Khởi", "12 Lê Lợi, Q.1")
CASHIER = "Nguyễn Thị Lan"
RASTER = b"\x1dv0"
LOWER = "aàáảãạăằắẳẵặâầấẩẫậeèéẻẽẹêềếểễệiìíỉĩịoòóỏõọôồốổỗộơờớởỡợuùúủũụưừứửữựyỳýỷỹỵđ"


@pytest.fixture(autouse=True)
def english_after() -> Any:
    yield
    i18n.set_language("en")


def ocr(picture: Path | Image.Image, tmp_path: Path) -> str:
    """The picture's text as Tesseract reads it in Vietnamese, composed (NFC)."""
    if isinstance(picture, Image.Image):
        path = tmp_path / "read.png"
        picture.save(path)
        picture = path
    # one thread: the machine's cores are the other test workers'
    out = subprocess.run(["tesseract", str(picture), "-", "-l", "vie", "--psm", "6"],
                         env=child_env(OMP_THREAD_LIMIT="1"), capture_output=True, text=True,
                         check=True, timeout=120).stdout
    return unicodedata.normalize("NFC", out)


def receipt_of_a_payment(settings: Settings, emulator: Any) -> Receipt:
    with open_checkout(settings) as co:
        view = co.pay(65_000, wallet_code(emulator, "an"))
    with Journal.open(settings.terminal.journal) as journal:
        return payment_receipt(journal.get(view.app_trans_id), shop=SHOP,
                               terminal_id="counter1", cashier=CASHIER, width=42,
                               labels=VIETNAMESE)


def raster_of(data: bytes) -> Image.Image:
    """The GS v 0 image in ESC/POS bytes, as the printer puts it on paper."""
    at = data.index(RASTER) + len(RASTER) + 1  # after m
    across, rows = int.from_bytes(data[at:at + 2], "little"), int.from_bytes(
        data[at + 2:at + 4], "little")
    bits = data[at + 4:at + 4 + across * rows]
    # a set bit prints a dot (black); PIL's "1" mode has 1 = white
    return Image.frombytes("1", (across * 8, rows), bytes(b ^ 0xFF for b in bits))


def test_a_receipt_picture_reads_back_in_vietnamese(settings: Settings, emulator: Any,
                                                    tmp_path: Path) -> None:
    receipt = receipt_of_a_payment(settings, emulator)
    chosen = settings.replace_section("printer", pictures=str(tmp_path / "slips"))
    picture = save_picture(chosen, receipt.subject_id, receipt.lines)
    assert picture
    text = ocr(Path(picture), tmp_path)
    for word in ("PHIẾU", "Quầy", "Đồng", "Nguyễn"):
        assert word in text, (word, text)
    assert "Quâỳ" not in text and "Nguyêñ" not in text


def test_a_z_slip_picture_reads_back_in_vietnamese(settings: Settings, tmp_path: Path) -> None:
    i18n.set_language("vi")
    chosen = settings.replace_section("shop", name=SHOP.name, address=SHOP.address)
    chosen = chosen.replace_section("printer", target=f"file:{tmp_path / 'z.bin'}",
                                    pictures=str(tmp_path / "slips"))
    report = big_report("z")
    report = dataclasses.replace(report, number=1)
    outcome = print_slip(chosen, "z-1", report_slip(report, "counter1"))
    assert outcome.printed, outcome.message
    [picture] = (tmp_path / "slips").glob("*.png")
    text = ocr(picture, tmp_path)
    assert "số 1" in text, text
    assert "Đồng" in text and "Quầy" in text, text


def test_the_raster_a_printer_gets_reads_back_and_cp1258_keeps_the_letters(
        settings: Settings, emulator: Any, tmp_path: Path) -> None:
    receipt = receipt_of_a_payment(settings, emulator)
    data = to_escpos(receipt, codepage="", font_path=DEFAULT_RECEIPT_FONT, width=42)
    assert data.count(RASTER) == 1
    text = ocr(raster_of(data), tmp_path)
    for word in ("PHIẾU", "Quầy", "Đồng", "Nguyễn"):
        assert word in text, (word, text)
    # the code page path: the same letters as CP1258 bytes come back the same
    text = to_escpos(receipt, codepage="CP1258", font_path=DEFAULT_RECEIPT_FONT, width=42)
    printed = unicodedata.normalize("NFC", text[5:].decode("cp1258"))
    for word in ("PHIẾU", "Quầy", "Đồng", "Nguyễn", "số 1"):
        assert unicodedata.normalize("NFC", encode_cp1258(word).decode("cp1258")) == word
    assert printed.startswith(receipt.text)


def test_every_vietnamese_letter_is_drawn_from_a_font_that_has_it() -> None:
    fonts = CellFonts(DEFAULT_RECEIPT_FONT, 22)
    lacking = [c for c in LOWER + LOWER.upper() if not any(
        fonts.has(i, c) for i in range(len(fonts.fonts)))]
    assert lacking == []
    # the slip's own font lacks some (DejaVu Sans Mono: "ầ"); they come from the fallback
    assert not fonts.has(0, "ầ") and fonts.font_for("ầ") is fonts.fonts[1]
    assert fonts.font_for("a") is fonts.fonts[0]
