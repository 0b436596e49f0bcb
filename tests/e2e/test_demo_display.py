"""The demo serves the customer display beside the terminal (issue 43): F10 names its address
and a browser gets the page there; a configuration with `[api] with_ui = true` passed to the demo
puts it on that file's port."""

from __future__ import annotations

import re
import shutil
import socket
from pathlib import Path

import pytest
import requests

from tests.e2e.test_demo_tmux import Tmux
from tests.processes import REPO, cli_command

pytestmark = [pytest.mark.e2e,
              pytest.mark.skipif(shutil.which("tmux") is None, reason="needs tmux")]

ADDRESS = r"http://127\.0\.0\.1:(\d+)/display"


def display_port(session: Tmux) -> int:
    session.wait_for("service ok")
    session.keys("F10")
    found = re.search(ADDRESS, session.wait_for_match(ADDRESS))
    assert found is not None
    return int(found[1])


def shows_the_display(port: int) -> None:
    page = requests.get(f"http://127.0.0.1:{port}/display", timeout=10)
    assert page.status_code == 200 and "text/html" in page.headers["content-type"]
    assert "/display/static/display.js" in page.text


def test_the_demo_serves_the_customer_display_and_f10_names_it(tmp_path: Path) -> None:
    session = Tmux(cli_command("demo", "--language", "en", "--folder", str(tmp_path / "d")))
    try:
        shows_the_display(display_port(session))
        session.keys("C-q")
    finally:
        session.close()


def test_with_ui_in_the_demos_configuration_is_honoured(tmp_path: Path) -> None:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    config = tmp_path / "pos.toml"
    config.write_text((REPO / "config" / "default.toml").read_text("utf-8")
                      + f"\n[api]\nwith_ui = true\nport = {port}\n", "utf-8")
    config.chmod(0o600)
    session = Tmux(cli_command("--config", str(config), "demo", "--language", "en",
                               "--folder", str(tmp_path / "d")))
    try:
        assert display_port(session) == port
        shows_the_display(port)
        session.keys("C-q")
    finally:
        session.close()
