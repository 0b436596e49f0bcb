"""Paths on a screen (issue 43: slip paths wrapped mid-word): short, never more than the room,
the file's name whole."""

from __future__ import annotations

from pathlib import Path

from rich.cells import cell_len

from pos_terminal.base.paths import shown_path

SLIP = "0001-counter1-17958854877997418.png"


def test_a_path_under_the_working_directory_is_shown_relative_to_it(tmp_path: Path) -> None:
    assert shown_path(tmp_path / "demo" / "slips" / SLIP, cwd=tmp_path) == f"demo/slips/{SLIP}"


def test_a_long_path_leaves_out_folders_in_its_middle_and_keeps_the_name(tmp_path: Path) -> None:
    deep = Path("/srv", *[f"folder-{n}" for n in range(12)], "slips", SLIP)
    shown = shown_path(deep, 60, cwd=tmp_path)
    assert cell_len(shown) <= 60
    assert shown.startswith("/") and "…" in shown and shown.endswith(f"/slips/{SLIP}")


def test_a_name_wider_than_the_room_keeps_both_ends(tmp_path: Path) -> None:
    name = "receipt-" + "x" * 90 + ".png"
    shown = shown_path(Path("/srv") / name, 40, cwd=tmp_path)
    assert cell_len(shown) <= 40 and shown.startswith("receipt-") and shown.endswith(".png")
