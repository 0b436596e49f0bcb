"""The values a scan source hands to its consumer: events, status and the code filter."""

from __future__ import annotations

from dataclasses import dataclass, field

# 1D symbologies: their only protection against a misread is a weak checksum, so the camera
# loop accepts their text only once two different frames agree.
LINEAR_SYMBOLOGIES = frozenset({"code128", "code39", "code93", "ean13", "ean8", "upca", "upce",
                                "itf", "codabar", "databar"})

SOURCE_STATES = ("ready", "running", "disconnected", "reconnecting", "stopped")


@dataclass(frozen=True)
class Decoded:
    """One symbol found in one image. Where it was (box: x, y, width, height in pixels of the
    decoded image) and its module size are extras when the decoder knows them; two reads are
    equal when text and symbology are."""

    text: str
    symbology: str
    box: tuple[float, float, float, float] | None = field(default=None, compare=False)
    module_px: float | None = field(default=None, compare=False)


@dataclass(frozen=True)
class ScanEvent:
    """A payment-code candidate read by a source (accepted by its filter, debounced)."""

    text: str
    symbology: str
    source: str
    time: float
    decode_ms: float | None = None


@dataclass(frozen=True)
class SourceStatus:
    state: str
    detail: str = ""
    fps: float | None = None
    decode_ms: float | None = None
    # camera sources: why frames give no read, in words for the customer (hardware.quality),
    # e.g. "Hold the phone further away"; None when there is nothing to say
    hint: str | None = None


@dataclass(frozen=True)
class CodeFilter:
    """What a plausible code looks like: only characters of `alphabet`, length in range."""

    alphabet: str = "0123456789"
    min_length: int = 16
    max_length: int = 24

    def __post_init__(self) -> None:
        if not self.alphabet:
            raise ValueError("code filter alphabet is empty: no code could ever be accepted")
        if self.min_length < 1 or self.max_length < self.min_length:
            raise ValueError(
                f"code filter length range {self.min_length}..{self.max_length} is empty or "
                "starts below 1: use 1 <= min_length <= max_length"
            )

    def accepts(self, text: str) -> bool:
        if not self.min_length <= len(text) <= self.max_length:
            return False
        allowed = set(self.alphabet)
        return all(ch in allowed for ch in text)
