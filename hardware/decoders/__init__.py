"""Decoders behind one interface, selected by name (the `scanner.decoder` setting).

Names: "zxing" (zxing-cpp, QR + Code 128), "pyzbar" (zbar, QR + Code 128), "pyzbar-all"
(zbar, every symbology it knows: the benchmark baseline). `rescue=True` adds the rescue pass
(hardware.decoders.rescue) for frames where nothing was read.

`make_decoder()` with no arguments is the decoder of the default configuration
(scanner.decoder = "zxing", scanner.rescue = true): the CLI, the camera loop and the benchmark
all build theirs here.
"""

from __future__ import annotations

from hardware.decoders.base import Decoder, to_gray
from hardware.decoders.rescue import RescueDecoder

DECODER_NAMES = ("zxing", "pyzbar", "pyzbar-all")

# The work the rescue pass may do on a frame, in pixels decoded, as a multiple of the frame's
# pixels (the primary pass alone goes over them several times: rotations, inversion, a
# downscaled pyramid). Measured on 720p frames (bench/bench_realphotos.py, docs/scanning.md).
RESCUE_BUDGET = 0.5


def make_decoder(name: str = "zxing", *, rescue: bool = True,
                 budget: float | None = RESCUE_BUDGET) -> Decoder:
    """The decoder called `name`, with its rescue pass when `rescue` is true."""
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
    return RescueDecoder(primary, crop_decoders=_crop_decoders(primary), budget=budget)


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


__all__ = ["DECODER_NAMES", "RESCUE_BUDGET", "Decoder", "RescueDecoder", "make_decoder",
           "to_gray"]
