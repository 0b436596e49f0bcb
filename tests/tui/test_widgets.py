"""The drawing widgets: a QR code drawn with half blocks must scan as the same text, and a
camera frame must come out at the size and colours asked for."""

from __future__ import annotations

import numpy as np
import pytest
import zxingcpp
from rich.color import Color
from textual.geometry import Size
from textual.strip import Strip

from pos_terminal.base.amounts import read_amount
from pos_terminal.base.money import format_vnd
from pos_terminal.base.reasons import Reason
from pos_terminal.emulator.zalopay.emvqr import emv_qr
from pos_terminal.tui.format import vn_time
from pos_terminal.tui.widgets.halfblock import UPPER_HALF, image_strips, matrix_strips
from pos_terminal.tui.widgets.qr import QrCode, drawn_size

BLACK = Color.from_rgb(0, 0, 0)


def strips_to_image(strips: list[Strip], module_px: int = 6) -> np.ndarray:
    """Read the terminal cells back as pixels: the half block's fg is the top, bg the bottom."""
    rows: list[list[bool]] = []
    for strip in strips:
        top: list[bool] = []
        bottom: list[bool] = []
        for segment in strip:
            assert segment.style is not None
            for ch in segment.text:
                assert ch == UPPER_HALF
                top.append(segment.style.color == BLACK)
                bottom.append(segment.style.bgcolor == BLACK)
        rows += [top, bottom]
    dark = np.array(rows, dtype=bool)
    img = np.where(dark, 0, 255).astype(np.uint8)
    return np.kron(img, np.ones((module_px, module_px), dtype=np.uint8))


@pytest.mark.parametrize("data", [
    "http://127.0.0.1:8765/gateway/order/3f9a0c1e2b7d4e55",
    "https://sbgateway.zalopay.vn/openinapp?order=eyJ6cHRyYW5zdG9rZW4iOiIyMTExMjEwMDAwMDA",
])
def test_qr_drawn_in_half_blocks_scans_as_the_order_url(data: str) -> None:
    qr = QrCode(data)
    image = strips_to_image(qr._strips)
    [found] = zxingcpp.read_barcodes(image)
    assert found.text == data
    assert found.format == zxingcpp.BarcodeFormat.QRCode


def test_qr_of_a_long_order_url_fits_an_80x24_terminal() -> None:
    data = ("https://qcgateway.zalopay.vn/openinapp?order=eyJ6cHRyYW5zdG9rZW4iOiIyMjExMjEwMDAwMD"
            "AzNTk1NzRhYnBqIiwiYXBwaWQiOjI1NTN9")
    qr = QrCode(data)
    assert len(qr._strips) == 23  # 41 modules + a quiet zone of 2: one row too many
    assert qr.fit(data, Size(78, 22)) and len(qr._strips) == 22  # quiet zone of 1
    [found] = zxingcpp.read_barcodes(np.pad(strips_to_image(qr._strips), 24,
                                            constant_values=255))
    assert found.text == data


def test_a_qr_that_does_not_fit_is_not_drawn_at_all() -> None:
    """Issue 39, item 4: never part of a code (the bottom finder pattern cut off)."""
    data = emv_qr("2553", 99_000, "261128_counter1_1020qv9a6rp")
    qr = QrCode()
    assert drawn_size(data) == Size(47, 24)  # version 7 (not 9: digits in numeric runs)
    assert not qr.fit(data, Size(78, 23)) and qr._strips == [] and qr.data == ""
    assert qr.get_content_height(Size(78, 23), Size(80, 24), 78) == 0
    assert qr.fit(data, Size(78, 24)) and len(qr._strips) == 24
    [found] = zxingcpp.read_barcodes(np.pad(strips_to_image(qr._strips), 24,
                                            constant_values=255))
    assert found.text == data


def test_matrix_with_odd_rows_is_padded_with_light_modules() -> None:
    strips = matrix_strips([[1, 0], [0, 1], [1, 1]])
    assert len(strips) == 2
    image = strips_to_image(strips, module_px=1)
    assert image.tolist() == [[0, 255], [255, 0], [0, 0], [255, 255]]


def test_camera_frame_fits_the_box_keeping_its_aspect() -> None:
    frame = np.zeros((480, 640, 3), dtype=np.uint8)
    frame[:, :320] = (0, 0, 255)      # BGR red on the left half
    frame[:, 320:] = (255, 0, 0)      # BGR blue on the right half
    strips = image_strips(frame, width=80, height=20)
    assert len(strips) == 20
    # 640x480 into 80 columns x 40 pixel rows: height bound, 53 columns wide.
    assert {strip.cell_length for strip in strips} == {53}
    first = list(strips[0])
    assert first[0].style is not None and first[-1].style is not None
    assert first[0].style.color == Color.from_rgb(255, 0, 0)
    assert first[-1].style.color == Color.from_rgb(0, 0, 255)


def test_grey_frame_and_empty_box() -> None:
    grey = np.full((100, 100), 136, dtype=np.uint8)
    [strip, *_] = image_strips(grey, width=10, height=5)
    segment = next(iter(strip))
    assert segment.style is not None and segment.style.color == Color.from_rgb(136, 136, 136)
    assert image_strips(grey, width=0, height=5) == []


@pytest.mark.parametrize("amount,text", [(0, "0 ₫"), (5, "5 ₫"), (50000, "50.000 ₫"),
                                         (1234567, "1.234.567 ₫"), (-20000, "-20.000 ₫")])
def test_vnd_format(amount: int, text: str) -> None:
    assert format_vnd(amount) == text


def test_parse_amount_and_vietnam_time() -> None:
    assert read_amount("50.000 ₫") == 50000
    assert isinstance(read_amount("12a"), Reason)
    # 2026-11-21 17:30:00 UTC is 00:30 the next day in Vietnam.
    assert vn_time(1_795_282_200_000) == "22/11/2026 00:30:00 (GMT+7)"
