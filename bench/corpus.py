"""Seeded corpus of camera frames: a phone showing a payment code on a cluttered counter.

Each sample carries its truth (text, symbology, effective pixels per module, tilt) so the
benchmark can score read rate, misreads and false reads per bucket. Same seed, same frames.
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from dataclasses import dataclass

import cv2
import numpy as np

from hardware.render import cluttered_background, code128_modules, layout_phone, place

BUCKETS = ("clean", "blur", "small", "perspective", "low_contrast", "tilt", "close", "screen",
           "steep", "mixed", "tiny", "empty")
# mixed: tilt + perspective + blur + lower contrast at once; tiny: below 2 px per module.
# Neither is part of the bars: they show where reading stops.
# What the real photos taught (bench/bench_realphotos.py, docs/scanning.md):
# close: a phone held up to a fixed-focus webcam: modules 14-22 px (QR) and a blur that scales
#   with them (BoofCV "close"); the old primary pass, without downscaling, read none of these;
# screen: a screen filmed: moire from its pixel grid beating with the sensor's, and a glare
#   highlight (BoofCV "monitor");
# steep: a phone tilted well away from the camera (perspective 0.3-0.45).
SIZES = {"720p": (1280, 720), "480p": (640, 480)}
SYMBOLOGIES = ("qr", "code128")


@dataclass(frozen=True)
class Sample:
    image: np.ndarray          # BGR camera frame
    text: str | None           # None: nothing readable on purpose (empty bucket)
    symbology: str | None
    bucket: str
    size: str
    px_per_module: float
    angle_deg: float
    twin: np.ndarray | None = None  # 1-D codes: the next frame, for the two-frame rule


def _payment_code(rng: np.random.Generator) -> str:
    length = int(rng.choice([18, 18, 18, 16, 19, 20, 24]))
    first = str(int(rng.integers(1, 10)))
    return first + "".join(str(int(d)) for d in rng.integers(0, 10, length - 1))


def _params(bucket: str, sym: str, rng: np.random.Generator, width: int,
            modules: int) -> tuple[float, float, float]:
    """(pixels per module, in-plane angle, perspective) for one sample of a bucket."""
    if bucket == "phone":
        # issue 42: Code 128 on a phone's screen at 1.2-2 px per module, tilted as in `tilt`,
        # blurred as in `blur`, a little perspective
        angle = float(rng.uniform(0, 30) * rng.choice([-1, 1]))
        return (float(rng.uniform(1.2, min(2.0, 0.85 * width / modules))), angle,
                float(rng.uniform(0.0, 0.15)))
    if sym == "qr":
        ppm = {"small": (2.0, 2.6), "tilt": (3.0, 5.0), "tiny": (1.3, 2.0),
               "close": (14.0, 22.0)}.get(bucket, (3.0, 6.0))
    else:
        ppm = {"small": (2.0, 2.4), "tilt": (2.0, 4.0), "blur": (3.0, 4.0),
               "tiny": (1.3, 2.0), "close": (4.0, 8.0)}.get(bucket, (2.5, 4.0))
    hi = min(ppm[1], 0.85 * width / modules)
    px = float(rng.uniform(min(ppm[0], hi), hi))
    if bucket == "tilt":
        angle = float(rng.uniform(0, 30) * rng.choice([-1, 1]))
    elif bucket in ("perspective", "mixed", "steep"):
        angle = float(rng.uniform(-20, 20) if bucket == "mixed" else rng.uniform(-10, 10))
    else:
        angle = float(rng.uniform(-5, 5))
    perspective = {"perspective": (0.1, 0.3), "mixed": (0.1, 0.3), "steep": (0.3, 0.45)}.get(bucket)
    return px, angle, float(rng.uniform(*perspective)) if perspective else 0.0


def make_sample(rng: np.random.Generator, bucket: str, size: str, sym: str | None, *,
                text: str | None = None, px_per_module: float | None = None,
                angle_deg: float | None = None) -> Sample:
    """One frame of `bucket`; `text`, `px_per_module` and `angle_deg` override what the
    bucket would draw (a given frame rebuilt: the misread of issue 42 in tests)."""
    width, height = SIZES[size]
    frame = cluttered_background(rng, width, height)
    wanted, text = text, None
    px = angle = 0.0
    if bucket == "empty":
        if rng.random() < 0.6:  # a phone with no code on screen, or just the counter
            phone, _ = layout_phone(None)
            frame = place(phone, frame, center=(width * rng.uniform(0.3, 0.7),
                                                height * rng.uniform(0.3, 0.7)),
                          scale=float(rng.uniform(0.3, 0.6)),
                          angle_deg=float(rng.uniform(-30, 30)))
        sym = None
    else:
        assert sym is not None
        text = wanted or _payment_code(rng)
        modules = (len(code128_modules(text)) + 20) if sym == "code128" else 37
        px, angle, perspective = _params(bucket, sym, rng, width, modules)
        px = px_per_module or px
        angle = angle if angle_deg is None else angle_deg
        module = max(1, math.ceil(px))
        scale = px / module
        phone, boxes = layout_phone(text, symbologies=(sym,), qr_module_px=module,
                                    bar_module_px=module)
        bx, by, bw, bh = boxes[0]
        radius = 0.5 * math.hypot(bw, bh) * scale + 4
        cx = rng.uniform(min(radius, width / 2), max(width - radius, width / 2))
        cy = rng.uniform(min(radius, height / 2), max(height - radius, height / 2))
        frame = place(phone, frame, center=(cx, cy), scale=scale, angle_deg=angle,
                      perspective=perspective, rng=rng, anchor=(bx + bw / 2, by + bh / 2))
    twin = None
    if sym == "code128":
        # the camera's next frame: the hand moved a fraction of a pixel, fresh sensor noise
        twin_rng = np.random.default_rng(int(rng.integers(0, 2**32)))
        shift = np.float32([[1, 0, twin_rng.uniform(-0.7, 0.7)],
                            [0, 1, twin_rng.uniform(-0.7, 0.7)]])
        moved = cv2.warpAffine(frame, shift, (width, height), borderMode=cv2.BORDER_REFLECT)
        twin = _degrade(moved, bucket, twin_rng, px)
    frame = _degrade(frame, bucket, rng, px)
    return Sample(frame, text, sym, bucket, size, round(px, 2), round(angle, 1), twin)


def _degrade(frame: np.ndarray, bucket: str, rng: np.random.Generator,
             px: float = 0.0) -> np.ndarray:
    img = frame.astype(np.float32)
    if bucket == "close":
        # out of focus in proportion to the modules: the lens cannot focus that near
        img = cv2.GaussianBlur(img, (0, 0), max(0.8, px * float(rng.uniform(0.3, 0.5))))
    elif bucket == "screen":
        img = _screen(img, rng)
    elif bucket == "mixed":
        img = cv2.GaussianBlur(img, (0, 0), float(rng.uniform(0.7, 1.1)))
        img = (img - 128) * float(rng.uniform(0.45, 0.7)) + float(rng.uniform(110, 150))
    elif bucket == "phone":
        # a hand-held phone: milder than `blur`, whose sigma up to 1.5 erases modules of
        # 1.2-2 px altogether (zxing-cpp alone read 5% of these frames with it, 15-19% so)
        img = _blurred(img, rng, (0.5, 1.0), 2)
    elif bucket == "blur":
        img = _blurred(img, rng, (0.8, 1.5), 3)
    elif bucket == "low_contrast":
        contrast = float(rng.uniform(0.25, 0.45))
        img = (img - 128) * contrast + float(rng.uniform(100, 160))
    else:
        img = cv2.GaussianBlur(img, (0, 0), 0.5)  # every lens is a little soft
    img += _noise(img.shape, rng) * float(rng.uniform(1.5, 4.0))
    np.clip(img, 0, 255, out=img)
    return img.astype(np.uint8)


def _blurred(img: np.ndarray, rng: np.random.Generator, sigma: tuple[float, float],
             shortest: int) -> np.ndarray:
    """Out of focus (Gaussian, sigma in `sigma`) or, half the time, moved: a smear of
    `shortest` to 5 px in any direction."""
    if rng.random() < 0.5:
        out: np.ndarray = cv2.GaussianBlur(img, (0, 0), float(rng.uniform(*sigma)))
        return out
    length = int(rng.integers(shortest, 6))
    kernel = np.zeros((length, length), np.float32)
    kernel[length // 2, :] = 1.0 / length
    rot = cv2.getRotationMatrix2D((length / 2 - 0.5, length / 2 - 0.5),
                                  float(rng.uniform(0, 180)), 1.0)
    kernel = cv2.warpAffine(kernel, rot, (length, length))
    out = cv2.filter2D(img, -1, kernel / max(kernel.sum(), 1e-6))
    return out


def _screen(img: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """Moire (a slanted grating: the screen's pixel grid beating with the sensor's) and a glare
    highlight somewhere on the frame, as on photos of a monitor."""
    h, w = img.shape[:2]
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    theta = float(rng.uniform(0, np.pi))
    period = float(rng.uniform(3.0, 9.0))
    wave = np.sin((xx * np.cos(theta) + yy * np.sin(theta)) * (2 * np.pi / period))
    moire = 1.0 + float(rng.uniform(0.08, 0.2)) * wave
    gx, gy = float(rng.uniform(0.2, 0.8)) * w, float(rng.uniform(0.2, 0.8)) * h
    radius = float(rng.uniform(0.08, 0.2)) * min(w, h)
    glare = float(rng.uniform(60, 140)) * np.exp(-((xx - gx) ** 2 + (yy - gy) ** 2)
                                                  / (2 * radius ** 2))
    if img.ndim == 3:
        moire, glare = moire[..., None], glare[..., None]
    out: np.ndarray = cv2.GaussianBlur(img * moire + glare, (0, 0), 0.7)
    return out


_NOISE: dict[tuple[int, ...], np.ndarray] = {}


def _noise(shape: tuple[int, ...], rng: np.random.Generator) -> np.ndarray:
    """Unit sensor noise: a seeded field twice the frame, cut at a random offset (fast)."""
    if shape not in _NOISE:
        big = (shape[0] * 2, shape[1] * 2, *shape[2:])
        _NOISE[shape] = np.random.default_rng(1).standard_normal(big, dtype=np.float32)
    field = _NOISE[shape]
    y, x = int(rng.integers(0, shape[0])), int(rng.integers(0, shape[1]))
    return field[y:y + shape[0], x:x + shape[1]]


def generate_phone(seed: int, n: int, size: str = "720p") -> Iterator[Sample]:
    """`n` frames of the `phone` bucket (Code 128 only): issue 42's phone screens."""
    rng = np.random.default_rng(seed)
    for _ in range(n):
        yield make_sample(rng, "phone", size, "code128")


def generate(seed: int = 20261121, per_cell: int = 40, empty_per_size: int = 50,
             sizes: tuple[str, ...] = tuple(SIZES)) -> Iterator[Sample]:
    """per_cell frames for every (bucket, size, symbology), plus empty frames per size."""
    rng = np.random.default_rng(seed)
    for size in sizes:
        for bucket in BUCKETS:
            if bucket == "empty":
                for _ in range(empty_per_size):
                    yield make_sample(rng, bucket, size, None)
                continue
            for sym in SYMBOLOGIES:
                for _ in range(per_cell):
                    yield make_sample(rng, bucket, size, sym)


if __name__ == "__main__":  # write a few frames to look at: python -m bench.corpus OUTDIR
    import sys
    from pathlib import Path

    out = Path(sys.argv[1] if len(sys.argv) > 1 else "corpus-preview")
    out.mkdir(parents=True, exist_ok=True)
    for i, s in enumerate(generate(per_cell=2, empty_per_size=2)):
        cv2.imwrite(str(out / f"{i:03d}_{s.size}_{s.bucket}_{s.symbology}.png"), s.image)
    print(f"wrote preview frames to {out}")
