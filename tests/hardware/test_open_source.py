"""SPEC strings: what each one opens, and the sentence for the ones that open nothing."""

from __future__ import annotations

import pytest

from hardware import SpecError, SyntheticSource, open_source
from hardware.camera_loop import CameraSource
from hardware.sources.capture import CameraGrabber, VideoGrabber
from hardware.sources.images import ImagesGrabber
from hardware.sources.lines import EvdevSource, SerialSource


def test_each_form_opens_its_kind_of_source() -> None:
    camera = open_source("camera:2")
    assert isinstance(camera, CameraSource) and isinstance(camera.grabber, CameraGrabber)
    assert camera.grabber.index == 2
    video = open_source("video:/tmp/clip.mp4")
    assert isinstance(video, CameraSource) and isinstance(video.grabber, VideoGrabber)
    images = open_source("images:/srv/drop")
    assert isinstance(images, CameraSource) and isinstance(images.grabber, ImagesGrabber)
    assert isinstance(open_source("synthetic"), SyntheticSource)
    evdev = open_source("evdev:/dev/input/event3")
    assert isinstance(evdev, EvdevSource) and evdev.path == "/dev/input/event3"
    serial = open_source("serial:/dev/ttyACM0:115200")
    assert isinstance(serial, SerialSource)
    assert (serial.path, serial.baud) == ("/dev/ttyACM0", 115200)
    default_baud = open_source("serial:/dev/ttyUSB1")
    assert isinstance(default_baud, SerialSource)
    assert (default_baud.path, default_baud.baud) == ("/dev/ttyUSB1", 9600)


def test_sources_start_ready_and_keep_their_spec() -> None:
    source = open_source("video:/tmp/clip.mp4")
    assert source.spec == "video:/tmp/clip.mp4"
    assert source.status().state == "ready"
    assert source.latest_frame() is None


@pytest.mark.parametrize(("spec", "why"), [
    ("webcam:0", "unknown kind 'webcam'"),
    ("camera:front", "camera index 'front' is not a number"),
    ("camera", "camera needs an argument"),
    ("synthetic:3", "synthetic takes no argument"),
    ("evdev", "evdev needs a device path"),
])
def test_bad_specs_say_why_and_list_the_forms(spec: str, why: str) -> None:
    with pytest.raises(SpecError) as info:
        open_source(spec)
    assert str(info.value) == (
        f"scanner source {spec!r}: {why}; use one of: camera:N, video:PATH, images:DIR, "
        "synthetic, wedge, evdev:/dev/input/eventN, serial:/dev/ttyACM0[:baud]")


def test_the_wedge_is_the_uis_keyboard_not_a_source_to_open() -> None:
    for spec in ("wedge", "wedge:1"):
        with pytest.raises(SpecError) as info:
            open_source(spec)
        assert "read by the terminal UI" in str(info.value)
        assert "evdev:/dev/input/eventN" in str(info.value)


def test_unknown_decoder_for_a_camera_source() -> None:
    with pytest.raises(ValueError, match="unknown decoder 'opencv'"):
        open_source("camera:0", decoder="opencv")
