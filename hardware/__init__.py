"""Scanning: cameras, video, pictures and USB scanners into one stream of ScanEvents.

Knows nothing of payments (it never imports pos_terminal). See docs/CONTRACTS.md.

Names are loaded on first use (PEP 562): a counter with a keyboard-wedge scanner never pays
for importing OpenCV, NumPy and the decoders, which is most of the UI's start-up time.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from hardware.acceptance import ReadAcceptor
    from hardware.decoders import DECODER_NAMES, make_decoder
    from hardware.events import CodeFilter, Decoded, ScanEvent, SourceStatus
    from hardware.sources.base import SourceUnavailable
    from hardware.sources.factory import SPEC_FORMS, SpecError, missing_device, open_source
    from hardware.sources.protocol import ScanSource
    from hardware.sources.synthetic import SyntheticSource
    from hardware.still import ImageUnreadable, decode_image
    from hardware.wedge import WedgeDetector, WedgeVerdict

_WHERE = {
    "ReadAcceptor": "hardware.acceptance",
    "DECODER_NAMES": "hardware.decoders",
    "make_decoder": "hardware.decoders",
    "CodeFilter": "hardware.events",
    "Decoded": "hardware.events",
    "ScanEvent": "hardware.events",
    "SourceStatus": "hardware.events",
    "SourceUnavailable": "hardware.sources.base",
    "SPEC_FORMS": "hardware.sources.factory",
    "SpecError": "hardware.sources.factory",
    "open_source": "hardware.sources.factory",
    "missing_device": "hardware.sources.factory",
    "ScanSource": "hardware.sources.protocol",
    "SyntheticSource": "hardware.sources.synthetic",
    "ImageUnreadable": "hardware.still",
    "decode_image": "hardware.still",
    "WedgeDetector": "hardware.wedge",
    "WedgeVerdict": "hardware.wedge",
}

__all__ = [
    "DECODER_NAMES",
    "SPEC_FORMS",
    "CodeFilter",
    "Decoded",
    "ImageUnreadable",
    "ReadAcceptor",
    "ScanEvent",
    "ScanSource",
    "SourceStatus",
    "SourceUnavailable",
    "SpecError",
    "SyntheticSource",
    "WedgeDetector",
    "WedgeVerdict",
    "decode_image",
    "make_decoder",
    "missing_device",
    "open_source",
]


def __getattr__(name: str) -> Any:
    module = _WHERE.get(name)
    if module is None:
        raise AttributeError(f"module 'hardware' has no attribute {name!r}")
    value = getattr(importlib.import_module(module), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return __all__
