"""Decoders behind one interface, selected by name (the `scanner.decoder` setting).

Names: "zxing" (zxing-cpp, QR + Code 128), "pyzbar" (zbar, QR + Code 128), "pyzbar-all"
(zbar, every symbology it knows: the benchmark baseline). `rescue=True` adds, for frames where
nothing was read, the other decoder families (zbar, OpenCV's QR detectors: the cascade,
hardware.decoders.cascade) and then the rescue pass (hardware.decoders.rescue).

`make_decoder()` with no arguments is the decoder of the default configuration
(scanner.decoder = "zxing", scanner.rescue = true) as the camera runs it; the camera gives it
its code filter (`code_filter=`), a still picture asks every family (`every=1`). The CLI, the
camera loop and the benchmarks all build theirs here.
"""

from __future__ import annotations

from hardware.decoders.base import Decoder, to_gray
from hardware.decoders.cascade import EXTRAS_EVERY, LOCATED_EVERY, CascadeDecoder
from hardware.decoders.rescue import RescueDecoder
from hardware.events import CodeFilter

DECODER_NAMES = ("zxing", "pyzbar", "pyzbar-all")

# The work the rescue pass may do on a frame, in pixels decoded, as a multiple of the frame's
# pixels (the primary pass alone goes over them several times: rotations, inversion, a
# downscaled pyramid). Where it holds up no camera (a still picture, the camera's second lane,
# a lossless source's frames): 0.6, which reads Code 128 at 1.2-2 px per module on phone
# screens (issue 42, bench/bench_phone128.py: 39% at 0.3, 55% at 0.6, 56% at 1.0).
RESCUE_BUDGET = 0.6
# Where it runs on the camera's own thread (`decode()` on the camera's schedule: the whole
# cascade on one thread, as before issue 42's second lane, `CameraSource(lane=False)`):
# issue 33's 0.3, which keeps the empty-frame p95 within its 1.5x bar (0.6 there measured
# 1.66-1.73x zxing-cpp alone, 0.3 1.2-1.3x: bench/bench_realphotos.py --cost).
PACED_BUDGET = 0.3


def make_decoder(name: str = "zxing", *, rescue: bool = True,
                 budget: float | None = RESCUE_BUDGET, every: int = EXTRAS_EVERY,
                 located_every: int | None = LOCATED_EVERY,
                 code_filter: CodeFilter | None = None,
                 paced_budget: float | None = PACED_BUDGET) -> Decoder:
    """The decoder called `name`; when `rescue` is true, followed on frames with no read by
    the other decoder families (asked on one empty frame in `every`, or in `located_every`
    when a QR symbol was located but not read; every=1: all of them on every frame) and the
    rescue pass (`budget`; at most `paced_budget` in `decode()` on the camera's schedule,
    every > 1). Reads `code_filter` refuses do not count (the camera's payment-code
    checks)."""
    primary: Decoder
    if name == "zxing":
        from hardware.decoders.zxing import ZxingDecoder

        primary = ZxingDecoder()
    elif name == "pyzbar":
        from hardware.decoders.pyzbar import PyzbarDecoder

        primary = PyzbarDecoder()
    elif name == "pyzbar-all":
        from hardware.decoders.pyzbar import PyzbarDecoder

        primary = PyzbarDecoder(None)
    else:
        raise ValueError(
            f"unknown decoder {name!r}: use one of {', '.join(DECODER_NAMES)} (scanner.decoder)"
        )
    if not rescue:
        return primary
    second = RescueDecoder(primary, crop_decoders=_crop_decoders(primary), budget=budget)
    return CascadeDecoder(second, other_families(primary), every=every,
                          located_every=None if every == 1 else located_every,
                          code_filter=code_filter,
                          paced_budget=None if every == 1 else paced_budget)


def other_families(primary: Decoder) -> tuple[Decoder, ...]:
    """The QR decoders of other families than `primary`, in the order the cascade asks them:
    zbar (when libzbar0 is installed), OpenCV's ArUco-based detector, OpenCV's classic one.
    QR only: a 1-D code's weak checksum makes a second decoder's guess at a band the primary
    could not read a misread risk (zbar misreads a Code 128 the primary reads, in the
    real-photo bench), and the rescue pass already reads Code 128 bands with zbar."""
    from hardware.decoders.opencv import OpenCvQrDecoder

    families: list[Decoder] = []
    if not primary.name.startswith("pyzbar"):
        try:
            from hardware.decoders.pyzbar import PyzbarDecoder

            families.append(PyzbarDecoder(("qr",)))
        except (ImportError, RuntimeError):  # no libzbar0: the OpenCV families alone
            pass
    families += [OpenCvQrDecoder("aruco"), OpenCvQrDecoder("classic")]
    return tuple(families)


def _crop_decoders(primary: Decoder) -> tuple[Decoder, ...]:
    """For the deskewed band of a barcode-like region: zxing-cpp for Code 128 on that band
    alone (already upright and at its own scale: no rotation, no downscaling), then pyzbar
    when libzbar0 is installed (it reads a few bands zxing misses: bench/bench_realphotos.py,
    Code 128 turned 45 degrees)."""
    if primary.name != "zxing":
        return (primary,)
    from hardware.decoders.zxing import ZxingDecoder

    bars = ZxingDecoder(("code128",), try_rotate=False, try_downscale=False)
    try:
        from hardware.decoders.pyzbar import PyzbarDecoder

        return (bars, PyzbarDecoder(("code128",)))
    except (ImportError, RuntimeError):  # no libzbar0: zxing alone
        return (bars,)


__all__ = ["DECODER_NAMES", "EXTRAS_EVERY", "LOCATED_EVERY", "PACED_BUDGET", "RESCUE_BUDGET",
           "CascadeDecoder", "Decoder", "RescueDecoder", "make_decoder", "other_families",
           "to_gray"]
