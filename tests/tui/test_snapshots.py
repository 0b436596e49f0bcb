"""Snapshots of the main screens at 80x24 (a plain Linux console) and 120x40, in fixed states
(fixed clock and ids: see scenes.py). Update with `pytest --snapshot-update` after a deliberate
change and look at the report."""

from __future__ import annotations

from pathlib import Path

import pytest

from pos_terminal.config import Settings
from tests.tui.scenes import SCENES, scene_app

SNAPSHOT_SCENES = ("sale", "sale-items", "pay", "progress", "progress-deadline",
                   "result-success", "result-failure", "history", "detail", "reports", "banks",
                   "show-qr", "result-receipt", "signin", "supervisor")


@pytest.mark.parametrize("size", [(80, 24), (120, 40)], ids=["80x24", "120x40"])
@pytest.mark.parametrize("scene", SNAPSHOT_SCENES)
def test_main_screens(snap_compare, settings: Settings, tmp_path: Path, scene: str,
                      size: tuple[int, int]) -> None:
    app = scene_app(settings, tmp_path / "journal.sqlite3")
    try:
        assert snap_compare(app, terminal_size=size, run_before=SCENES[scene])
    finally:
        app.counter.checkout.close()


@pytest.mark.parametrize("scene", ("sale", "result-failure", "history", "reports", "signin",
                                   "supervisor", "result-receipt"))
def test_main_screens_in_vietnamese(snap_compare, settings: Settings, tmp_path: Path,
                                    scene: str) -> None:
    app = scene_app(settings.replace_section("terminal", language="vi"),
                    tmp_path / "journal.sqlite3")
    try:
        assert snap_compare(app, terminal_size=(80, 24), run_before=SCENES[scene])
    finally:
        app.counter.checkout.close()
