"""The decoder cascade (hardware.decoders.cascade): other decoder families on frames the
primary pass reads nothing in, the camera's schedule for them, the code filter's say."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from hardware import CodeFilter, Decoded, decode_image, make_decoder
from hardware.decoders import PACED_BUDGET, RESCUE_BUDGET, CascadeDecoder
from hardware.decoders.base import Decoder
from hardware.decoders.opencv import OpenCvQrDecoder
from hardware.decoders.zxing import ZxingDecoder
from hardware.render import cluttered_background, place, render_code128, render_qr
from tests.hardware.helpers import CODE_A
from tests.hardware.realphotos import expected, photo

# zxing-cpp reads nothing in this photo; zbar and OpenCV's ArUco-based detector read it
ONLY_OTHERS = "images/zxing/qrcode-2/28.webp"


def _counter(symbol: np.ndarray | None, seed: int) -> np.ndarray:
    rng = np.random.default_rng(seed)
    frame = cluttered_background(rng, 1280, 720)
    if symbol is not None:
        frame = place(symbol, frame, center=(640, 360), angle_deg=8)
    return cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY)


@pytest.mark.parametrize("detector", ["aruco", "classic"])
def test_opencv_reads_a_qr_on_a_counter(detector: str) -> None:
    found = OpenCvQrDecoder(detector).decode(_counter(render_qr(CODE_A, 5), seed=3))
    assert [(d.text, d.symbology) for d in found] == [(CODE_A, "qr")]
    assert found[0].box is not None


def test_opencv_refuses_an_unknown_detector() -> None:
    with pytest.raises(ValueError, match="unknown QR detector 'wechat'"):
        OpenCvQrDecoder("wechat")


def test_a_photo_only_other_decoders_read_is_read_by_the_cascade() -> None:
    gray = photo(ONLY_OTHERS)
    text = expected(ONLY_OTHERS)[0]
    assert ZxingDecoder().decode(gray) == []  # the primary pass alone leaves it unread
    assert decode_image(gray) == [Decoded(text, "qr")]


def test_the_camera_asks_another_family_on_one_empty_frame_in_every() -> None:
    gray = photo(ONLY_OTHERS)
    text = expected(ONLY_OTHERS)[0]
    camera = make_decoder(every=3, located_every=None)
    assert isinstance(camera, CascadeDecoder)
    reads = [camera.decode(gray) for _ in range(3)]
    assert reads[:2] == [[], []]
    assert reads[2] == [Decoded(text, "qr")]
    assert camera.last_stage == "pyzbar"  # the first family in turn; the next frame asks OpenCV


def test_a_read_the_code_filter_refuses_does_not_count() -> None:
    gray = photo(ONLY_OTHERS)  # a URL: not a payment code
    assert make_decoder(every=1, code_filter=CodeFilter()).decode(gray) == []
    assert make_decoder(every=1).decode(gray) != []


def test_the_cascade_reads_nothing_on_an_empty_counter() -> None:
    # every family on every frame (a still picture's cascade), no code filter: nothing made up
    decoder = make_decoder(every=1)
    for seed in range(6):
        assert decoder.decode(_counter(None, seed)) == [], f"seed {seed}"


def test_the_cascade_rejects_a_bad_schedule() -> None:
    with pytest.raises(ValueError, match="at least 1"):
        make_decoder(every=0)


class _Counting:
    """A crop decoder that adds up the pixels it is given."""

    def __init__(self, inner: Decoder, pixels: list[int]) -> None:
        self.inner, self.name, self.pixels = inner, inner.name, pixels

    def decode(self, image: np.ndarray) -> list[Decoded]:
        self.pixels.append(image.size)
        return self.inner.decode(image)


def _rescue_pixels(decoder: CascadeDecoder, run: str, gray: np.ndarray) -> int:
    pixels: list[int] = []
    rescue = decoder.rescue_pass
    rescue.crop_decoders = tuple(_Counting(d, pixels) for d in rescue.crop_decoders)
    if run == "decode":
        assert decoder.decode(gray) == []
    else:  # what the camera's second lane runs on a frame (hardware.camera_loop)
        assert decoder.extra_pass(gray, [], decoder.lane_families(False), rescue_first=True) == []
    return sum(pixels)


def test_the_single_thread_camera_schedule_keeps_the_paced_rescue_budget() -> None:
    # decode() on the camera's schedule runs the whole cascade on one thread: its rescue keeps
    # issue 33's budget (the empty-frame p95 bar); the second lane and a still picture, which
    # hold up no camera, get the larger one. A blurred Code 128 turned 30 degrees that nothing
    # reads makes the rescue spend all it may on its bands.
    frame = place(render_code128(CODE_A, 3), cluttered_background(np.random.default_rng(0),
                                                                  1280, 720),
                  center=(640, 360), angle_deg=30)
    gray = cv2.GaussianBlur(cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY), (0, 0), 3.0)
    camera = make_decoder()
    still = make_decoder(every=1)
    assert isinstance(camera, CascadeDecoder) and isinstance(still, CascadeDecoder)
    paced = _rescue_pixels(camera, "decode", gray)
    lane = _rescue_pixels(make_decoder(), "lane", gray)  # type: ignore[arg-type]
    assert 0 < paced <= PACED_BUDGET * gray.size
    assert PACED_BUDGET * gray.size < lane <= RESCUE_BUDGET * gray.size
    assert _rescue_pixels(still, "decode", gray) == lane
