"""Regression cases from real photographs (../shared/realphotos, read in place): what
`pos-terminal scan-image` must read in them, with the expected text. Skipped, saying why, when
the corpus is not there."""

from __future__ import annotations

import pytest

from hardware import Decoded, decode_image
from tests.hardware.realphotos import expected, photo

CASES = [
    # (photo, turned by, symbology, expected text, what it guards)
    ("images/boofcv/monitor/image001.jpg", 0, "qr", "4376471154038",
     "a QR on a monitor filmed close: large soft modules, read only with downscaling"),
    ("images/boofcv/close/image007.jpg", 0, "qr",
     " ".join(["ABC 123456789"] * 15),
     "a phone held up to the lens: modules tens of pixels wide"),
    ("images/boofcv/blurred/image026.jpg", 0, "qr",
     "http://www.boschautoparts.com/qr/icon.aspx",
     "blurred: located but not decoded, read by the rescue's retry of that symbol"),
    ("images/zxing/qrcode-4/09.png", 0, "qr",
     "Google Print Ads - T.G.I.A.F. - January 31, 2008",
     "uneven light: read by the retry with a global-histogram threshold"),
    ("images/zxing-cpp/qrcode-2-extra/gs1-figure-4.15.1-2.png", 0, "qr",
     "01095040000591012112345678p901\x1d101234567p\x1d171411208200http://www.gs1.org/demo/",
     "the text as encoded (GS1 separators), not zxing-cpp's human-readable rendering"),
    ("images/zxing/code128-1/1.png", 90, "code128", "168901",
     "Code 128 turned 90 degrees (a phone held sideways)"),
    ("images/zxing/code128-2/01.webp", 20, "code128", "005-3379497200006",
     "Code 128 tilted 20 degrees: only the rescue's deskewed band reads it"),
    ("images/zxing/code128-2/01.webp", 45, "code128", "005-3379497200006",
     "Code 128 tilted 45 degrees"),
    ("images/zxing/code128-1/3.png", 45, "code128", "102030405060708090",
     "Code 128 with wide bars turned 45 degrees: its edges break into one region per group of "
     "bars at the finder's finest scale; the coarse scale and the band across the frame"),
    ("images/zxing/code128-2/09.webp", 45, "code128", "CNK8181G2C",
     "Code 128 turned 45 degrees beside print: the bars' direction from the region alone, "
     "not from its upright bounding box"),
    ("images/zxing/code128-1/4.png", 45, "code128", "123456",
     "Code 128 filling a large frame turned 45 degrees: found only at the finder's coarsest "
     "scale, which a finer scale too costly for the budget must not stop"),
    ("images/zxing/code128-2/37.webp", 45, "code128", "FGGQ6D1",
     "a small Code 128 label turned 45 degrees beside a grille: at the first density "
     "threshold they merge into one unoriented area; the second threshold separates them"),
    ("images/zxing/qrcode-2/28.webp", 0, "qr", "http://www.webtech.co.jp/k/",
     "zxing-cpp reads nothing; zbar does (the cascade)"),
]


@pytest.mark.parametrize(("file", "turn", "symbology", "text", "why"), CASES,
                         ids=[f"{c[0].split('/', 1)[1]}@{c[1]}" for c in CASES])
def test_real_photo_reads_its_text(file: str, turn: int, symbology: str, text: str,
                                   why: str) -> None:
    assert text in expected(file), "the test's text must be the manifest's truth"
    assert decode_image(photo(file, turn)) == [Decoded(text, symbology)], why


@pytest.mark.parametrize("file", ["images/zxing-cpp/falsepositives-2/18.webp",
                                  "images/zxing-cpp/falsepositives-1/issue245.png"])
def test_code_free_real_photo_yields_nothing(file: str) -> None:
    # 18.webp has a large barcode-like texture: the rescue pass looks at it and must read nothing
    assert expected(file) == []
    assert decode_image(photo(file)) == []
