"""The cascade: independent decoder families, each asked only when those before it read
nothing.

Order on a frame: the primary pass (zxing-cpp); when it reads nothing, the other families
(zbar, then OpenCV's QR detectors); then the rescue pass (hardware.decoders.rescue). A read
counts only when it passes the code filter given (the payment-code checks of the camera's
acceptor): a read the filter refuses (another symbol in view, a misread of one) does not end
the cascade, and is not returned.

Why other families: each decoder fails on different photos (finder-pattern detection,
binarization, error correction differ), and their reads carry over to photos never used for
tuning, where the rescue pass's tuned steps carry over only a little (issue 33,
docs/scanning.md).

The budget: zbar and OpenCV each cost 3 to 5 times the primary pass on a 720p frame with
nothing in it. A still picture (`every=1`) gets every family. The camera (`every=k`) asks one
family, in turn, on one empty frame in k, and on frames where the primary pass located a QR
symbol it could not decode, at most one in `located_every`: a code held up to the camera stays
in view for many frames, so it is still read within a few seconds, while an empty counter
costs on average (cost of a family) / k more per frame; the frames that get a family's turn
sit just above the empty-frame p95 (measured in bench/bench_realphotos.py, docs/scanning.md).
On that schedule (`decode()` with every > 1: the whole cascade on one thread) the rescue pass
also keeps the lower `paced_budget`; the camera's second lane (`extra_pass`, no cap) and a
still picture give it its own.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from hardware.decoders.base import Decoder
from hardware.decoders.confirm import thin
from hardware.decoders.rescue import Box, RescueDecoder
from hardware.events import CodeFilter, Decoded

# the camera's schedule (docs/scanning.md#the-cascade): one family every EXTRAS_EVERY empty
# frames; on frames showing a located but unread QR symbol, one every LOCATED_EVERY
EXTRAS_EVERY = 50
LOCATED_EVERY = 5


class CascadeDecoder:
    def __init__(self, rescue: RescueDecoder, families: Sequence[Decoder], *,
                 every: int = 1, located_every: int | None = None,
                 code_filter: CodeFilter | None = None,
                 paced_budget: float | None = None) -> None:
        if every < 1 or (located_every is not None and located_every < 1):
            raise ValueError("cascade: every and located_every must be at least 1")
        self.rescue_pass = rescue
        self.primary = rescue.primary
        self.families = tuple(families)
        self.every = every
        self.located_every = located_every
        self.code_filter = code_filter
        # the rescue's budget in decode() (the whole cascade on one thread, the camera's
        # schedule), lower than its own: see hardware.decoders.PACED_BUDGET; None: its own
        self.paced_budget = paced_budget
        self._since = 0       # empty frames since a family was last asked
        self._turn = 0        # which family the camera asks next
        self.last_stage: str | None = None  # which stage read the last frame (bench, tests)
        parts = [self.primary.name, *(f.name for f in self.families)]
        name = "cascade(" + ">".join(parts) + (f" every {every}" if every > 1 else "") + ")"
        self.name = name + ">" + rescue.name.removeprefix(self.primary.name + "+") + (
            f" (paced {paced_budget:g})" if paced_budget is not None else "")

    @property
    def last_candidates(self) -> list[Box]:
        """2-D symbols located in the last frame but not read (the camera's quality hint)."""
        return self.rescue_pass.last_candidates

    @property
    def last_regions(self) -> list[Box]:
        return self.rescue_pass.last_regions

    def options(self) -> dict[str, object]:
        def of(decoder: Decoder) -> tuple[str, object]:
            options = getattr(decoder, "options", None)
            return decoder.name, (options() if options is not None else {})

        return {"rescue": self.rescue_pass.options(),
                "families": tuple(of(f) for f in self.families),
                "every": self.every, "located_every": self.located_every,
                "code_filter": self.code_filter, "paced_budget": self.paced_budget}

    def decode(self, gray: np.ndarray) -> list[Decoded]:
        self.rescue_pass.last_candidates = []
        self.rescue_pass.last_regions = []
        kept, misses = self.primary_pass(gray)
        if kept:
            return kept
        return self.extra_pass(gray, misses, self._due(bool(misses)), cap=self.paced_budget)

    def primary_pass(self, gray: np.ndarray) -> tuple[list[Decoded], list[np.ndarray]]:
        """The primary pass alone: its reads the filter keeps, and the corners of the 2-D
        symbols it located but could not decode (the camera's own thread runs this; the
        rest goes to its second lane, hardware.second_lane, which may be reading the
        rescue's last_candidates of another frame meanwhile: they are left alone here)."""
        misses: list[np.ndarray] = []
        with_misses = getattr(self.primary, "decode_with_misses", None)
        if with_misses is not None:
            found, misses = with_misses(gray)
        else:
            found = self.primary.decode(gray)
        # a 1-D read over thin modules (under 2.5 px) needs a second read, like a rescued one:
        # zxing-cpp's two agreeing scan lines misread a Code 128 at 1.36 px per module in the
        # phone bench (hardware.decoders.confirm)
        kept = [r for r in self._kept(found)
                if not thin(r) or self.rescue_pass.second_read(gray, r)]
        self.last_stage = self.primary.name if kept else None
        return kept, misses

    def extra_pass(self, gray: np.ndarray, misses: list[np.ndarray],
                   families: Sequence[Decoder] | None = None, *,
                   rescue_first: bool = False, cap: float | None = None) -> list[Decoded]:
        """For a frame the primary pass read nothing in: the other families (`families`, all
        of them when None), then the rescue pass; the rescue first when `rescue_first` (the
        second lane asks all of them anyway, and the rescue is the cheapest: a code only it
        reads is then read on the lane's first frame, not after a full round of the others).
        `cap`: the rescue's budget on this frame when lower than its own (decode())."""
        def rescue() -> list[Decoded]:
            kept = self._kept(self.rescue_pass.rescue(gray, misses, cap=cap))
            self.last_stage = "rescue" if kept else None
            return kept

        if rescue_first and (kept := rescue()):
            return kept
        for family in self.families if families is None else families:
            kept = self._kept(family.decode(gray))
            if kept:
                self.last_stage = family.name
                return kept
        return [] if rescue_first else rescue()

    def lane_families(self, located: bool) -> Sequence[Decoder]:
        """The families the second lane asks on a frame: all of them when a 2-D symbol was
        located but not read (a code is in view), else the next one in turn (each sees every
        third frame the lane takes, and the lane keeps the camera's pace: the rescue, asked
        first, sees them all)."""
        if located or not self.families:
            return self.families
        family = self.families[self._turn % len(self.families)]
        self._turn += 1
        return (family,)

    def _kept(self, reads: list[Decoded]) -> list[Decoded]:
        if self.code_filter is None:
            return reads
        return [r for r in reads if self.code_filter.accepts(r.text)]

    def _due(self, located: bool) -> Sequence[Decoder]:
        """The families to ask on this empty frame: all of them for a still picture; for the
        camera one, in turn, when its schedule says so."""
        if not self.families:
            return ()
        if self.every == 1:
            return self.families
        self._since += 1
        if self._since < self.every and not (
                located and self.located_every is not None and self._since >= self.located_every):
            return ()
        self._since = 0
        family = self.families[self._turn % len(self.families)]
        self._turn += 1
        return (family,)
