"""The confirmation rule (hardware.decoders.confirm, issue 42): a rescued or resampled 1-D read
is returned only when a second, independent view of the code gives the same text; on still
pictures (`scan-image`, an `images:` source) as on the camera."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pytest

from bench.corpus import make_sample
from hardware import decode_image
from hardware.decoders import make_decoder
from hardware.decoders.base import to_gray
from hardware.decoders.confirm import confirmed_reads
from hardware.decoders.pyzbar import PyzbarDecoder
from hardware.decoders.rescue import barcode_regions, middle_band, upright_crop
from hardware.decoders.zxing import ZxingDecoder
from hardware.events import CodeFilter
from hardware.sources.factory import open_source
from tests.hardware.helpers import Sink

# issue 42's misread: a clean Code 128 at 1.44 px per module with this payload; zxing-cpp and
# zbar read nothing on the whole frame, and one scan line of zbar through the rescue's band
# read another valid-looking payment code
PAYLOAD = "8491842942526626975"
SEED = 69  # the counter (bench/corpus.py) on which zbar's band read gives the wrong digits


def _frame() -> np.ndarray:
    sample = make_sample(np.random.default_rng(SEED), "clean", "720p", "code128",
                         text=PAYLOAD, px_per_module=1.44)
    return sample.image


def _band(gray: np.ndarray) -> np.ndarray:
    region = barcode_regions(gray, 2, 2)[0]
    return middle_band(upright_crop(gray, region, rows=64))


def test_the_frame_of_the_misread_is_read_right_or_not_at_all() -> None:
    gray = to_gray(_frame())
    assert make_decoder(rescue=False).decode(gray) == []  # the primary pass reads nothing
    texts = [d.text for d in decode_image(gray)]
    assert texts in ([], [PAYLOAD])
    assert texts == [PAYLOAD]  # resampled and confirmed: read right


def test_one_view_saying_two_texts_confirms_neither() -> None:
    band = _band(to_gray(_frame()))
    zbar = PyzbarDecoder(("code128",))
    said = {d.text for d in zbar.decode(band)}
    assert PAYLOAD in said and len(said) == 2  # one band, two texts: one of them is wrong
    assert confirmed_reads([band], [zbar], lambda pixels: pixels < 0) == []  # no budget


def test_a_band_read_is_returned_once_another_decoder_agrees() -> None:
    band = _band(to_gray(_frame()))
    zxing = ZxingDecoder(("code128",), try_rotate=False, try_downscale=False)
    zbar = PyzbarDecoder(("code128",))
    assert zxing.decode(band) == []  # zxing-cpp reads the band only resampled
    found = confirmed_reads([band], [zbar, zxing], lambda pixels: True)
    assert [(d.text, d.symbology) for d in found] == [(PAYLOAD, "code128")]


# zbar swaps the same two symbols of this code at every scale when it is blurred (the phone
# bench, bench/bench_phone128.py): one decoder at two scales is not an independent read
SWAPPED = "404158529435607784612566"
ZBAR_SAYS = "404158529402607784612531"


@pytest.mark.parametrize("seed", [25, 103, 119])
def test_one_decoder_at_two_scales_does_not_confirm_itself(seed: int) -> None:
    sample = make_sample(np.random.default_rng(seed), "phone", "720p", "code128",
                         text=SWAPPED, px_per_module=1.65, angle_deg=18.7)
    gray = to_gray(sample.image)
    zbar = PyzbarDecoder(("code128",))
    band = _band(gray)
    stretched = cv2.resize(band, None, fx=2.0, fy=1.0, interpolation=cv2.INTER_CUBIC)
    assert ZBAR_SAYS in {d.text for d in zbar.decode(band) + zbar.decode(stretched)}
    assert [d.text for d in decode_image(gray)] in ([], [SWAPPED])


def test_a_picture_folder_never_turns_the_misread_into_an_event(tmp_path: Path) -> None:
    cv2.imwrite(str(tmp_path / "phone.png"), _frame())
    source = open_source(f"images:{tmp_path}", code_filter=CodeFilter())
    sink = Sink()
    source.start(sink.on_event, sink.on_status)
    try:
        assert sink.wait_events(1), "the code was not read"
    finally:
        source.stop()
    assert sink.texts() == [(PAYLOAD, "code128")]


@pytest.mark.parametrize("seed", [69, 190, 360])
def test_frames_zbar_misread_are_not_misread(seed: int) -> None:
    sample = make_sample(np.random.default_rng(seed), "clean", "720p", "code128",
                         text=PAYLOAD, px_per_module=1.44)
    assert [d.text for d in decode_image(sample.image)] in ([], [PAYLOAD])


# zxing-cpp's primary pass itself, two scan lines agreeing, misread this code at 1.36 px per
# module (the phone bench): a thin 1-D read from the primary pass needs a second read too
THIN = "6308912179892318"


@pytest.mark.parametrize("seed", [85, 343, 395])
def test_a_thin_primary_read_needs_a_second_read(seed: int) -> None:
    sample = make_sample(np.random.default_rng(seed), "phone", "720p", "code128",
                         text=THIN, px_per_module=1.36, angle_deg=-1.2)
    gray = to_gray(sample.image)
    assert any(d.text != THIN for d in ZxingDecoder().decode(gray))  # the primary misreads
    assert [d.text for d in decode_image(gray)] in ([], [THIN])
    camera = make_decoder(code_filter=CodeFilter())
    assert [d.text for d in camera.decode(gray)] in ([], [THIN])
