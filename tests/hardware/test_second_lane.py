"""The camera's second lane (hardware.second_lane, issue 42): the other decoder families and
the rescue pass on the freshest frame the primary pass read nothing in, in a thread of their
own. Its life: start, a decoder that stalls, shutdown. Real frames; no timing assertions."""

from __future__ import annotations

import threading

import cv2
import numpy as np
import pytest

from hardware import ReadAcceptor, make_decoder
from hardware.camera_loop import CameraSource
from hardware.decoders import CascadeDecoder
from hardware.decoders.rescue import RescueDecoder
from hardware.decoders.zxing import ZxingDecoder
from hardware.events import CodeFilter, Decoded
from hardware.render import cluttered_background, place, render_code128
from hardware.second_lane import SecondLane
from hardware.sources.synthetic import SyntheticSource
from tests.hardware.helpers import CODE_A, Sink, StillCamera


@pytest.fixture(scope="module")
def tilted_bars() -> np.ndarray:
    """A Code 128 turned 45 degrees on a counter: the primary pass reads nothing, the rescue
    pass (in the lane) reads it."""
    frame = cluttered_background(np.random.default_rng(11), 1280, 720)
    frame = place(render_code128(CODE_A, 3), frame, center=(640, 360), angle_deg=45)
    return cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY)


def test_a_code_only_the_lane_reads_becomes_an_event(tilted_bars: np.ndarray) -> None:
    decoder = make_decoder(code_filter=CodeFilter())
    assert isinstance(decoder, CascadeDecoder)
    assert decoder.primary_pass(tilted_bars)[0] == []
    source = CameraSource("test", StillCamera(tilted_bars), decoder, ReadAcceptor())
    sink = Sink()
    source.start(sink.on_event, sink.on_status)
    try:
        assert source.lane is not None
        assert sink.wait_events(1), "the lane never read the tilted code"
    finally:
        source.stop()
    assert sink.texts() == [(CODE_A, "code128")]  # two lane frames agreed (two-frame rule)
    assert source.lane.taken >= 2


class _Stalling:
    """A decoder family that stalls on the first frame it is given, until released."""

    name = "stalling"

    def __init__(self) -> None:
        self.entered = threading.Event()
        self.release = threading.Event()

    def decode(self, gray: np.ndarray) -> list[Decoded]:
        self.entered.set()
        self.release.wait()
        return []


def test_a_stalled_family_leaves_the_primary_pass_reading() -> None:
    stalling = _Stalling()
    primary = ZxingDecoder()
    decoder = CascadeDecoder(RescueDecoder(primary), [stalling], every=1,
                             code_filter=CodeFilter())
    source = SyntheticSource(decoder, ReadAcceptor())
    sink = Sink()
    source.start(sink.on_event, sink.on_status)
    try:
        assert stalling.entered.wait(30), "the empty counter never reached the lane"
        source.show(CODE_A)  # the phone comes up: the primary pass reads its QR
        assert sink.wait_events(1), "the primary pass stopped reading with the lane stalled"
        assert ("qr" in {e.symbology for e in sink.events})
        lane = source.lane
        assert lane is not None and lane.busy
        source.stop()  # returns though the family is still stuck
        assert source.status().state == "stopped"
    finally:
        stalling.release.set()
    assert sink.texts()[0] == (CODE_A, "qr")


def test_the_lane_takes_the_freshest_frame_and_stop_drops_the_waiting_one(
        tilted_bars: np.ndarray) -> None:
    taken: list[int] = []
    started = threading.Event()
    go = threading.Event()

    def work(number: int, gray: np.ndarray, misses: list[np.ndarray]) -> None:
        taken.append(number)
        started.set()
        assert go.wait(30)

    lane = SecondLane(work, join_s=0.1)
    lane.start()
    lane.offer(1, tilted_bars, [])
    assert started.wait(30)            # 1 is being decoded
    lane.offer(2, tilted_bars, [])
    lane.offer(3, tilted_bars, [])     # replaces 2: one frame in the slot, never a queue
    assert lane.replaced == 1
    go.set()
    assert lane.idle(30)
    assert taken == [1, 3]

    go.clear()
    started.clear()
    lane.offer(4, tilted_bars, [])
    assert started.wait(30)            # 4 is being decoded, as if its decoder stalled
    lane.offer(5, tilted_bars, [])     # waits in the slot
    assert lane.stop() is False        # the stalled decoder is not waited for
    lane.offer(6, tilted_bars, [])     # after stop: ignored
    go.set()                           # the decoder returns; the thread ends
    assert lane.idle(30)
    assert taken == [1, 3, 4]          # 5 was dropped by stop, 6 never taken


def test_stop_ends_the_camera_and_its_lane(tilted_bars: np.ndarray) -> None:
    source = CameraSource("test", StillCamera(tilted_bars), make_decoder(), ReadAcceptor())
    source.start(Sink().on_event)
    lane = source.lane
    assert lane is not None
    threads = [t for t in threading.enumerate() if t.name == "second lane test"]
    assert len(threads) == 1
    source.stop()
    threads[0].join(30)  # a frame it was decoding when stopped ends first
    assert not threads[0].is_alive()
    assert source.status().state == "stopped"
