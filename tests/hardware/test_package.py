"""The package's names load on first use, so a wedge-only counter never imports OpenCV."""

from __future__ import annotations

import subprocess
import sys

import hardware
from tests.processes import child_env


def test_every_exported_name_resolves_and_is_listed() -> None:
    assert sorted(hardware.__all__) == sorted(hardware._WHERE)
    for name in hardware.__all__:
        assert getattr(hardware, name) is not None


def test_importing_the_package_and_its_wedge_detector_does_not_load_opencv() -> None:
    probe = ("import sys, hardware; hardware.WedgeDetector(); "
             "print('cv2' in sys.modules, 'zxingcpp' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True,
                         timeout=60, check=True, env=child_env()).stdout.split()
    assert out == ["False", "False"]
