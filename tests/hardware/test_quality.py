"""Frame-quality hints: real frames (generated here and real photos) through the real camera
loop with a fake capture device, and the hint the scanner status then carries."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from bench.realphotos import letterbox
from hardware import ReadAcceptor, make_decoder
from hardware.camera_loop import CameraSource
from hardware.quality import HINT_FRAMES, TOO_CLOSE, TOO_DARK, TOO_SMALL
from hardware.render import cluttered_background, place, render_qr
from tests.hardware.helpers import CODE_A, ListGrabber, Sink
from tests.hardware.realphotos import photo

W, H = 1280, 720


def _counter(seed: int = 3) -> np.ndarray:
    return cv2.cvtColor(cluttered_background(np.random.default_rng(seed), W, H),
                        cv2.COLOR_BGR2GRAY)


def _code_frame() -> np.ndarray:
    frame = place(render_qr(CODE_A, 4), cv2.cvtColor(_counter(), cv2.COLOR_GRAY2BGR),
                  center=(W / 2, H / 2))
    return cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY)


def _dark() -> np.ndarray:
    return (_counter() * 0.15).astype(np.uint8)  # the counter at night, nobody lit the screen


def _too_close() -> np.ndarray:
    """A phone held against a fixed-focus lens: the QR fills the frame and is one big blur."""
    big = render_qr(CODE_A, 40)
    h, w = big.shape
    canvas = np.full((H, W), 255, np.uint8)
    ch, cw = min(H, h), min(W, w)
    canvas[:ch, :cw] = big[(h - ch) // 2:(h - ch) // 2 + ch, (w - cw) // 2:(w - cw) // 2 + cw]
    return cv2.GaussianBlur(canvas, (0, 0), 12)


def _hints(frames: list[np.ndarray]) -> tuple[Sink, list[str | None]]:
    """Run the frames through the camera loop; the hints its status reported, in order."""
    source = CameraSource("camera:test", ListGrabber(frames), make_decoder(),
                          ReadAcceptor())
    sink = Sink()
    source.start(sink.on_event, sink.on_status)
    assert source.wait(60), "the camera loop never reached the end of its frames"
    source.stop()
    hints = [s.hint for s in sink.statuses]
    # consecutive duplicates come from other status changes (state, detail)
    return sink, [h for i, h in enumerate(hints) if i == 0 or h != hints[i - 1]]


def test_dark_frames_say_too_dark() -> None:
    sink, hints = _hints([_dark()] * (HINT_FRAMES + 1))
    assert TOO_DARK in hints
    assert sink.events == []


def test_phone_held_against_the_lens_says_hold_it_further_away() -> None:
    _, hints = _hints([_too_close()] * (HINT_FRAMES + 1))
    assert TOO_CLOSE in hints
    assert TOO_CLOSE == "Hold the phone further away"


def test_a_single_bad_frame_is_not_enough_for_a_hint() -> None:
    _, hints = _hints([_dark()] * (HINT_FRAMES - 1) + [_counter()])
    assert TOO_DARK not in hints


def test_a_read_clears_the_hint() -> None:
    sink, hints = _hints([_dark()] * (HINT_FRAMES + 1) + [_code_frame()] * 2)
    assert [e.text for e in sink.events] == [CODE_A]
    assert TOO_DARK in hints
    assert hints[-1] is None


def test_a_bare_counter_needs_no_advice() -> None:
    _, hints = _hints([_counter(seed) for seed in range(HINT_FRAMES + 2)])
    assert set(hints) == {None}


# ---- real photos through the loop ---------------------------------------------------------

def test_real_dark_blurred_photo_says_too_dark() -> None:
    # BoofCV "blurred" set: a code photographed in dim light (mean level ~35 of 255), unread
    frame = photo("images/boofcv/blurred/image016.jpg")
    _, hints = _hints([frame] * (HINT_FRAMES + 1))
    assert TOO_DARK in hints


def test_real_photo_of_a_far_code_at_720p_says_too_small() -> None:
    # the same scene scaled to a 720p camera frame: zxing-cpp locates the QR (about 75 px in a
    # 720-line frame) but cannot read it
    frame = letterbox(photo("images/boofcv/blurred/image019.jpg"))
    _, hints = _hints([frame] * (HINT_FRAMES + 1))
    assert TOO_SMALL in hints


@pytest.mark.parametrize("file", ["images/zxing-cpp/falsepositives-2/18.webp",
                                  "images/zxing-cpp/falsepositives-2/24.webp"])
def test_real_code_free_photos_give_no_hint(file: str) -> None:
    # large barcode-like textures: the customer must not be told to step back from nothing
    frame = letterbox(photo(file))
    _, hints = _hints([frame] * (HINT_FRAMES + 1))
    assert set(hints) == {None}
