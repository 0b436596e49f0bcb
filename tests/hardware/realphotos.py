"""The real-photo corpus for tests: read in place from ../shared/realphotos (never copied)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from bench import realphotos as rp


def corpus() -> Path:
    """The corpus folder, or skip the test saying where it was looked for."""
    root = rp.corpus_dir()
    if not rp.available(root):
        pytest.skip(f"real-photo corpus not found at {root}: put it at ../shared/realphotos "
                    f"beside the repository or set {rp.ENV_VAR}")
    return root


def photo(file: str, turn_deg: int = 0) -> np.ndarray:
    """A corpus photo in grayscale, turned counter-clockwise by `turn_deg` as the bench does."""
    root = corpus()
    gray = rp.read_gray(rp.Photo(file, "", "", (), 0, turn_deg), root)
    return gray


def expected(file: str) -> list[str]:
    """The manifest's truth for a photo (distinct texts)."""
    for entry in rp.load_manifest(corpus()):
        if entry["file"] == file:
            return list(dict.fromkeys(str(t) for t in entry["expected"]))  # type: ignore[attr-defined]
    raise AssertionError(f"{file} is not in the corpus manifest")
