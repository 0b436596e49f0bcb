"""A file's path as a person reads it on a screen: short, and never broken inside a name.

``shown_path`` writes it relative to the working directory when it is under it (still a path
the shell there opens), with ``~`` for the home directory otherwise, and when it is still wider
than the room, leaves out folders in the middle (``/srv/…/slips/0001-….png``): a line then never
has to break a path, which has no space to break at, in the middle of a name."""

from __future__ import annotations

import os
from pathlib import Path

from rich.cells import cell_len

#: Cells a path may take on a screen line at 80 columns (the sentence around it wraps before it).
PATH_WIDTH = 70
ELLIPSIS = "…"


def shown_path(path: str | Path, width: int = PATH_WIDTH, *, cwd: Path | None = None) -> str:
    text = str(path)
    if not text:
        return text
    here = cwd or Path.cwd()
    full = Path(os.path.abspath(Path(text).expanduser()))
    try:
        text = str(full.relative_to(here))
    except ValueError:
        home = Path.home()
        if home != Path("/") and full.is_relative_to(home):
            text = "~/" + str(full.relative_to(home))
    return _elided(text, width)


def _elided(text: str, width: int) -> str:
    """`text` with folders in its middle left out until it fits `width` cells; a file name
    wider than that, its own middle."""
    if cell_len(text) <= width:
        return text
    head, _sep, name = text.rpartition("/")
    if cell_len(name) + 2 > width:
        keep = max(width - 1, 2)
        return name[:keep // 2] + ELLIPSIS + name[len(name) - (keep - keep // 2):]
    folders = head.split("/")
    first = folders[0] + "/" if len(folders) > 1 else ""
    tail = name
    for folder in reversed(folders[1:] if first else folders):
        candidate = f"{folder}/{tail}"
        if cell_len(first + ELLIPSIS + "/" + candidate) > width:
            break
        tail = candidate
    shown = f"{first}{ELLIPSIS}/{tail}"
    return shown if cell_len(shown) <= width else f"{ELLIPSIS}/{tail}"
