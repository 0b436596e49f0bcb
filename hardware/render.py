"""Render payment codes the way a wallet app shows them, and put the phone in a camera frame.

Used by the synthetic source (demo), the tests and the benchmark corpus. Symbols are drawn
module by module from segno (QR) and python-barcode (Code 128) so the module size in pixels is
exact, which is what decides whether a camera frame can be read at all.
"""

from __future__ import annotations

import barcode
import cv2
import numpy as np
import segno
import zxingcpp

WHITE = 255
BLACK = 0


def qr_modules(text: str) -> np.ndarray:
    """The standard QR matrix of `text` (True = dark), without quiet zone.

    Never Micro QR (segno's `make` picks Micro QR for a short code unless micro=False): wallet
    apps show a standard QR, and the terminal's decoders read only that.
    """
    return np.array(segno.make(text, error="m", micro=False).matrix, dtype=bool)


def code128_modules(text: str) -> np.ndarray:
    """The Code 128 bar pattern of `text` (True = bar), one entry per module, no quiet zone.

    Encoded by zxing-cpp: python-barcode 0.16 drops a leading "99" in code set C
    ("990810..." encodes as "0810..."), which is exactly the kind of silent misread we guard
    against. `python_barcode_modules` keeps the independent encoder for tests.
    """
    symbol = zxingcpp.create_barcode(text, zxingcpp.BarcodeFormat.Code128)
    row = np.asarray(symbol.to_image(scale=1, add_quiet_zones=False))[0]
    return np.asarray(row < 128, dtype=bool)


def python_barcode_modules(text: str) -> np.ndarray:
    """Code 128 pattern from python-barcode (an encoder independent of the decoder under test)."""
    pattern = barcode.Code128(text).build()[0]
    return np.array([ch == "1" for ch in pattern], dtype=bool)


def render_qr(text: str, module_px: int = 4, quiet_modules: int = 4) -> np.ndarray:
    mods = np.pad(qr_modules(text), quiet_modules, constant_values=False)
    img = np.where(mods, BLACK, WHITE).astype(np.uint8)
    return np.asarray(np.kron(img, np.ones((module_px, module_px), dtype=np.uint8)), np.uint8)


def render_code128(text: str, module_px: int = 2, height_px: int | None = None,
                   quiet_modules: int = 10) -> np.ndarray:
    mods = np.pad(code128_modules(text), quiet_modules, constant_values=False)
    row = np.repeat(np.where(mods, BLACK, WHITE).astype(np.uint8), module_px)
    height = height_px if height_px is not None else max(24, int(len(row) * 0.22))
    return np.tile(row, (height, 1))


Box = tuple[int, int, int, int]  # x, y, width, height


def render_phone(text: str | None, *, symbologies: tuple[str, ...] = ("qr", "code128"),
                 qr_module_px: int = 6, bar_module_px: int = 3, bar_height_px: int | None = None,
                 invert: bool = False, screen_value: int = WHITE) -> np.ndarray:
    """A grayscale phone: dark bezel, light screen, the code(s) stacked as a wallet shows them.

    `text=None` renders the phone with its payment screen empty (no code shown).
    """
    return layout_phone(text, symbologies=symbologies, qr_module_px=qr_module_px,
                        bar_module_px=bar_module_px, bar_height_px=bar_height_px,
                        invert=invert, screen_value=screen_value)[0]


def layout_phone(text: str | None, *, symbologies: tuple[str, ...] = ("qr", "code128"),
                 qr_module_px: int = 6, bar_module_px: int = 3, bar_height_px: int | None = None,
                 invert: bool = False, screen_value: int = WHITE,
                 ) -> tuple[np.ndarray, list[Box]]:
    """`render_phone` plus where each symbol (with its quiet zone) sits on the phone."""
    parts: list[np.ndarray] = []
    if text is not None:
        for sym in symbologies:
            if sym == "code128":
                parts.append(render_code128(text, bar_module_px, bar_height_px))
            elif sym == "qr":
                parts.append(render_qr(text, qr_module_px))
            else:
                raise ValueError(f"cannot render symbology {sym!r}: use qr or code128")
    content_w = max([p.shape[1] for p in parts], default=240)
    gap = 24
    header = 60
    screen_w = content_w + 2 * gap
    screen_h = header + sum(p.shape[0] + gap for p in parts) + gap + 40
    screen_h = max(screen_h, int(screen_w * 1.6))
    screen = np.full((screen_h, screen_w), screen_value, dtype=np.uint8)
    # a header bar and a couple of text lines, like an app screen
    cv2.rectangle(screen, (0, 0), (screen_w, header - 20), 200, -1)
    cv2.putText(screen, "Pay", (gap, header - 30), cv2.FONT_HERSHEY_SIMPLEX, 0.8, 40, 2)
    y = header
    boxes: list[Box] = []
    for part in parts:
        x = (screen_w - part.shape[1]) // 2
        screen[y:y + part.shape[0], x:x + part.shape[1]] = part
        boxes.append((x, y, part.shape[1], part.shape[0]))
        y += part.shape[0] + gap
    if invert:
        screen = 255 - screen
    bezel = max(12, screen_w // 20)
    phone = np.full((screen_h + 4 * bezel, screen_w + 2 * bezel), 25, dtype=np.uint8)
    phone[2 * bezel:2 * bezel + screen_h, bezel:bezel + screen_w] = screen
    return phone, [(x + bezel, y + 2 * bezel, w, h) for x, y, w, h in boxes]


def cluttered_background(rng: np.random.Generator, width: int, height: int) -> np.ndarray:
    """A counter top: gradient, random boxes, lines, printed text and sensor noise (BGR)."""
    base = np.linspace(rng.integers(60, 140), rng.integers(100, 200), width, dtype=np.float32)
    img = np.repeat(np.tile(base, (height, 1))[:, :, None], 3, axis=2)
    img *= rng.uniform(0.8, 1.2, size=3).astype(np.float32)
    img = img.astype(np.uint8)
    for _ in range(int(rng.integers(6, 16))):
        x0, y0 = int(rng.integers(0, width)), int(rng.integers(0, height))
        x1, y1 = x0 + int(rng.integers(20, width // 3)), y0 + int(rng.integers(20, height // 3))
        color = tuple(int(c) for c in rng.integers(0, 256, 3))
        cv2.rectangle(img, (x0, y0), (x1, y1), color, -1 if rng.random() < 0.6 else 2)
    for _ in range(int(rng.integers(4, 12))):
        p0 = (int(rng.integers(0, width)), int(rng.integers(0, height)))
        p1 = (int(rng.integers(0, width)), int(rng.integers(0, height)))
        cv2.line(img, p0, p1, tuple(int(c) for c in rng.integers(0, 256, 3)),
                 int(rng.integers(1, 4)))
    for _ in range(int(rng.integers(2, 6))):
        word = "".join(chr(int(c)) for c in rng.integers(65, 91, int(rng.integers(3, 10))))
        cv2.putText(img, word, (int(rng.integers(0, width)), int(rng.integers(0, height))),
                    cv2.FONT_HERSHEY_SIMPLEX, float(rng.uniform(0.5, 1.5)),
                    tuple(int(c) for c in rng.integers(0, 256, 3)), 2)
    return img


def place(phone: np.ndarray, background: np.ndarray, *, center: tuple[float, float],
          scale: float = 1.0, angle_deg: float = 0.0, perspective: float = 0.0,
          rng: np.random.Generator | None = None,
          anchor: tuple[float, float] | None = None) -> np.ndarray:
    """Paste a grayscale phone into a BGR background: scaled, rotated in plane, tilted.

    The phone pixel `anchor` (default: the phone's middle) lands on `center`.
    `perspective` (0..0.4) foreshortens the phone as if tilted away from the camera.
    """
    h, w = phone.shape[:2]
    ax, ay = anchor if anchor is not None else (w / 2, h / 2)
    src = np.array([[0, 0], [w, 0], [w, h], [0, h]], dtype=np.float32)
    dst: np.ndarray = src.copy()
    if perspective > 0:
        rng = rng or np.random.default_rng(0)
        side = int(rng.integers(0, 4))
        dx, dy = perspective * w / 2, perspective * h / 2
        # shrink one edge of the quad: the far side of a tilted phone
        if side == 0:
            dst[0, 0] += dx
            dst[1, 0] -= dx
        elif side == 1:
            dst[2, 0] -= dx
            dst[3, 0] += dx
        elif side == 2:
            dst[0, 1] += dy
            dst[3, 1] -= dy
        else:
            dst[1, 1] += dy
            dst[2, 1] -= dy
    dst -= np.array([ax, ay], dtype=np.float32)
    theta = np.deg2rad(angle_deg)
    rot = np.array([[np.cos(theta), -np.sin(theta)], [np.sin(theta), np.cos(theta)]],
                   dtype=np.float32)
    dst = (dst * scale) @ rot.T + np.array(center, dtype=np.float32)
    matrix = cv2.getPerspectiveTransform(src, dst.astype(np.float32))
    size = (background.shape[1], background.shape[0])
    warped = cv2.warpPerspective(phone, matrix, size, flags=cv2.INTER_AREA if scale < 1
                                 else cv2.INTER_LINEAR, borderValue=0)
    mask = cv2.warpPerspective(np.full_like(phone, 255), matrix, size, flags=cv2.INTER_NEAREST,
                               borderValue=0)
    out = background.copy()
    sel = mask > 0
    out[sel] = warped[sel][:, None]
    return out


def phone_frame(text: str | None, *, width: int = 1280, height: int = 720,
                symbologies: tuple[str, ...] = ("qr", "code128"), seed: int = 0,
                qr_module_px: int = 5, bar_module_px: int = 3) -> np.ndarray:
    """A camera frame (BGR) of a phone showing `text`, upright near the middle of a counter.

    Used by the synthetic source; the benchmark corpus composes the same parts with distortions.
    """
    rng = np.random.default_rng(seed)
    background = cluttered_background(rng, width, height)
    phone = render_phone(text, symbologies=symbologies, qr_module_px=qr_module_px,
                         bar_module_px=bar_module_px)
    fit = min(0.95 * height / phone.shape[0], 0.9 * width / phone.shape[1], 1.0)
    return place(phone, background, center=(width / 2, height / 2), scale=fit)
