"""Decoder benchmark on real photographs (bench/realphotos.py), beside the synthetic one.

    PYTHONPATH=. python bench/bench_realphotos.py [--quick]

Scores `hardware.make_decoder()` (exactly the default configuration's decoder) against
zxing-cpp with its default options and pyzbar with its defaults, all in the same run:
- read rate per set of the corpus's manifest.json, misreads and false reads;
- read rate against QR module size (pixels per module, from the symbol's corners and version
  as zxing-cpp reports them for whichever decoder read it);
- cost per 1280x720 frame (photos letterboxed to 720p), with a code and without one (for the
  empty-frame p95 also 300 synthetic empty counters, 3 repeats; `--cost` runs that alone): CPU
  time of this thread, one core, the decoders alternating frame by frame so that load from
  other processes falls on all alike; ratios matter, absolute numbers depend on the machine.
  Empty frames are timed two ways: the single-thread decoder (`make_decoder().decode()`: the
  whole cascade on the camera's schedule, what a camera without its second lane runs), and the
  camera as it runs (issue 42): its thread's primary pass, and apart what the second lane does
  with the frame (on the other core);
- the camera loop at 720p on one core: the single-thread decoder through it (every frame
  decoded), and the camera with its second lane, the frames played at 15 fps.
Skips (exit 0, saying so) when the corpus folder is missing: set POS_REALPHOTOS to point at it.
"""

from __future__ import annotations

import os

for _var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ[_var] = "1"

import argparse  # noqa: E402
import sys  # noqa: E402
import time  # noqa: E402
from collections import defaultdict  # noqa: E402
from collections.abc import Callable  # noqa: E402
from dataclasses import dataclass, field  # noqa: E402
from pathlib import Path  # noqa: E402
from typing import TypeVar  # noqa: E402

import cv2  # noqa: E402
import numpy as np  # noqa: E402
import zxingcpp  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench import realphotos as rp  # noqa: E402
from bench.bars import report_bars  # noqa: E402
from hardware.decoders import (  # noqa: E402
    PACED_BUDGET,
    RESCUE_BUDGET,
    CascadeDecoder,
    RescueDecoder,
    make_decoder,
)
from hardware.decoders.opencv import OpenCvQrDecoder  # noqa: E402
from hardware.decoders.pyzbar import PyzbarDecoder  # noqa: E402
from hardware.decoders.zxing import ZxingDecoder  # noqa: E402

OURS, ZXING, PYZBAR = "pos-terminal", "zxing-cpp defaults", "pyzbar"
PRIMARY = "zxing-cpp primary"
CV_ARUCO, CV_CLASSIC, UNION = "opencv aruco", "opencv classic", "union"
NAMES = (OURS, ZXING, PRIMARY, PYZBAR, CV_ARUCO, CV_CLASSIC)
FIGURE_NAMES = (OURS, ZXING, PYZBAR)
# the union: every read any of the independent decoders alone makes (zxing-cpp with
# its defaults and as the project's primary pass calls it, zbar, OpenCV's two QR detectors);
# the project must read at least that in every source folder
UNION_OF = (ZXING, PRIMARY, PYZBAR, CV_ARUCO, CV_CLASSIC)

# Symbols really in a photo that its manifest entry does not list. zxing's qrcode-2/16.png is a
# "double QR": a small red QR printed inside the big one (its text begins "[内側QRコード]",
# "inner QR code"; the manifest lists only the outer one). Reading it is not a misread; it is
# counted in its own column so that it stays visible.
OTHER_SYMBOLS = {"images/zxing/qrcode-2/16.png": ("[内側QRコード]",)}

Reader = Callable[[np.ndarray], list[tuple[str, float | None]]]
T = TypeVar("T")


def readers() -> dict[str, Reader]:
    """Each decoder as the bench calls it on a photo at native resolution: the project's as
    `pos-terminal scan-image` does (a still picture: every decoder family), the others alone
    with their library defaults."""
    ours = make_decoder(every=1)
    zbar = PyzbarDecoder(None)
    aruco, classic = OpenCvQrDecoder("aruco"), OpenCvQrDecoder("classic")
    primary = ZxingDecoder()

    def read_ours(gray: np.ndarray) -> list[tuple[str, float | None]]:
        return [(d.text, d.module_px) for d in ours.decode(gray)]

    def read_zxing(gray: np.ndarray) -> list[tuple[str, float | None]]:
        return [(r.text, _module(r)) for r in zxingcpp.read_barcodes(gray)]

    def read_primary(gray: np.ndarray) -> list[tuple[str, float | None]]:
        return [(d.text, d.module_px) for d in primary.decode(gray)]

    def read_pyzbar(gray: np.ndarray) -> list[tuple[str, float | None]]:
        return [(d.text, None) for d in zbar.decode(gray)]

    def read_aruco(gray: np.ndarray) -> list[tuple[str, float | None]]:
        return [(d.text, None) for d in aruco.decode(gray)]

    def read_classic(gray: np.ndarray) -> list[tuple[str, float | None]]:
        return [(d.text, None) for d in classic.decode(gray)]

    return {OURS: read_ours, ZXING: read_zxing, PRIMARY: read_primary, PYZBAR: read_pyzbar,
            CV_ARUCO: read_aruco, CV_CLASSIC: read_classic}


def _module(result: object) -> float | None:
    extra = getattr(result, "extra", None)
    version = extra.get("Version") if isinstance(extra, dict) else None
    if "QR" not in str(getattr(result, "format", "")) or not str(version or "").isdigit():
        return None
    return rp.module_px(result.position, int(str(version)))


def is_other(photo: rp.Photo, text: str) -> bool:
    return any(text.startswith(p) for p in OTHER_SYMBOLS.get(photo.file, ()))


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))] if ordered else 0.0


def module_size_svg(rows: list[tuple[str, int, list[int]]]) -> str:
    """Grouped bars: read rate per module-size bucket for each decoder (a plain SVG file)."""
    colours = ("#1f77b4", "#ff7f0e", "#2ca02c")  # FIGURE_NAMES
    group_w, bar_w, left, top, height = 110, 30, 50, 40, 220
    width = left + group_w * len(rows) + 20
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{top + height + 70}" '
           'font-family="sans-serif" font-size="12">',
           f'<text x="{left}" y="20" font-size="14">QR read rate by module size (px per module), '
           'real photos</text>']
    for pct_line in (0, 50, 100):
        y = top + height - height * pct_line / 100
        out.append(f'<line x1="{left}" x2="{width - 20}" y1="{y}" y2="{y}" stroke="#ddd"/>'
                   f'<text x="{left - 8}" y="{y + 4}" text-anchor="end">{pct_line}%</text>')
    for i, (label, codes, hits) in enumerate(rows):
        x0 = left + i * group_w + 10
        for j, h in enumerate(hits):
            bar = height * h / codes if codes else 0
            out.append(f'<rect x="{x0 + j * bar_w}" y="{top + height - bar:.1f}" '
                       f'width="{bar_w - 4}" height="{bar:.1f}" fill="{colours[j]}">'
                       f'<title>{FIGURE_NAMES[j]}: {h}/{codes}</title></rect>')
        out.append(f'<text x="{x0 + 43}" y="{top + height + 16}" text-anchor="middle">{label}'
                   f'</text><text x="{x0 + 43}" y="{top + height + 30}" text-anchor="middle" '
                   f'fill="#666">{codes} codes</text>')
    for j, name in enumerate(FIGURE_NAMES):
        x = left + j * 170
        out.append(f'<rect x="{x}" y="{top + height + 44}" width="12" height="12" '
                   f'fill="{colours[j]}"/><text x="{x + 16}" y="{top + height + 54}">{name}</text>')
    out.append("</svg>")
    return "\n".join(out) + "\n"


# ---- leave one source out ---------------------------------------------------------------------
# The knobs of the project's decoder that were tuned on this corpus (the rescue pass's budget
# and its finder's scales), with the values that keep the 720p cost bar (a larger budget reads
# a little more and costs more than the bar allows: docs/scanning.md). Each fold tunes on every
# source folder but one (the setting that reads most there with no misread and no false read;
# ties go to the first listed, the default) and scores the folder left out with it: a read the
# tuning earned only on the photos it was tuned on shows up as a loss here.
CANDIDATES: dict[str, dict[str, object]] = {
    f"default (budget {RESCUE_BUDGET:g}, finder at 2x, 1x, 4x)": {},
    "budget 0.2": {"budget": 0.2},
    "no rescue pass (budget 0)": {"budget": 0.0},
    "finder at one scale": {"coarse": (1,)},
    "finder at 2x, 4x, 1x": {"coarse": (2, 4, 1)},
}

Key = tuple[str, int, str]   # photo file, turn, expected text


def candidate(settings: dict[str, object]) -> CascadeDecoder:
    decoder = make_decoder(every=1, budget=settings.get("budget", RESCUE_BUDGET))  # type: ignore[arg-type]
    assert isinstance(decoder, CascadeDecoder)
    if "coarse" in settings:
        decoder.rescue_pass.coarse = settings["coarse"]  # type: ignore[assignment]
    return decoder


def folder_of(photo: rp.Photo, sets: dict[str, str]) -> str:
    """The photo's source folder (its manifest set; a turned copy belongs to its original's)."""
    return sets[photo.file]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="every third photo")
    parser.add_argument("--cost", action="store_true",
                        help="only the empty-frame cost at 720p (the repeated measurement)")
    parser.add_argument("--svg", type=Path, metavar="PATH",
                        help="also draw the read-rate-by-module-size figure there")
    args = parser.parse_args(argv)
    root = rp.corpus_dir()
    if not rp.available(root):
        print(f"real-photo corpus not found at {root} (no manifest.json): SKIPPED. "
              f"Put the corpus at ../shared/realphotos beside the repository or set "
              f"{rp.ENV_VAR}=/path/to/realphotos.")
        return 0
    cv2.setNumThreads(1)
    if hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {min(os.sched_getaffinity(0))})
    photos = rp.photos(root)
    if args.cost:
        empty = empty_p95_ratios([rp.letterbox(rp.read_gray(p, root)) for p in photos
                                  if p.symbology == "none"])
        return report_bars("bars (issues 11, 33 and 42), empty 720p frames", empty.bars())
    if args.quick:
        photos = photos[::3]
    sets = {str(e["file"]): str(e["set"]) for e in rp.load_manifest(root)}
    read = readers()
    print(f"corpus: {root}, {len(photos)} frames (Code 128 photos also turned here by 90, 20 "
          f"and 45 degrees); one core; the machine may be shared: compare within this run")

    # ---- read rates, native resolution (what `pos-terminal scan-image` is given) -----------
    scores: dict[str, dict[str, rp.Score]] = {n: defaultdict(rp.Score) for n in NAMES}
    other: dict[str, dict[str, int]] = {n: defaultdict(int) for n in NAMES}
    bad_texts: list[tuple[str, str, str]] = []
    module_of: dict[Key, float] = {}
    got: dict[str, set[Key]] = {n: set() for n in NAMES}
    native_ms: dict[str, list[float]] = defaultdict(list)
    for photo in photos:
        gray = rp.read_gray(photo, root)
        for name in NAMES:
            t0 = time.thread_time()
            found = read[name](gray)
            native_ms[name].append((time.thread_time() - t0) * 1000)
            texts = [t for t, _ in found if not is_other(photo, t)]
            extra = len(found) - len(texts)
            for s in rp.sets_of(photo):
                scores[name][s].add(photo, texts)
                other[name][s] += extra
            for text, module in found:
                key = (photo.file, photo.turn_deg, text)
                if text in photo.expected:
                    got[name].add(key)
                    if module is not None and photo.turn_deg == 0:
                        module_of.setdefault(key, module)
                elif name == OURS and not photo.unknown and not is_other(photo, text):
                    bad_texts.append((photo.file, str(photo.turn_deg), text))
    union = set().union(*(got[n] for n in UNION_OF))
    order = [s for s in rp.set_order(photos) if scores[OURS][s].photos]
    in_set: dict[str, list[rp.Photo]] = defaultdict(list)
    for photo in photos:
        for s in rp.sets_of(photo):
            in_set[s].append(photo)

    def union_in(s: str) -> int:
        return sum((p.file, p.turn_deg, t) in union for p in in_set[s] for t in p.expected)

    # ---- leave one source out ------------------------------------------------------------------
    # per candidate, the photos' reads; a candidate differs from the default only where the
    # rescue pass is reached, so only those photos are decoded again
    loso_reads, choices = leave_one_source_out(photos, root, sets)
    loso_by_set: dict[str, int] = defaultdict(int)
    for photo in photos:
        for s in rp.sets_of(photo):
            loso_by_set[s] += sum((photo.file, photo.turn_deg, t) in loso_reads
                                  for t in photo.expected)

    print("\nread rate per source folder, native resolution: codes read (misreads) by each "
          "decoder alone, their union, the project, and the project tuned without that folder")
    head = ["codes", OURS, "leave-out", *NAMES[1:], UNION]
    print(f"{'set':<28}" + "".join(f"{h[:17]:>18}" for h in head))
    for s in order:
        c = {n: scores[n][s] for n in NAMES}
        if c[OURS].codes:
            cells = [str(c[OURS].codes), f"{c[OURS].reads} ({c[OURS].misreads})",
                     str(loso_by_set[s])]
            cells += [f"{c[n].reads} ({c[n].misreads})" for n in NAMES[1:]]
            cells.append(str(union_in(s)))
        else:
            cells = [f"{c[OURS].photos} ph", f"{c[OURS].false_reads} false", "-"]
            cells += [f"{c[n].false_reads} false" for n in NAMES[1:]] + ["-"]
        print(f"{s[:27]:<28}" + "".join(f"{x:>18}" for x in cells))
    unverified = [scores[n]["all QR"].unverified for n in NAMES]
    print(f"(misreads in brackets; texts read on photos holding codes of unknown text, not "
          f"scored: {'/'.join(map(str, unverified))}; a second symbol really in the photo that "
          f"the manifest does not list, see OTHER_SYMBOLS: "
          f"{'/'.join(str(other[n]['all QR']) for n in NAMES)})")
    for file, turn, text in bad_texts:
        print(f"  misread by {OURS}: {file} (turned {turn}): {text[:60]!r}")
    print("leave one source out: the setting each fold chose (tuned on the other folders)")
    for folder, choice in sorted(choices.items()):
        print(f"  {folder:<30} {choice}")
    print("native-resolution cost, ms per photo (median / p95; photos of every size): "
          + ", ".join(f"{n} {pct(native_ms[n], .5):.1f} / {pct(native_ms[n], .95):.1f}"
                      for n in NAMES))

    # ---- read rate by module size ------------------------------------------------------------
    print("\nQR read rate by module size (px per module at native resolution, measured on the "
          "reads of pos-terminal or zxing-cpp; 'unknown': read by neither)")
    per_bucket: dict[str, list[Key]] = defaultdict(list)
    for photo in photos:
        if photo.symbology != "qr":
            continue
        for text in photo.expected:
            key = (photo.file, photo.turn_deg, text)
            per_bucket[rp.bucket_label(module_of.get(key))].append(key)
    labels = [rp.bucket_label(lo) for lo, _ in rp.MODULE_BUCKETS]
    figure: list[tuple[str, int, list[int]]] = []
    print(f"{'px/module':<12}{'codes':>6}" + "".join(f"{n:>20}" for n in FIGURE_NAMES))
    for label in [*labels, "unknown"]:
        keys = per_bucket.get(label, [])
        if not keys:
            continue
        hits = [sum(k in got[n] for k in keys) for n in FIGURE_NAMES]
        figure.append((label, len(keys), hits))
        cells = [f"{h} {100 * h / len(keys):5.1f}%" for h in hits]
        print(f"{label:<12}{len(keys):>6}" + "".join(f"{c:>20}" for c in cells))
    if args.svg:
        args.svg.write_text(module_size_svg(figure), encoding="utf-8")
        print(f"(figure written to {args.svg})")

    # ---- cost at 720p ------------------------------------------------------------------------
    frames = [(p, rp.letterbox(rp.read_gray(p, root))) for p in photos]
    ratios, medians = cost_at_720p(frames)
    empty = empty_p95_ratios([f for p, f in frames if p.symbology == "none"])
    fps, lane_fps = camera_loop_fps([f for _, f in frames])

    # ---- bars ------------------------------------------------------------------------------------
    if args.quick:
        print("\n(--quick: bars are checked on the full corpus only)")
        return 0
    ours = scores[OURS]
    behind = [f"{s} {ours[s].reads} < {union_in(s)}" for s in order
              if ours[s].codes and ours[s].reads < union_in(s)]
    mis = sum(ours[s].misreads for s in order if s not in ("all QR", "all code-free"))
    all_codes = [s for s in order if ours[s].codes and s != "all QR"]
    total_union = sum(union_in(s) for s in all_codes)
    total_loso = sum(loso_by_set[s] for s in all_codes)
    straight, t45 = rp.turned_set(0), rp.turned_set(45)
    bars = [
        ("every source folder and overall >= the union of zxing-cpp, zbar, OpenCV", not behind,
         "; ".join(behind) or f"none behind (all QR {ours['all QR'].reads} vs "
         f"{union_in('all QR')})"),
        ("leave one source out within 2% of the union", total_loso >= 0.98 * total_union,
         f"{total_loso} of the union's {total_union} ({100 * total_loso / total_union:.1f}%)"),
        ("all QR >= 280 of 297", ours["all QR"].reads >= 280, f"{ours['all QR'].reads}"),
        ("QR on a monitor whole", ours["boofcv/monitor"].reads == ours["boofcv/monitor"].codes,
         f"{ours['boofcv/monitor'].reads}/{ours['boofcv/monitor'].codes}"),
        ("QR close to the lens whole", ours["boofcv/close"].reads == ours["boofcv/close"].codes,
         f"{ours['boofcv/close'].reads}/{ours['boofcv/close'].codes}"),
        ("Code 128 turned 90 deg >= 48", ours[rp.turned_set(90)].reads >= 48,
         f"{ours[rp.turned_set(90)].reads}"),
        ("Code 128 turned 45 deg reads what the straight photos read",
         ours[t45].reads >= ours[straight].reads,
         f"{ours[t45].reads} turned, {ours[straight].reads} straight"),
        ("zero misreads", mis == 0, str(mis)),
        ("zero false reads on code-free photos", ours["all code-free"].false_reads == 0,
         f"{ours['all code-free'].false_reads} of {ours['all code-free'].photos}"),
        *empty.bars(f"the photos alone {ratios['no code']:.2f}x"),
        ("720p frame with a code: median no slower than before the cascade",
         medians["with code"] <= 1.05,
         f"{medians['with code']:.2f}x (5% allowed for run-to-run noise)"),
        ("camera loop at 720p on one core >= 15 fps: the single-thread decoder", fps >= 15.0,
         f"{fps:.1f} fps"),
        ("camera loop at 720p on one core >= 15 fps: the camera with its second lane",
         lane_fps >= 15.0, f"{lane_fps:.1f} fps"),
    ]
    return report_bars(f"bars (issues 11, 33 and 42), decoder {make_decoder().name}", bars)


def leave_one_source_out(photos: list[rp.Photo], root: Path,
                         sets: dict[str, str]) -> tuple[set[Key], dict[str, str]]:
    """The reads of the project tuned, fold by fold, without the folder it is scored on; and
    the setting each fold chose."""
    # what each candidate reads and misreads on each photo
    per: dict[str, dict[tuple[str, int], tuple[set[str], int]]] = {}
    default = candidate({})
    reached: set[tuple[str, int]] = set()
    base: dict[tuple[str, int], tuple[set[str], int]] = {}
    for photo in photos:
        gray = rp.read_gray(photo, root)
        texts = {d.text for d in default.decode(gray) if not is_other(photo, d.text)}
        base[(photo.file, photo.turn_deg)] = _scored(photo, texts)
        if default.last_stage in ("rescue", None):
            reached.add((photo.file, photo.turn_deg))
    for name, settings in CANDIDATES.items():
        if not settings:
            per[name] = base
            continue
        decoder = candidate(settings)
        per[name] = dict(base)
        for photo in photos:
            if (photo.file, photo.turn_deg) not in reached:
                continue
            texts = {d.text for d in decoder.decode(rp.read_gray(photo, root))
                     if not is_other(photo, d.text)}
            per[name][(photo.file, photo.turn_deg)] = _scored(photo, texts)
    folders = sorted({folder_of(p, sets) for p in photos})
    reads: set[Key] = set()
    choices: dict[str, str] = {}
    for left_out in folders:
        def trained(name: str, left_out: str = left_out) -> tuple[int, int]:
            good = bad = 0
            for photo in photos:
                if folder_of(photo, sets) == left_out:
                    continue
                texts, wrong = per[name][(photo.file, photo.turn_deg)]
                good += len(texts & set(photo.expected))
                bad += wrong
            return good, bad

        scored = {n: trained(n) for n in CANDIDATES}
        clean = [n for n in CANDIDATES if scored[n][1] == 0] or list(CANDIDATES)
        best = max(clean, key=lambda n: scored[n][0])  # max keeps the first of equals
        choices[left_out] = best
        for photo in photos:
            if folder_of(photo, sets) != left_out:
                continue
            texts, _ = per[best][(photo.file, photo.turn_deg)]
            reads |= {(photo.file, photo.turn_deg, t) for t in texts & set(photo.expected)}
    return reads, choices


def _scored(photo: rp.Photo, texts: set[str]) -> tuple[set[str], int]:
    """The texts read and how many of them are wrong (misreads, or any read on a code-free
    photo; texts on photos with codes of unknown text are not counted)."""
    if photo.symbology == "none":
        return texts, len(texts)
    return texts, 0 if photo.unknown else len(texts - set(photo.expected))


def cost_at_720p(frames: list[tuple[rp.Photo, np.ndarray]]) -> tuple[dict[str, float],
                                                                      dict[str, float]]:
    """CPU ms per 1280x720 frame of the camera's decoder, the decoder before the cascade, and
    zxing-cpp alone (the primary pass's formats) and with its defaults, interleaved frame by
    frame; p95 ratios (ours / zxing-cpp alone) and median ratios (ours / before)."""
    camera = make_decoder()   # the camera's schedule: other families on one empty frame in k
    before = RescueDecoder(ZxingDecoder(), crop_decoders=make_decoder(every=1)
                           .rescue_pass.crop_decoders,  # type: ignore[attr-defined]
                           budget=PACED_BUDGET, coarse=(1,))
    alone = ZxingDecoder()
    timed: dict[str, Callable[[np.ndarray], object]] = {
        OURS + " (camera)": camera.decode, "before the cascade": before.decode,
        "zxing-cpp alone": alone.decode, ZXING: zxingcpp.read_barcodes}
    times: dict[tuple[str, str], list[float]] = defaultdict(list)
    for fn in timed.values():
        fn(frames[0][1])  # warm up
    for i, (photo, frame) in enumerate(frames):
        kind = "no code" if photo.symbology == "none" else "with code"
        names = list(timed)
        names = names[i % len(names):] + names[:i % len(names)]
        for name in names:
            t0 = time.thread_time()
            timed[name](frame)
            times[(name, kind)].append((time.thread_time() - t0) * 1000)
    print("\ncost per 1280x720 frame, CPU ms on one core (interleaved, same frames, same run; "
          "the camera's decoder asks one other family on one empty frame in "
          f"{camera.every}; the machine is shared: compare ratios)")  # type: ignore[attr-defined]
    print(f"{'frames':<12}{'n':>5}" + "".join(f"{n + ' p50/p95/mean':>32}" for n in timed))
    p95_ratio: dict[str, float] = {}
    median_ratio: dict[str, float] = {}
    for kind in ("with code", "no code"):
        cells = []
        for name in timed:
            t = times[(name, kind)]
            cells.append(f"{pct(t, .5):.1f} / {pct(t, .95):.1f} / {sum(t) / len(t):.1f}")
        n = len(times[(OURS + ' (camera)', kind)])
        print(f"{kind:<12}{n:>5}" + "".join(f"{c:>32}" for c in cells))
        ours_t = times[(OURS + " (camera)", kind)]
        p95_ratio[kind] = pct(ours_t, .95) / max(pct(times[("zxing-cpp alone", kind)], .95), 1e-9)
        median_ratio[kind] = pct(ours_t, .5) / max(pct(times[("before the cascade", kind)], .5),
                                                   1e-9)
    print("ratios: " + ", ".join(
        f"{k}: p95 {p95_ratio[k]:.2f}x zxing-cpp alone, median {median_ratio[k]:.2f}x before"
        for k in p95_ratio))
    return p95_ratio, median_ratio


EMPTY_SYNTHETIC = 300   # synthetic empty 720p counter frames (bench/corpus.py, seeded)
EMPTY_REPEATS = 3
EMPTY_BAR = 1.5         # p95 over zxing-cpp alone's (issues 11, 33 and 42)


@dataclass
class EmptyCost:
    """Per repeat, the empty-frame p95 of the single-thread decoder and of the camera thread
    (with its second lane) over zxing-cpp alone's; the lane's CPU ms per frame, all repeats."""

    single: list[float] = field(default_factory=list)
    thread: list[float] = field(default_factory=list)
    lane_ms: list[float] = field(default_factory=list)

    def bars(self, note: str = "") -> list[tuple[str, bool, str]]:
        def bar(what: str, ratios: list[float], note: str = note) -> tuple[str, bool, str]:
            median = sorted(ratios)[len(ratios) // 2]
            return (f"720p empty-frame p95 <= {EMPTY_BAR}x zxing-cpp alone (QR + Code 128; "
                    f"median of {len(ratios)} repeats over {EMPTY_SYNTHETIC} synthetic + the "
                    f"code-free photos): {what}", median <= EMPTY_BAR,
                    f"{median:.2f}x (repeats {', '.join(f'{r:.2f}' for r in ratios)}"
                    + (f"; {note})" if note else ")"))

        return [bar("the single-thread decoder", self.single),
                bar("the camera thread, beside its second lane", self.thread, "")]


def empty_p95_ratios(photo_frames: list[np.ndarray], synthetic: int = EMPTY_SYNTHETIC,
                     repeats: int = EMPTY_REPEATS) -> EmptyCost:
    """The empty-frame p95 over zxing-cpp alone (same formats) on 720p frames with no code
    (the code-free photos letterboxed plus `synthetic` empty counter frames of the synthetic
    corpus: a counter, a phone showing no code; 44 photos alone leave the p95 to 2-3 frames,
    hundreds make it stable), of the single-thread decoder (`make_decoder().decode()`) and of
    the camera thread as it runs beside its second lane (the primary pass; what the lane then
    does with the frame is timed apart: it runs on the other core). The decoders alternate
    frame by frame (the order rotates too) so that the machine's load falls on all alike; one
    ratio per repeat, each repeat in a fresh order, so the spread shows the noise."""
    from bench.corpus import make_sample

    rng = np.random.default_rng(20261127)
    frames = list(photo_frames)
    for _ in range(synthetic):
        frames.append(cv2.cvtColor(make_sample(rng, "empty", "720p", None).image,
                                   cv2.COLOR_BGR2GRAY))
    single, alone, camera = make_decoder(), ZxingDecoder(), make_decoder()
    assert isinstance(camera, CascadeDecoder)
    times: dict[str, list[float]] = defaultdict(list)

    def timed(name: str, work: Callable[[], T]) -> T:
        t0 = time.thread_time()
        out = work()
        times[name].append((time.thread_time() - t0) * 1000)
        return out

    def with_lane(gray: np.ndarray) -> None:
        # hardware.camera_loop: the camera thread's primary pass, the lane's work on its frame
        reads, misses = timed("camera thread", lambda: camera.primary_pass(gray))
        if not reads:
            timed("second lane", lambda: camera.extra_pass(
                gray, misses, camera.lane_families(bool(misses)), rescue_first=True))

    runs: dict[str, Callable[[np.ndarray], object]] = {
        "single": lambda gray: timed("single", lambda: single.decode(gray)),
        "alone": lambda gray: timed("alone", lambda: alone.decode(gray)),
        "lane": with_lane}
    for run in runs.values():
        run(frames[0])  # warm up
    cost = EmptyCost()
    p95s: list[tuple[float, float, float]] = []
    shuffle = np.random.default_rng(1)
    lane_ms: list[float] = []
    for _ in range(repeats):
        times.clear()
        for n, i in enumerate(shuffle.permutation(len(frames))):
            names = list(runs)
            for name in names[n % len(names):] + names[:n % len(names)]:
                runs[name](frames[i])
        base = max(pct(times["alone"], .95), 1e-9)
        p95s.append((pct(times["single"], .95), pct(times["camera thread"], .95), base))
        cost.single.append(p95s[-1][0] / base)
        cost.thread.append(p95s[-1][1] / base)
        lane_ms += times["second lane"]
    cost.lane_ms = lane_ms
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    print(f"\nempty 720p frames: {len(photo_frames)} code-free photos + {synthetic} synthetic "
          f"counters, {repeats} repeats, interleaved; load average {load:.1f}")
    for (one, thread, base), a, b in zip(p95s, cost.single, cost.thread, strict=True):
        print(f"  p95 zxing-cpp alone {base:.1f} ms; single-thread decoder {one:.1f} ms: "
              f"{a:.2f}x; camera thread beside its lane {thread:.1f} ms: {b:.2f}x")
    for what, ratios in (("single-thread decoder", cost.single),
                         ("camera thread", cost.thread)):
        print(f"  p95 ratio, {what}: median {sorted(ratios)[len(ratios) // 2]:.2f}x, spread "
              f"{min(ratios):.2f}-{max(ratios):.2f}x")
    frame_ms = 1000 / LOOP_FPS
    print(f"  second lane (the other core), CPU per frame it takes: p50 / p95 / mean "
          f"{pct(lane_ms, .5):.1f} / {pct(lane_ms, .95):.1f} / "
          f"{sum(lane_ms) / max(len(lane_ms), 1):.1f} ms ({pct(lane_ms, .95) / frame_ms:.2f} "
          f"of a frame's time at {LOOP_FPS:g} fps at the p95)")
    return cost


LOOP_FPS = 15.0   # the camera's pace (the frames played to the camera with its second lane)


class _Frames:
    """A grabber handing the camera loop the corpus's 720p frames: each decoded (lossless),
    or, played at `pace_fps`, as a camera films them (the decoder takes the latest)."""

    describe: str = "realphotos at 720p"

    def __init__(self, frames: list[np.ndarray], pace_fps: float | None = None) -> None:
        self._frames = frames
        self._next = 0
        self.pace_fps = pace_fps
        self.lossless = pace_fps is None

    def open(self) -> None:
        return None

    def read(self) -> np.ndarray:
        from hardware.sources.base import EndOfStream

        if self._next >= len(self._frames):
            raise EndOfStream("end of the corpus")
        frame = self._frames[self._next]
        self._next += 1
        return frame

    def close(self) -> None:
        return None


def camera_loop_fps(frames: list[np.ndarray]) -> tuple[float, float]:
    """Frames per second of CPU time through the real camera loop (capture thread, decode
    thread, quality hint, acceptor) on this pinned core, with a payment-code filter no corpus
    text passes (every frame is a frame with no read: the worst case): the single-thread
    decoder (`lane=False`, every frame decoded in turn), and the camera as it runs, with its
    second lane on the same core, the frames played at LOOP_FPS (frames its thread decoded per
    CPU second of the process: its thread's work and the lane's)."""
    from hardware.acceptance import ReadAcceptor
    from hardware.camera_loop import CameraSource
    from hardware.events import CodeFilter

    code_filter = CodeFilter()
    out: list[float] = []
    for pace in (None, LOOP_FPS):
        source = CameraSource("bench", _Frames(frames, pace),
                              make_decoder(code_filter=code_filter), ReadAcceptor(code_filter),
                              lane=pace is not None)
        decoded: list[int] = []
        source.cost_probe = lambda n, _cpu, _wall, got=decoded: got.append(n)
        t0 = time.process_time()
        source.start(lambda event: None)
        source.wait(len(frames) / LOOP_FPS * 3 + 60)
        if source.lane is not None:
            source.lane.idle(10)
        spent = time.process_time() - t0
        lane = source.lane
        source.stop()
        out.append(len(decoded) / max(spent, 1e-9))
        if lane is None:
            print(f"\ncamera loop at 720p, one core, the single-thread decoder: {out[-1]:.1f} "
                  "frames/s of CPU time (CameraSource, lane=False: every frame decoded in turn)")
        else:
            print(f"camera loop at 720p, one core, the camera with its second lane, frames "
                  f"played at {pace:g} fps: {out[-1]:.1f} frames/s of CPU time (its thread and "
                  f"the lane); its thread decoded {len(decoded)} of {len(frames)} frames, the "
                  f"lane took {lane.taken} ({lane.replaced} replaced in its slot)")
    return out[0], out[1]


if __name__ == "__main__":
    sys.exit(main())
