"""Decoding real rendered images (segno, python-barcode, our renderer) distorted with OpenCV."""

from __future__ import annotations

from pathlib import Path

import barcode
import cv2
import numpy as np
import pytest
import segno
from barcode.writer import ImageWriter

from hardware import CodeFilter, Decoded, ImageUnreadable, decode_image, make_decoder
from hardware.decoders.rescue import barcode_regions
from hardware.decoders.zxing import ZxingDecoder
from hardware.render import (
    cluttered_background,
    code128_modules,
    layout_phone,
    place,
    python_barcode_modules,
    qr_modules,
    render_code128,
    render_qr,
)
from tests.hardware.helpers import CODE_A, CODE_B


def _on_counter(symbol: np.ndarray, *, angle: float = 0.0, seed: int = 1,
                size: tuple[int, int] = (1280, 720)) -> np.ndarray:
    """A grayscale symbol pasted (rotated) onto a cluttered counter frame."""
    rng = np.random.default_rng(seed)
    background = cluttered_background(rng, *size)
    frame = place(symbol, background, center=(size[0] / 2, size[1] / 2), angle_deg=angle)
    return cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY)


def _qr(text: str, module_px: int = 4) -> np.ndarray:
    return render_qr(text, module_px)


def _bars(text: str, module_px: int = 3) -> np.ndarray:
    return render_code128(text, module_px)


# ---- images written by the libraries themselves, read from disk ------------------------------

def test_segno_png_file_decodes_to_its_text(tmp_path: Path) -> None:
    path = tmp_path / "qr.png"
    segno.make(CODE_A, micro=False).save(str(path), scale=5)
    assert decode_image(path) == [Decoded(CODE_A, "qr")]


@pytest.mark.parametrize("decoder", ["zxing", "pyzbar"])
def test_micro_qr_is_not_a_wallet_code(tmp_path: Path, decoder: str) -> None:
    # segno draws an 18-digit code as Micro QR unless told micro=False; a wallet app shows a
    # standard QR, and the terminal reads only QR (Model 2) and Code 128
    micro = segno.make(CODE_A)
    assert micro.is_micro
    path = tmp_path / "micro.png"
    micro.save(str(path), scale=8, border=4)
    assert decode_image(path, decoder) == []
    assert make_decoder(decoder, rescue=False).decode(cv2.imread(str(path), 0)) == []
    standard = tmp_path / "standard.png"
    segno.make(CODE_A, micro=False).save(str(standard), scale=8, border=4)
    assert decode_image(standard, decoder) == [Decoded(CODE_A, "qr")]


def test_our_qr_renderer_draws_a_standard_qr() -> None:
    assert qr_modules(CODE_A).shape[0] >= 21  # Micro QR is at most 17 modules a side


def test_python_barcode_png_file_decodes_to_its_text(tmp_path: Path) -> None:
    written = barcode.Code128(CODE_B, writer=ImageWriter()).save(
        str(tmp_path / "bars"), options={"module_width": 0.3, "write_text": False})
    assert decode_image(written) == [Decoded(CODE_B, "code128")]


def test_our_code128_renderer_matches_python_barcode_where_that_is_correct() -> None:
    assert np.array_equal(code128_modules(CODE_A), python_barcode_modules(CODE_A))


def test_our_renderer_encodes_a_leading_99_that_python_barcode_drops() -> None:
    text = "990810453812903007"
    padded = np.pad(_bars(text), 30, constant_values=255)
    assert ZxingDecoder().decode(padded) == [Decoded(text, "code128")]
    python_barcode = np.pad(np.tile(np.repeat(np.where(python_barcode_modules(text), 0, 255)
                                              .astype(np.uint8), 3), (80, 1)), 30,
                            constant_values=255)
    assert ZxingDecoder().decode(python_barcode) == [Decoded(text[2:], "code128")]


# ---- distortions ----------------------------------------------------------------------------

def _rotate_90(gray: np.ndarray) -> np.ndarray:
    return cv2.rotate(gray, cv2.ROTATE_90_CLOCKWISE)


def _blur(gray: np.ndarray) -> np.ndarray:
    return cv2.GaussianBlur(gray, (0, 0), 1.2)


def _invert(gray: np.ndarray) -> np.ndarray:
    return 255 - gray


CASES = [
    ("qr", "upright", lambda: _on_counter(_qr(CODE_A))),
    ("qr", "rotated 37 deg", lambda: _on_counter(_qr(CODE_A), angle=37)),
    ("qr", "blurred", lambda: _blur(_on_counter(_qr(CODE_A, 5)))),
    ("qr", "small, 2 px per module", lambda: _on_counter(_qr(CODE_A, 2))),
    ("qr", "sideways phone", lambda: _rotate_90(_on_counter(_qr(CODE_A)))),
    ("qr", "inverted, light on dark", lambda: _invert(_on_counter(_qr(CODE_A)))),
    ("code128", "upright", lambda: _on_counter(_bars(CODE_A))),
    ("code128", "tilted 25 deg", lambda: _on_counter(_bars(CODE_A), angle=25)),
    ("code128", "tilted -18 deg", lambda: _on_counter(_bars(CODE_A), angle=-18)),
    ("code128", "blurred", lambda: _blur(_on_counter(_bars(CODE_A, 4)))),
    ("code128", "small, 2 px per module", lambda: _on_counter(_bars(CODE_A, 2))),
    ("code128", "sideways phone", lambda: _rotate_90(_on_counter(_bars(CODE_A)))),
    ("code128", "inverted, light on dark", lambda: _invert(_on_counter(_bars(CODE_A)))),
]


@pytest.mark.parametrize(("symbology", "label", "make"), CASES,
                         ids=[f"{c[0]}-{c[1]}" for c in CASES])
def test_default_decoder_reads_distorted_frames(symbology: str, label: str, make) -> None:
    found = decode_image(make())
    assert found == [Decoded(CODE_A, symbology)], label


@pytest.mark.parametrize("name", ["pyzbar", "pyzbar-all"])
def test_pyzbar_decoders_read_the_same_frames(name: str) -> None:
    frame = _on_counter(np.vstack([_qr(CODE_B), np.full((40, 1), 255, np.uint8)
                                   .repeat(_qr(CODE_B).shape[1], axis=1)]))
    assert decode_image(frame, name) == [Decoded(CODE_B, "qr")]
    assert decode_image(_on_counter(_bars(CODE_B)), name) == [Decoded(CODE_B, "code128")]


def test_tilted_code128_needs_the_rescue_pass() -> None:
    frame = _on_counter(_bars(CODE_A, 3), angle=28, seed=5)
    assert decode_image(frame, rescue=False) == []
    assert decode_image(frame, rescue=True) == [Decoded(CODE_A, "code128")]


def test_rescue_finds_one_region_across_the_bars_and_none_on_a_bare_counter() -> None:
    frame = _on_counter(_bars(CODE_A, 3), angle=20, seed=3)
    regions = barcode_regions(frame)
    assert len(regions) == 1
    # the normal across the bars follows the tilt of the code
    assert abs(regions[0].angle_deg - 20) < 4
    bare = cv2.cvtColor(cluttered_background(np.random.default_rng(3), 1280, 720),
                        cv2.COLOR_BGR2GRAY)
    assert barcode_regions(bare) == []


def test_phone_with_both_codes_gives_both_reads() -> None:
    phone, boxes = layout_phone(CODE_B, qr_module_px=4, bar_module_px=2)
    assert len(boxes) == 2
    found = decode_image(phone)
    assert sorted(found, key=lambda d: d.symbology) == [Decoded(CODE_B, "code128"),
                                                         Decoded(CODE_B, "qr")]


def test_empty_counter_reads_nothing() -> None:
    frame = cluttered_background(np.random.default_rng(11), 1280, 720)
    assert decode_image(frame) == []


def test_unknown_decoder_is_refused_with_the_names_that_exist() -> None:
    with pytest.raises(ValueError, match="unknown decoder 'zbar': use one of zxing, pyzbar"):
        make_decoder("zbar")


def test_missing_and_non_image_files_are_reported(tmp_path: Path) -> None:
    with pytest.raises(ImageUnreadable, match="no such file"):
        decode_image(tmp_path / "nope.png")
    text = tmp_path / "notes.png"
    text.write_text("not a picture")
    with pytest.raises(ImageUnreadable, match="not an image OpenCV can read"):
        decode_image(text)


# ---- the code filter ------------------------------------------------------------------------

def test_code_filter_defaults_accept_16_to_24_digits_only() -> None:
    f = CodeFilter()
    assert f.accepts("1" * 16) and f.accepts("9" * 24)
    assert not f.accepts("1" * 15)
    assert not f.accepts("1" * 25)
    assert not f.accepts("12345678901234567a")
    assert not f.accepts("https://example.com/1234567890123")


def test_code_filter_alphabet_and_range_are_configurable() -> None:
    f = CodeFilter(alphabet="ABCDEF0123456789", min_length=4, max_length=6)
    assert f.accepts("BEEF") and f.accepts("C0FFEE")
    assert not f.accepts("beef")
    assert not f.accepts("C0FFEE1")


def test_code_filter_refuses_an_empty_range() -> None:
    with pytest.raises(ValueError, match=r"length range 20\.\.10 is empty"):
        CodeFilter(min_length=20, max_length=10)


# ---- the default decoder --------------------------------------------------------------------

def test_make_decoder_without_arguments_is_the_default_configurations_decoder(
        tmp_path: Path) -> None:
    from hardware import open_source
    from pos_terminal.config import ScannerSettings

    scanner = ScannerSettings()  # what a config file that says nothing about the scanner gives
    source = open_source(f"images:{tmp_path}", decoder=scanner.decoder, rescue=scanner.rescue)
    configured = source.decoder  # type: ignore[attr-defined]
    # the source hands the decoder its acceptor's code filter (the cascade's payment-code check)
    default = make_decoder(code_filter=CodeFilter(scanner.code_alphabet, scanner.code_min_length,
                                                  scanner.code_max_length))
    assert type(default) is type(configured)
    assert default.options() == configured.options()  # type: ignore[attr-defined]
    assert default.name == configured.name
    # and it is the tuned one: zxing-cpp with downscaling and rotation, then the rescue pass
    rescue = default.options()["rescue"]  # type: ignore[attr-defined]
    primary_name, primary = rescue["primary"]
    assert primary_name == "zxing"
    assert primary["try_downscale"] is True and primary["try_rotate"] is True


def test_the_rescue_pass_is_capped_by_its_budget() -> None:
    # the rescue may only do a bounded amount of work per frame (pixels decoded); with none
    # allowed, a tilted Code 128 that only the rescue reads stays unread
    frame = _on_counter(_bars(CODE_A, 3), angle=28, seed=5)
    assert make_decoder(budget=0.0).decode(frame) == []
    assert make_decoder().decode(frame) == [Decoded(CODE_A, "code128")]
