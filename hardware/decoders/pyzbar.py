"""pyzbar (libzbar0): slower, but reads some low-contrast Code 128 that zxing misses."""

from __future__ import annotations

from collections.abc import Iterable

import numpy as np

from hardware.events import Decoded

_ZBAR_NAMES = {"QRCODE": "qr", "CODE128": "code128", "CODE39": "code39", "CODE93": "code93",
               "EAN13": "ean13", "EAN8": "ean8", "UPCA": "upca", "UPCE": "upce", "I25": "itf",
               "CODABAR": "codabar", "PDF417": "pdf417", "DATABAR": "databar"}


def load_pyzbar() -> object:
    """Import pyzbar, turning a missing libzbar into an instruction."""
    try:
        from pyzbar import pyzbar
    except ImportError as exc:  # the Python package is there but libzbar0 is not
        raise RuntimeError(
            "the pyzbar decoder needs the system library libzbar0: "
            "install it with `apt-get install --no-install-recommends libzbar0`, "
            "or set scanner.decoder = \"zxing\""
        ) from exc
    return pyzbar


class PyzbarDecoder:
    def __init__(self, symbologies: Iterable[str] | None = ("qr", "code128")) -> None:
        pyzbar = load_pyzbar()
        self._decode = pyzbar.decode  # type: ignore[attr-defined]
        self._symbols = None
        self.symbologies = None if symbologies is None else tuple(sorted(set(symbologies)))
        if symbologies is not None:
            wanted = set(symbologies)
            by_name = {v: k for k, v in _ZBAR_NAMES.items()}
            unknown = wanted - set(by_name)
            if unknown:
                raise ValueError(f"pyzbar: unknown symbology {sorted(unknown)[0]!r}")
            self._symbols = [getattr(pyzbar.ZBarSymbol, by_name[n])  # type: ignore[attr-defined]
                             for n in sorted(wanted)]
        self.name = "pyzbar" if symbologies is not None else "pyzbar-all"

    def options(self) -> dict[str, object]:
        return {"symbologies": self.symbologies}

    def decode(self, gray: np.ndarray) -> list[Decoded]:
        results = self._decode(gray, symbols=self._symbols)
        out: list[Decoded] = []
        for r in results:
            try:
                text = r.data.decode("utf-8")
            except UnicodeDecodeError:
                continue
            left, top, width, height = r.rect
            out.append(Decoded(text, _ZBAR_NAMES.get(r.type, r.type.lower()),
                               box=(float(left), float(top), float(width), float(height))))
        return out
