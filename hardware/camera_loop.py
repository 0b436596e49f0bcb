"""The camera loop: one thread captures and keeps only the newest frame, another decodes it.

A decoder slower than the camera never builds a queue of stale frames: it always takes the
newest frame when it is ready for one. Capture fps and decode time are measured (EMA) and shown
in status(); decoding pauses while a payment is in flight, capture (and the preview) go on.
Frames that give no read are measured (hardware.quality): when several in a row are too dark,
too blurred, or show a code too small or too close, status().hint says so in words for the
customer ("Hold the phone further away").

With the cascade (hardware.decoders.cascade), the decoding thread runs only the primary pass;
a frame it reads nothing in goes to the second lane (hardware.second_lane), where the other
decoder families and the rescue pass read the freshest such frame on the other core. A lossless
source (pictures, a video file) has every frame go through the whole cascade in turn instead:
there each frame counts, not the pace.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from typing import Protocol

import numpy as np

from hardware.acceptance import ReadAcceptor
from hardware.decoders.base import Decoder, to_gray
from hardware.events import Decoded
from hardware.quality import HintTracker, hint, measure
from hardware.second_lane import SecondLane
from hardware.sources.base import BaseSource, EndOfStream, SourceUnavailable


class FrameGrabber(Protocol):
    """Where frames come from: a capture device, a video file, pictures, a renderer."""

    describe: str          # "camera 0", "video clip.mp4": used in status messages
    pace_fps: float | None  # deliver at most this many frames a second (None: as they come)
    lossless: bool          # wait for each frame to be decoded before grabbing the next

    def open(self) -> None:
        """Raise SourceUnavailable (with a sentence) when the device/file is not there."""

    def read(self) -> np.ndarray:
        """The next BGR or gray frame; raise SourceUnavailable (lost) or EndOfStream (done)."""
        ...

    def close(self) -> None: ...


_EMA = 0.2


class CameraSource(BaseSource):
    def __init__(self, spec: str, grabber: FrameGrabber, decoder: Decoder,
                 acceptor: ReadAcceptor, *, lane: bool = True) -> None:
        super().__init__(spec, acceptor)
        self.grabber = grabber
        if hasattr(grabber, "stop_event"):  # grabbers that wait for frames stop waiting with us
            grabber.stop_event = self._stop
        self.decoder = decoder
        self._cond = threading.Condition()
        self._frame: np.ndarray | None = None
        self._frame_no = 0
        self._decoded_no = 0
        self._capture_done = False
        self._fps: float | None = None
        self._decode_ms: float | None = None
        self._hints = HintTracker()
        self._hint_lock = threading.Lock()
        # the cascade's split (primary pass here, the rest in the second lane), when it has one;
        # lane=False: the whole decoder on this thread, its own schedule (bench/: "before")
        self._split = lane and hasattr(decoder, "primary_pass") and hasattr(decoder, "extra_pass")
        self.lane: SecondLane | None = None
        #: called with (frame number, CPU ms, wall ms of this thread's work on it) (bench/)
        self.cost_probe: Callable[[int, float, float], None] | None = None

    def latest_frame(self) -> np.ndarray | None:
        with self._cond:
            return self._frame

    def _start_threads(self) -> None:
        self._capture_done = False
        self._set_status("running", f"opening {self.grabber.describe}")
        self.lane = None
        if self._split and not self.grabber.lossless:
            self.lane = SecondLane(self._lane_work, name=f"second lane {self.spec}")
            self.lane.start()
        self._spawn(self._capture, "capture")
        self._spawn(self._decode, "decode")

    def _close(self) -> None:
        self.grabber.close()

    def stop(self) -> None:
        self._stop.set()
        with self._cond:
            self._cond.notify_all()
        if self.lane is not None:
            self.lane.stop()
        super().stop()

    # -- capture thread ---------------------------------------------------------------------
    def _capture(self) -> None:
        opened = False
        lost_once = False
        last_t: float | None = None
        while not self._stop.is_set():
            if not opened:
                try:
                    self.grabber.open()
                except SourceUnavailable as exc:
                    state = "reconnecting" if lost_once else "disconnected"
                    self._set_status(state, f"{exc}; retrying every {self.reconnect_s:g} s")
                    lost_once = True
                    self._stop.wait(self.reconnect_s)
                    continue
                opened = True
                last_t = None
                detail = "reconnected" if lost_once else "capturing"
                self._set_status("running", f"{detail}: {self.grabber.describe}")
            try:
                frame = self.grabber.read()
            except SourceUnavailable as exc:
                self.grabber.close()
                opened = False
                lost_once = True
                self._set_status("disconnected", f"{exc}; will reconnect when it returns")
                continue
            except EndOfStream as exc:
                if not self._stop.is_set():
                    self._set_status("running", str(exc) or f"end of {self.grabber.describe}")
                break
            now = time.monotonic()
            if last_t is not None and now > last_t:
                inst = 1.0 / (now - last_t)
                self._fps = inst if self._fps is None else self._fps + _EMA * (inst - self._fps)
                self._update_metrics(fps=self._fps)
            last_t = now
            with self._cond:
                self._frame = frame
                self._frame_no += 1
                self._cond.notify_all()
                if self.grabber.lossless:
                    while (self._decoded_no < self._frame_no and not self._stop.is_set()
                           and not self.paused):
                        self._cond.wait(0.1)
            if self.grabber.pace_fps:
                target = 1.0 / self.grabber.pace_fps
                spent = time.monotonic() - now
                if spent < target:
                    self._stop.wait(target - spent)
        with self._cond:
            self._capture_done = True
            self._cond.notify_all()

    # -- decode thread ----------------------------------------------------------------------
    def _decode(self) -> None:
        while not self._stop.is_set():
            with self._cond:
                while (self._decoded_no >= self._frame_no and not self._capture_done
                       and not self._stop.is_set()):
                    self._cond.wait(0.2)
                if self._stop.is_set():
                    return
                if self._decoded_no >= self._frame_no:  # capture ended and all is decoded
                    break
                frame, number = self._frame, self._frame_no
            if frame is None or self.paused:
                with self._cond:
                    self._decoded_no = number
                    self._cond.notify_all()
                continue
            gray = to_gray(frame)
            t0, c0 = time.perf_counter(), time.thread_time()
            reads = self._read(number, gray)
            ms = (time.perf_counter() - t0) * 1000
            if self.cost_probe is not None:
                self.cost_probe(number, (time.thread_time() - c0) * 1000, ms)
            self._decode_ms = ms if self._decode_ms is None else (
                self._decode_ms + _EMA * (ms - self._decode_ms))
            self._update_metrics(decode_ms=self._decode_ms)
            if reads or self.lane is None:  # the lane judges the frames it takes
                self._hint(gray, reads)
            self._offer(reads, frame=number, decode_ms=ms)
            with self._cond:
                self._decoded_no = number
                self._cond.notify_all()
        self._set_status("stopped", f"end of {self.grabber.describe}")
        self._finished.set()

    def _read(self, number: int, gray: np.ndarray) -> list[Decoded]:
        """This thread's reads of a frame: the primary pass, the frame handed to the second
        lane when it read nothing; without a lane, the whole decoder."""
        if not self._split:
            return self.decoder.decode(gray)
        split = self.decoder
        reads, misses = split.primary_pass(gray)  # type: ignore[attr-defined]
        if reads:
            return list(reads)
        if self.lane is not None:
            self.lane.offer(number, gray, misses)
            return []
        return list(split.extra_pass(gray, misses))  # type: ignore[attr-defined]

    def _lane_work(self, number: int, gray: np.ndarray, misses: list[np.ndarray]) -> None:
        if self._stop.is_set() or self.paused:
            return
        split = self.decoder
        families = split.lane_families(bool(misses))  # type: ignore[attr-defined]
        reads: list[Decoded] = split.extra_pass(  # type: ignore[attr-defined]
            gray, misses, families, rescue_first=True)
        self._hint(gray, reads)
        self._offer(reads, frame=number)

    def _hint(self, gray: np.ndarray, reads: list[Decoded]) -> None:
        with self._hint_lock:
            self._set_hint(self._hints.update(bool(reads),
                                              None if reads else self._advice(gray)))

    def _advice(self, gray: np.ndarray) -> str | None:
        """Why this frame gave no read (hardware.quality), from what the decoder found."""
        return hint(measure(gray, getattr(self.decoder, "last_candidates", ()),
                            getattr(self.decoder, "last_regions", ())))
