"""scan-image and scan through click, on images and a video made in the test."""

from __future__ import annotations

import json
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import click
import cv2
import numpy as np
import pytest
import segno
from click.testing import CliRunner

from hardware.render import cluttered_background, layout_phone, phone_frame
from pos_terminal.cli import scan_cmds
from tests.hardware.helpers import CODE_A, CODE_B, write_video
from tests.processes import child_env

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def cli() -> click.Group:
    group = click.Group("pos-terminal")
    scan_cmds.register(group)
    return group


@pytest.fixture
def pictures(tmp_path: Path) -> dict[str, Path]:
    qr = tmp_path / "qr.png"
    segno.make(CODE_A, micro=False).save(str(qr), scale=6)
    phone = tmp_path / "phone.png"
    cv2.imwrite(str(phone), layout_phone(CODE_B, qr_module_px=4, bar_module_px=2)[0])
    empty = tmp_path / "empty.jpg"
    cv2.imwrite(str(empty), cluttered_background(np.random.default_rng(2), 640, 480))
    return {"qr": qr, "phone": phone, "empty": empty}


def test_scan_image_json_one_object_a_line(cli: click.Group, pictures: dict[str, Path]) -> None:
    result = CliRunner().invoke(cli, ["scan-image", "--json", str(pictures["qr"]),
                                      str(pictures["empty"]), str(pictures["phone"])])
    assert result.exit_code == 0, result.output
    lines = [json.loads(line) for line in result.stdout.splitlines()]
    assert lines[0] == {"file": str(pictures["qr"]),
                        "codes": [{"text": CODE_A, "symbology": "qr", "payment_code": True}]}
    assert lines[1] == {"file": str(pictures["empty"]), "codes": []}
    assert lines[2]["file"] == str(pictures["phone"])
    assert sorted(lines[2]["codes"], key=lambda c: c["symbology"]) == [
        {"text": CODE_B, "symbology": "code128", "payment_code": True},
        {"text": CODE_B, "symbology": "qr", "payment_code": True}]


def test_scan_image_shows_any_text_and_flags_what_is_not_a_payment_code(
        cli: click.Group, tmp_path: Path) -> None:
    url = tmp_path / "url.png"
    segno.make("https://example.com/menu?table=7", micro=False).save(str(url), scale=6)
    result = CliRunner().invoke(cli, ["scan-image", "--json", str(url)])
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout) == {"file": str(url), "codes": [
        {"text": "https://example.com/menu?table=7", "symbology": "qr", "payment_code": False}]}
    plain = CliRunner().invoke(cli, ["scan-image", str(url)])
    assert plain.stdout == (f"{url}: qr https://example.com/menu?table=7"
                            "  (not a payment code)\n")


def test_scan_image_ignores_a_micro_qr(cli: click.Group, tmp_path: Path) -> None:
    micro = tmp_path / "micro.png"
    segno.make(CODE_A, micro=True).save(str(micro), scale=8, border=4)
    for decoder in ("zxing", "pyzbar"):
        result = CliRunner().invoke(cli, ["scan-image", "--decoder", decoder, str(micro)])
        assert (result.exit_code, result.stdout) == (1, f"{micro}: no code found\n")


def test_scan_image_exit_1_when_no_file_had_a_code(cli: click.Group,
                                                   pictures: dict[str, Path]) -> None:
    result = CliRunner().invoke(cli, ["scan-image", str(pictures["empty"])])
    assert result.exit_code == 1
    assert result.stdout == f"{pictures['empty']}: no code found\n"


def test_scan_image_plain_output_and_pyzbar(cli: click.Group, pictures: dict[str, Path]) -> None:
    result = CliRunner().invoke(cli, ["scan-image", "--decoder", "pyzbar", str(pictures["qr"])])
    assert result.exit_code == 0
    assert result.stdout == f"{pictures['qr']}: qr {CODE_A}\n"


def test_scan_image_unreadable_file_is_named(cli: click.Group, tmp_path: Path,
                                             pictures: dict[str, Path]) -> None:
    missing = tmp_path / "missing.png"
    result = CliRunner().invoke(cli, ["scan-image", str(missing), str(pictures["qr"])])
    assert result.exit_code == 0
    assert f"error: {missing}: no such file" in result.stderr
    only_missing = CliRunner().invoke(cli, ["scan-image", str(missing)])
    assert only_missing.exit_code == 2


def test_scan_image_unknown_decoder(cli: click.Group, pictures: dict[str, Path]) -> None:
    result = CliRunner().invoke(cli, ["scan-image", "--decoder", "zbar", str(pictures["qr"])])
    assert result.exit_code == 2
    assert "unknown decoder 'zbar': use one of zxing, pyzbar, pyzbar-all" in result.stderr


@pytest.fixture
def machine_in_utc(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """The counter's machine clock set to UTC (as on most small Linux boxes)."""
    monkeypatch.setenv("TZ", "UTC")
    time.tzset()
    yield
    monkeypatch.undo()
    time.tzset()


def test_vn_clock_is_gmt_plus_7() -> None:
    assert scan_cmds.vn_clock(0) == "07:00:00"
    assert scan_cmds.vn_clock(1_700_000_000.9) == "05:13:20"  # 2023-11-14 22:13:20 UTC


def test_scan_prints_events_from_a_video_masked_with_decode_time(
        cli: click.Group, tmp_path: Path, machine_in_utc: None) -> None:
    empty = cluttered_background(np.random.default_rng(5), 640, 480)
    code = phone_frame(CODE_A, width=640, height=480, seed=5, qr_module_px=4, bar_module_px=2)
    video = write_video(tmp_path / "desk.avi", [empty] * 3 + [code] * 8 + [empty] * 2, fps=15)
    before = time.time()
    result = CliRunner().invoke(cli, ["scan", "--source", f"video:{video}", "--seconds", "60"])
    after = time.time()
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert len(lines) == 1
    # the event's time is printed in Vietnam time (GMT+7), not in the machine's UTC
    vn_seconds = {scan_cmds.vn_clock(t) for t in range(int(before), int(after) + 2)}
    assert lines[0].split()[0] in vn_seconds
    assert "••••3456" in lines[0] and CODE_A not in lines[0]
    assert " decode " in lines[0] and lines[0].endswith(" ms")
    assert "1 code(s) read; capture" in result.stderr
    assert f"[video:{video}] stopped: end of video desk.avi" in result.stderr


def test_scan_bad_spec_lists_the_forms(cli: click.Group) -> None:
    result = CliRunner().invoke(cli, ["scan", "--source", "webcam:0"])
    assert result.exit_code == 2
    assert "scanner source 'webcam:0': unknown kind 'webcam'; use one of: camera:N" in \
        result.stderr


def test_scan_wedge_points_to_evdev(cli: click.Group) -> None:
    result = CliRunner().invoke(cli, ["scan", "--source", "wedge"])
    assert result.exit_code == 2
    assert "use evdev:/dev/input/eventN" in result.stderr


def test_scan_image_through_the_real_entry_point(pictures: dict[str, Path]) -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "pos_terminal", "scan-image", "--json", str(pictures["qr"])],
        capture_output=True, text=True, cwd=ROOT, timeout=60,
        env=child_env())
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout) == {"file": str(pictures["qr"]), "codes": [
        {"text": CODE_A, "symbology": "qr", "payment_code": True}]}
