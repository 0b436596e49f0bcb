"""The wallets page's Code 128 barcodes carry exactly the payment code, a leading "99" included.

Each rendered SVG is rasterised from its own <rect> elements and decoded by zxing-cpp and (when
libzbar is there) by zbar: what a camera would read, not what the encoder meant to draw.
"""

from __future__ import annotations

import random
import re
from typing import Any

import numpy as np
import pytest
import zxingcpp

from pos_terminal.emulator import barcodes

_RECT = re.compile(r'<rect x="(\d+)" y="0" width="(\d+)" height="\d+"/>')
_VIEWBOX = re.compile(r'viewBox="0 0 (\d+) (\d+)"')


def _raster(svg: str) -> np.ndarray:
    """The SVG's bars drawn on white, 2 px per SVG unit, as a grayscale image."""
    size = _VIEWBOX.search(svg)
    assert size is not None
    width, height = int(size.group(1)), int(size.group(2))
    row = np.full(width, 255, dtype=np.uint8)
    bars = _RECT.findall(svg.split('<g fill="#000">', 1)[1])
    assert bars
    for x, w in bars:
        row[int(x):int(x) + int(w)] = 0
    return np.ascontiguousarray(np.tile(np.repeat(row, 2), (height, 1)))


def _zbar(image: np.ndarray) -> list[str] | None:
    try:
        from pyzbar import pyzbar
    except ImportError:  # libzbar0 missing: zxing-cpp alone decides
        return None
    from PIL import Image

    return [r.data.decode("ascii") for r in pyzbar.decode(Image.fromarray(image))]


def _codes() -> list[str]:
    rng = random.Random(20261123)
    codes = [f"{rng.randrange(10**18):018d}" for _ in range(150)]
    codes += ["99" + f"{rng.randrange(10**16):016d}" for _ in range(100)]
    codes += ["990810453812903007", "999999999999999999", "990000000000000000",
              "000000000000000099", "099999999999999999"]
    return codes


def test_random_payment_codes_decode_back_to_the_same_digits() -> None:
    wrong: list[tuple[str, Any]] = []
    for code in _codes():
        svg = barcodes.code128_svg(code)
        assert svg is not None, code
        image = _raster(svg)
        read = [r.text for r in zxingcpp.read_barcodes(image)
                if r.format == zxingcpp.BarcodeFormat.Code128]
        if read != [code]:
            wrong.append((code, read))
        by_zbar = _zbar(image)
        if by_zbar is not None and by_zbar != [code]:
            wrong.append((code, by_zbar))
    assert wrong == []


def test_a_symbol_that_does_not_read_back_is_left_off(monkeypatch: pytest.MonkeyPatch) -> None:
    # python-barcode 0.16's pattern for a leading "99": it reads as the code without the "99"
    import barcode

    code = "990810453812903007"
    pattern = [ch == "1" for ch in barcode.Code128(code).build()[0]]
    assert barcodes.reads_back(pattern, code[2:])  # the defect this module exists for
    monkeypatch.setattr(barcodes, "code128_modules", lambda text: pattern)
    assert barcodes.code128_svg(code) is None


def test_the_wallets_page_shows_a_readable_barcode_for_every_wallet(emulator: Any) -> None:
    import requests

    page = requests.get(emulator.base_url + "/wallets", timeout=5).text
    wallets = requests.get(emulator.base_url + "/_emulator/wallets", timeout=5).json()["wallets"]
    svgs = re.findall(r'<div class="barcode">(<svg.*?</svg>)</div>', page)
    assert len(svgs) == len(wallets)
    read = set()
    for svg in svgs:
        read.update(r.text for r in zxingcpp.read_barcodes(_raster(svg)))
    assert read == {w["code"] for w in wallets}
