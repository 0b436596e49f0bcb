"""The real-photo corpus (../shared/realphotos beside the repo): loading, frames and scoring.

The photos are never copied into the project. `corpus_dir()` finds the folder: the env var
POS_REALPHOTOS if set, else `../shared/realphotos` relative to the repository root.

Sets scored (each photo's truth comes from the corpus's manifest.json):
- every QR set of the manifest, and "all QR" (codes = distinct expected texts per photo);
- Code 128 photos as they are (turned 0) and turned 90, 20 and 45 degrees (the 50 Code 128
  photos of the corpus, rotated here on a canvas grown to fit, filled with the photo's border
  colour);
- the code-free photos (any read is a false read).
A decoded text that is not one of the photo's expected texts is a misread, unless the photo has
codes of unknown text (`unknown` > 0 in the manifest), where it is counted apart as unverified.
"""

from __future__ import annotations

import json
import math
import os
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

ENV_VAR = "POS_REALPHOTOS"
REPO = Path(__file__).resolve().parent.parent
C128_TURNS = (0, 90, 20, 45)


def corpus_dir() -> Path:
    """Where the photos are: $POS_REALPHOTOS, else ../shared/realphotos beside the repo (a
    git worktree one level deeper finds ../../shared/realphotos)."""
    override = os.environ.get(ENV_VAR)
    if override:
        return Path(override).expanduser().resolve()
    beside = REPO.parent / "shared" / "realphotos"
    for up in (REPO.parent, REPO.parent.parent):
        candidate = up / "shared" / "realphotos"
        if (candidate / "manifest.json").is_file():
            return candidate.resolve()
    return beside.resolve()


def available(root: Path | None = None) -> bool:
    root = root or corpus_dir()
    return (root / "manifest.json").is_file()


@dataclass(frozen=True)
class Photo:
    file: str                    # relative to the corpus folder
    set: str                     # manifest set, or "code128 turned N deg"
    symbology: str               # qr | code128 | none
    expected: tuple[str, ...]    # distinct texts known to be in the photo
    unknown: int                 # codes in the photo whose text is not known
    turn_deg: int = 0            # rotation applied here (Code 128 sets)


def load_manifest(root: Path | None = None) -> list[dict[str, object]]:
    root = root or corpus_dir()
    data = json.loads((root / "manifest.json").read_text(encoding="utf-8"))
    entries: list[dict[str, object]] = data["entries"]
    return entries


def photos(root: Path | None = None) -> list[Photo]:
    """Every scored photo: the QR sets as they are, Code 128 turned, the code-free ones."""
    out: list[Photo] = []
    entries = load_manifest(root)
    for e in entries:
        expected = tuple(dict.fromkeys(str(t) for t in e["expected"]))  # type: ignore[attr-defined]
        unknown = int(e.get("unknown") or 0)  # type: ignore[call-overload]
        sym = str(e["symbology"])
        if sym == "code128":
            continue
        out.append(Photo(str(e["file"]), str(e["set"]), sym, expected, unknown))
    for turn in C128_TURNS:
        for e in entries:
            if e["symbology"] != "code128":
                continue
            expected = tuple(dict.fromkeys(str(t) for t in e["expected"]))  # type: ignore[attr-defined]
            out.append(Photo(str(e["file"]), turned_set(turn), "code128", expected,
                             int(e.get("unknown") or 0), turn))  # type: ignore[call-overload]
    return out


def turned_set(turn: int) -> str:
    return f"code128 turned {turn} deg"


def read_gray(photo: Photo, root: Path | None = None) -> np.ndarray:
    root = root or corpus_dir()
    image = cv2.imread(str(root / photo.file), cv2.IMREAD_GRAYSCALE)
    if image is None:
        raise ValueError(f"{photo.file}: OpenCV cannot read it")
    return turn(image, photo.turn_deg)


def turn(gray: np.ndarray, degrees: int) -> np.ndarray:
    """The photo rotated counter-clockwise by `degrees` on a canvas grown to hold all of it,
    the corners filled with the photo's median border level."""
    if degrees % 360 == 0:
        return gray
    if degrees % 90 == 0:
        return np.ascontiguousarray(np.rot90(gray, degrees // 90))
    h, w = gray.shape[:2]
    rad = math.radians(degrees)
    nw = math.ceil(abs(w * math.cos(rad)) + abs(h * math.sin(rad)))
    nh = math.ceil(abs(w * math.sin(rad)) + abs(h * math.cos(rad)))
    matrix = cv2.getRotationMatrix2D((w / 2, h / 2), degrees, 1.0)
    matrix[0, 2] += nw / 2 - w / 2
    matrix[1, 2] += nh / 2 - h / 2
    border = np.concatenate([gray[0], gray[-1], gray[:, 0], gray[:, -1]])
    fill = int(np.median(border))
    return cv2.warpAffine(gray, matrix, (nw, nh), flags=cv2.INTER_LINEAR,
                          borderMode=cv2.BORDER_CONSTANT, borderValue=fill)


def letterbox(gray: np.ndarray, size: tuple[int, int] = (1280, 720)) -> np.ndarray:
    """The photo scaled to fit `size` (width, height) and centred on a mid-grey canvas: what a
    720p camera would hand the decoder."""
    w, h = size
    ih, iw = gray.shape[:2]
    scale = min(w / iw, h / ih)
    nw, nh = max(1, round(iw * scale)), max(1, round(ih * scale))
    interp = cv2.INTER_AREA if scale < 1 else cv2.INTER_LINEAR
    small = cv2.resize(gray, (nw, nh), interpolation=interp)
    canvas = np.full((h, w), 128, np.uint8)
    y, x = (h - nh) // 2, (w - nw) // 2
    canvas[y:y + nh, x:x + nw] = small
    return canvas


@dataclass
class Score:
    codes: int = 0
    reads: int = 0
    misreads: int = 0        # texts read that are not the photo's (photo with all texts known)
    unverified: int = 0      # other texts on photos that hold codes of unknown text
    false_reads: int = 0     # code-free photos with any read
    photos: int = 0

    def add(self, photo: Photo, texts: Sequence[str]) -> None:
        self.photos += 1
        found = set(texts)
        if photo.symbology == "none":
            self.false_reads += bool(found)
            return
        self.codes += len(photo.expected)
        self.reads += len(found & set(photo.expected))
        other = len(found - set(photo.expected))
        if photo.unknown:
            self.unverified += other
        else:
            self.misreads += other


def set_order(all_photos: Sequence[Photo]) -> list[str]:
    qr = sorted({p.set for p in all_photos if p.symbology == "qr"})
    none = sorted({p.set for p in all_photos if p.symbology == "none"})
    return ["all QR", *qr, *[turned_set(t) for t in C128_TURNS], "all code-free", *none]


def sets_of(photo: Photo) -> Iterator[str]:
    yield photo.set
    if photo.symbology == "qr":
        yield "all QR"
    elif photo.symbology == "none":
        yield "all code-free"


def module_px(position: object, version: int) -> float:
    """Pixels per module of a QR symbol from zxing-cpp's corner points and its version."""
    pts = [getattr(position, n) for n in ("top_left", "top_right", "bottom_right",
                                           "bottom_left")]
    sides = [math.hypot(a.x - b.x, a.y - b.y) for a, b in zip(pts, pts[1:] + pts[:1],
                                                                strict=True)]
    return sum(sides) / 4 / (17 + 4 * version)


MODULE_BUCKETS = ((0, 2), (2, 4), (4, 8), (8, 16), (16, 32), (32, 1e9))


def bucket_label(px: float | None) -> str:
    if px is None:
        return "unknown"
    for lo, hi in MODULE_BUCKETS:
        if lo <= px < hi:
            return f"{lo:g}-{hi:g}" if hi < 1e9 else f">={lo:g}"
    return "unknown"
