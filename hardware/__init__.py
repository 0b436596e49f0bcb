"""Scanning: cameras, video, pictures and USB scanners into one stream of ScanEvents.

Knows nothing of payments (it never imports pos_terminal). See docs/CONTRACTS.md.
"""

from hardware.acceptance import ReadAcceptor
from hardware.decoders import DECODER_NAMES, make_decoder
from hardware.events import CodeFilter, Decoded, ScanEvent, SourceStatus
from hardware.sources.base import SourceUnavailable
from hardware.sources.factory import SPEC_FORMS, SpecError, open_source
from hardware.sources.protocol import ScanSource
from hardware.sources.synthetic import SyntheticSource
from hardware.sources.wedge import WedgeSource
from hardware.still import ImageUnreadable, decode_image
from hardware.wedge import WedgeDetector, WedgeVerdict

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
    "WedgeSource",
    "WedgeVerdict",
    "decode_image",
    "make_decoder",
    "open_source",
]
