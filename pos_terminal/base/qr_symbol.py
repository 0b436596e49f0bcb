"""The smallest QR symbol for a text: its runs of digits, of upper-case letters and of anything
else each in the mode that writes them in the fewest bits (ISO/IEC 18004 section 7.4).

A VietQR payload is mostly digits: written all in byte mode (segno's choice for mixed text) it
is a version 9 symbol, 53 modules across; in numeric, alphanumeric and byte runs it is version 7,
45 modules, which a terminal shows in 23 rows instead of 27."""

from __future__ import annotations

from typing import Any, cast

import segno
from segno import consts

NUMERIC, ALPHANUMERIC, BYTE = consts.MODE_NUMERIC, consts.MODE_ALPHANUMERIC, consts.MODE_BYTE
_ALPHANUMERIC = frozenset("0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ $%*+-./:")
#: Bits of a segment's character count, by mode, for versions 1-9, 10-26 and 27-40.
_COUNT_BITS = {NUMERIC: (10, 12, 14), ALPHANUMERIC: (9, 11, 13), BYTE: (8, 16, 16)}


def _data_bits(mode: int, chars: int, utf8_bytes: int) -> int:
    if mode == NUMERIC:
        return 10 * (chars // 3) + (0, 4, 7)[chars % 3]
    if mode == ALPHANUMERIC:
        return 11 * (chars // 2) + 6 * (chars % 2)
    return 8 * utf8_bytes


def _takes(mode: int, char: str) -> bool:
    if mode == NUMERIC:
        return "0" <= char <= "9"
    if mode == ALPHANUMERIC:
        return char in _ALPHANUMERIC
    return True


def segments(text: str, size_class: int = 0) -> list[tuple[str, int]]:
    """`text` cut into (run, mode) with the fewest bits for symbols of `size_class` (0:
    versions 1-9, 1: 10-26, 2: 27-40); exact, by trying every cut (texts of a QR are short)."""
    n = len(text)
    utf8 = [0]  # bytes of text[:i] in UTF-8
    for char in text:
        utf8.append(utf8[-1] + len(char.encode("utf-8")))
    best = [0] + [1 << 30] * n
    back: list[tuple[int, int]] = [(0, BYTE)] * (n + 1)
    for end in range(1, n + 1):
        for mode in (NUMERIC, ALPHANUMERIC, BYTE):
            header = 4 + _COUNT_BITS[mode][size_class]
            start = end - 1
            while start >= 0 and _takes(mode, text[start]):
                cost = best[start] + header + _data_bits(mode, end - start,
                                                         utf8[end] - utf8[start])
                if cost < best[end]:
                    best[end], back[end] = cost, (start, mode)
                start -= 1
    runs: list[tuple[str, int]] = []
    end = n
    while end > 0:
        start, mode = back[end]
        runs.append((text[start:end], mode))
        end = start
    return runs[::-1]


def smallest_qr(text: str, error: str = "l") -> segno.QRCode:
    """The QR code of `text` with the fewest modules (at least error level `error`, raised by
    segno where that costs no size)."""
    symbol = None
    for size_class, largest in enumerate((9, 26, 40)):
        # segno takes a list of (text, mode) segments (segno.encoder.prepare_data), which its
        # annotation of `content` leaves out
        symbol = segno.make(cast(Any, segments(text, size_class)), error=error, micro=False)
        if cast(int, symbol.version) <= largest:  # cut for its own size: none smaller
            break
    assert symbol is not None
    return symbol
