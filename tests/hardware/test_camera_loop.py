"""The camera loop over real frames: a video file made here, a folder of pictures, a list."""

from __future__ import annotations

import shutil
import time
from pathlib import Path, PosixPath

import cv2
import numpy as np
import pytest

from hardware import ReadAcceptor, SyntheticSource, make_decoder, open_source
from hardware.camera_loop import CameraSource
from hardware.render import cluttered_background, phone_frame
from hardware.sources.base import SourceUnavailable
from hardware.sources.images import ImagesGrabber
from tests.hardware.helpers import CODE_A, CODE_B, ListGrabber, Sink, write_video

W, H = 640, 480


@pytest.fixture(scope="module")
def frames() -> dict[str, np.ndarray]:
    empty = cluttered_background(np.random.default_rng(4), W, H)
    return {
        "empty": empty,
        "a": phone_frame(CODE_A, width=W, height=H, seed=4, qr_module_px=4, bar_module_px=2),
        "b": phone_frame(CODE_B, width=W, height=H, seed=4, qr_module_px=4, bar_module_px=2),
        "bars_a": phone_frame(CODE_A, width=W, height=H, seed=4, symbologies=("code128",),
                              bar_module_px=3),
        "bars_b": phone_frame(CODE_B, width=W, height=H, seed=4, symbologies=("code128",),
                              bar_module_px=3),
    }


def _loop(grabber: ListGrabber, debounce_s: float = 3.0) -> CameraSource:
    return CameraSource("test", grabber, make_decoder("zxing"),
                        ReadAcceptor(debounce_s=debounce_s))


def _run_to_end(source: CameraSource) -> Sink:
    sink = Sink()
    source.start(sink.on_event, sink.on_status)
    assert source.wait(60), "the source never reached the end of its frames"
    source.stop()
    return sink


def test_video_file_gives_one_event_per_code_shown(tmp_path: Path,
                                                   frames: dict[str, np.ndarray]) -> None:
    clip = ([frames["empty"]] * 4 + [frames["a"]] * 12 + [frames["empty"]] * 4
            + [frames["b"]] * 12 + [frames["empty"]] * 2)
    path = write_video(tmp_path / "counter.avi", clip, fps=20)
    source = open_source(f"video:{path}")
    sink = _run_to_end(source)  # type: ignore[arg-type]
    assert [e.text for e in sink.events] == [CODE_A, CODE_B]
    assert {e.symbology for e in sink.events} <= {"qr", "code128"}
    assert all(e.source == f"video:{path}" and e.decode_ms is not None for e in sink.events)
    assert sink.statuses[-1].state == "stopped"
    assert source.status().fps is not None


def test_two_frame_rule_in_the_loop(frames: dict[str, np.ndarray]) -> None:
    # bars_a on one frame only: never accepted; bars_b on two frames (not adjacent): accepted
    clip = [frames["empty"], frames["bars_a"], frames["empty"], frames["bars_b"],
            frames["empty"], frames["bars_b"], frames["empty"]]
    sink = _run_to_end(_loop(ListGrabber(clip)))
    assert sink.texts() == [(CODE_B, "code128")]


def test_debounce_in_the_loop(frames: dict[str, np.ndarray]) -> None:
    clip = [frames["a"]] * 6 + [frames["empty"]] + [frames["a"]] * 3
    sink = _run_to_end(_loop(ListGrabber(clip)))
    assert sink.texts() == [(CODE_A, "qr")]


def test_pause_drops_reads_and_resume_reads_again(frames: dict[str, np.ndarray]) -> None:
    source = _loop(ListGrabber([frames["a"]] * 3))
    source.pause()
    sink = _run_to_end(source)
    assert sink.events == []
    resumed = _loop(ListGrabber([frames["a"]] * 3))
    resumed.pause()
    resumed.resume()
    assert _run_to_end(resumed).texts() == [(CODE_A, "qr")]


def test_latest_frame_is_the_newest_captured_frame(frames: dict[str, np.ndarray]) -> None:
    source = _loop(ListGrabber([frames["empty"], frames["a"]]))
    assert source.latest_frame() is None
    _run_to_end(source)
    latest = source.latest_frame()
    assert latest is not None and np.array_equal(latest, frames["a"])


def test_video_that_is_missing_then_appears(tmp_path: Path,
                                            frames: dict[str, np.ndarray]) -> None:
    path = tmp_path / "later.avi"
    source = open_source(f"video:{path}")
    sink = Sink()
    source.start(sink.on_event, sink.on_status)
    try:
        assert sink.wait_state("disconnected")
        assert "video file" in sink.statuses[-1].detail and "not there" in sink.statuses[-1].detail
        write_video(path, [frames["empty"]] * 2 + [frames["a"]] * 8, fps=30)
        assert sink.wait_events(1)
        assert sink.texts()[0][0] == CODE_A
        assert any(s.state == "running" and "reconnected" in s.detail for s in sink.statuses)
    finally:
        source.stop()


def test_picture_folder_that_vanishes_and_returns(tmp_path: Path,
                                                  frames: dict[str, np.ndarray]) -> None:
    folder = tmp_path / "drop"
    folder.mkdir()
    cv2.imwrite(str(folder / "1.png"), frames["bars_a"])
    source = open_source(f"images:{folder}")
    sink = Sink()
    source.start(sink.on_event, sink.on_status)
    try:
        assert sink.wait_events(1)
        assert sink.texts() == [(CODE_A, "code128")]
        seen = len(sink.statuses)
        shutil.rmtree(folder)
        assert sink.wait_state("disconnected", after=seen)
        folder.mkdir()
        cv2.imwrite(str(folder / "2.png"), frames["b"])
        assert sink.wait_events(2)
        assert sink.texts()[1][0] == CODE_B
        assert any("reconnected" in s.detail for s in sink.statuses[seen:])
    finally:
        source.stop()
    assert source.status().state == "stopped"


def test_synthetic_source_shows_codes_on_demand() -> None:
    source = SyntheticSource()
    sink = Sink()
    source.start(sink.on_event, sink.on_status)
    try:
        source.show(CODE_A)
        assert sink.wait_events(1)
        source.show(CODE_B)
        assert sink.wait_events(2)
        frame = source.latest_frame()
        assert frame is not None and frame.shape == (720, 1280, 3)
    finally:
        source.stop()
    assert [e.text for e in sink.events] == [CODE_A, CODE_B]
    assert sink.events[0].symbology == "qr"


def test_camera_that_is_not_plugged_in_is_reported_and_retried() -> None:
    source = open_source("camera:57")
    sink = Sink()
    source.start(sink.on_event, sink.on_status)
    try:
        assert sink.wait_state("disconnected")
        assert sink.wait_state("reconnecting")
    finally:
        source.stop()
    lost = next(s for s in sink.statuses if s.state == "disconnected")
    assert lost.detail.startswith("camera 57 (/dev/video57) is not connected; retrying every")
    assert source.status().state == "stopped"
    assert sink.events == []


def test_picture_still_being_written_is_read_once_complete(tmp_path: Path,
                                                          frames: dict[str, np.ndarray]) -> None:
    ok, png = cv2.imencode(".png", frames["a"])
    assert ok
    data = png.tobytes()
    partial = tmp_path / "shot.png"
    partial.write_bytes(data[: len(data) // 3])  # a phone sync tool is still copying it
    source = open_source(f"images:{tmp_path}")
    sink = Sink()
    source.start(sink.on_event, sink.on_status)
    try:
        assert sink.wait_state("running")
        assert not sink.wait_events(1, timeout=1.0)
        partial.write_bytes(data)
        assert sink.wait_events(1)
    finally:
        source.stop()
    assert sink.texts() == [(CODE_A, "qr")]


class _SlowDecoder:
    """The real decoder on a slow machine: records which frames it was given."""

    name = "slow zxing"

    def __init__(self) -> None:
        self._inner = make_decoder("zxing")
        self.seen: list[int] = []

    def decode(self, gray: np.ndarray):  # type: ignore[no-untyped-def]
        self.seen.append(int(gray[0, 0]))
        time.sleep(0.05)
        return self._inner.decode(gray)


class _FastCamera(ListGrabber):
    lossless = False  # a camera does not wait for the decoder


def test_slow_decoder_gets_the_newest_frame_never_a_backlog() -> None:
    frames = []
    for i in range(40):
        frame = np.full((120, 160), 200, np.uint8)
        frame[0, 0] = i  # the frame's number, readable by the decoder
        frames.append(frame)
    decoder = _SlowDecoder()
    source = CameraSource("test", _FastCamera(frames), decoder, ReadAcceptor())
    _run_to_end(source)
    assert decoder.seen == sorted(set(decoder.seen))      # never an older frame after a newer
    assert decoder.seen[-1] == 39                          # the newest frame was decoded
    assert len(decoder.seen) < len(frames)                 # stale frames were dropped, not queued


class _GoneAfterTheCheck(PosixPath):
    """A folder that was there when asked and gone a moment later (rmtree between two calls)."""

    def is_dir(self) -> bool:
        return True


def test_a_folder_removed_while_it_is_listed_is_unavailable_not_a_crash(tmp_path: Path) -> None:
    grabber = ImagesGrabber(tmp_path / "drop")
    grabber.directory = _GoneAfterTheCheck(tmp_path / "drop")
    with pytest.raises(SourceUnavailable, match="disappeared"):
        grabber.read()
