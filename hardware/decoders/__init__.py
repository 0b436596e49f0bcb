"""Decoders behind one interface, selected by name (the `scanner.decoder` setting).

Names: "zxing" (zxing-cpp, QR + Code 128), "pyzbar" (zbar, QR + Code 128), "pyzbar-all"
(zbar, every symbology it knows: the benchmark baseline). `rescue=True` adds the rescue pass
(hardware.decoders.rescue) for frames where nothing was read.
"""

from __future__ import annotations

from hardware.decoders.base import Decoder, to_gray
from hardware.decoders.rescue import RescueDecoder

DECODER_NAMES = ("zxing", "pyzbar", "pyzbar-all")


def make_decoder(name: str = "zxing", *, rescue: bool = True) -> Decoder:
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
    return RescueDecoder(primary, crop_decoders=_crop_decoders(primary))


def _crop_decoders(primary: Decoder) -> tuple[Decoder, ...]:
    """The primary, then pyzbar on the same small crops when libzbar0 is installed: on the
    benchmark it reads Code 128 below 2 px per module that zxing misses, at no cost on frames
    without a barcode-like region (see bench/bench_decode.py)."""
    if primary.name != "zxing":
        return (primary,)
    try:
        from hardware.decoders.pyzbar import PyzbarDecoder

        return (primary, PyzbarDecoder())
    except (ImportError, RuntimeError):  # no libzbar0: zxing alone
        return (primary,)


__all__ = ["DECODER_NAMES", "Decoder", "RescueDecoder", "make_decoder", "to_gray"]
