"""OpenCV's QR detectors (objdetect): `QRCodeDetectorAruco` and the classic `QRCodeDetector`.

An independent implementation of QR location and decoding: it reads some photos zxing-cpp and
zbar do not (docs/scanning.md, the cascade). QR only; OpenCV reads no Code 128.
`QRCodeDetectorAruco` (OpenCV >= 4.8) finds the finder patterns with the ArUco marker
detector: on the real-photo corpus it reads more than the classic detector at about half its
cost; the classic one reads some the ArUco one does not.
"""

from __future__ import annotations

import cv2
import numpy as np

from hardware.events import Decoded

DETECTORS = ("aruco", "classic")


class OpenCvQrDecoder:
    def __init__(self, detector: str = "aruco") -> None:
        if detector not in DETECTORS:
            raise ValueError(f"opencv: unknown QR detector {detector!r}; use one of "
                             f"{', '.join(DETECTORS)}")
        self.detector = detector
        self._detector = (cv2.QRCodeDetectorAruco() if detector == "aruco"
                          else cv2.QRCodeDetector())
        self.name = "opencv-aruco" if detector == "aruco" else "opencv"

    def options(self) -> dict[str, object]:
        return {"detector": self.detector}

    def decode(self, gray: np.ndarray) -> list[Decoded]:
        try:
            ok, payloads, points, _ = self._detector.detectAndDecodeBytesMulti(gray)
        except cv2.error:  # a degenerate detection (OpenCV asserts on some quadrilaterals)
            return []
        if not ok or not payloads:
            return []
        out: list[Decoded] = []
        for payload, corners in zip(payloads, points if points is not None else (), strict=False):
            if not payload:
                continue
            try:
                # bytes, not OpenCV's own str conversion, which raises on non-UTF-8 payloads
                text = bytes(payload).decode("utf-8")
            except UnicodeDecodeError:
                continue
            pts = np.asarray(corners, dtype=np.float32).reshape(-1, 2)
            box = (float(pts[:, 0].min()), float(pts[:, 1].min()),
                   float(np.ptp(pts[:, 0])), float(np.ptp(pts[:, 1])))
            out.append(Decoded(text, "qr", box=box))
        return out
