"""UI benchmarks (run by `make bench`, never by the test suite).

1. Start to ready: `pos-terminal` launched in a real terminal (tmux, 80x24) until the Sale
   screen is drawn, beside a minimal Textual app measured the same way (the floor: Python,
   Textual and the terminal). Bar: <= 1.5 s.
2. Scan to result: a scanner burst on the Pay screen until the Result screen is mounted, against
   the in-process emulator (wallet "an", pays at once), beside Checkout.pay() alone for the same
   payment (the UI's own cost is the difference).
3. Resident memory with the synthetic camera running and the live preview on, beside the
   process before the UI started; the preview's drawn fps and the camera's decode rate with
   the preview off and on (drawing must not slow decoding).

Usage: python bench/bench_ui.py [--starts 5] [--payments 10] [--camera-s 5]
"""

from __future__ import annotations

import argparse
import asyncio
import shlex
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
import uuid
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from hardware import CodeFilter, SyntheticSource, open_source  # noqa: E402
from pos_terminal.config import Settings, default_config_path, load_settings  # noqa: E402
from pos_terminal.counter import Counter, open_checkout  # noqa: E402
from pos_terminal.emulator import start_emulator  # noqa: E402
from pos_terminal.tui.app import PosApp  # noqa: E402
from pos_terminal.tui.demo import DemoController  # noqa: E402
from pos_terminal.tui.sales import NextSale  # noqa: E402
from pos_terminal.tui.screens.pay import PayScreen  # noqa: E402
from pos_terminal.tui.screens.result import ResultScreen  # noqa: E402
from pos_terminal.tui.screens.sale import SaleScreen  # noqa: E402
from pos_terminal.tui.widgets.preview import CameraPreview  # noqa: E402
from tests.processes import child_env, with_child_env  # noqa: E402

START_BAR_S = 1.5
MINIMAL_APP = """
from textual.app import App
from textual.widgets import Static
class Minimal(App):
    def compose(self):
        yield Static("Amount (type digits")
Minimal().run()
"""


def rss_mb() -> float:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return float("nan")


# ---- 1. start to ready ----------------------------------------------------------------------
# A tmux server of the benchmark's own (no ~/.tmux.conf), panes in a fully written environment:
# the caller's terminal size and locale change nothing (tests/processes.py says why).
TMUX_SOCKET = f"bench-ui-{uuid.uuid4().hex[:8]}"


def tmux(*args: str, check: bool = False) -> subprocess.CompletedProcess[str]:
    return subprocess.run(["tmux", "-L", TMUX_SOCKET, "-f", "/dev/null", *args], env=child_env(),
                          capture_output=True, text=True, check=check)


def time_to_screen(command: list[str], marker: str, timeout: float = 20.0) -> float:
    name = f"bench-ui-{uuid.uuid4().hex[:8]}"
    shell = shlex.join(with_child_env(command, TERM="tmux-256color"))
    started = time.perf_counter()
    tmux("new-session", "-d", "-s", name, "-x", "80", "-y", "24", "-c", str(REPO), shell,
         check=True)
    try:
        while time.perf_counter() - started < timeout:
            screen = tmux("capture-pane", "-p", "-t", name).stdout
            if marker in screen:
                return time.perf_counter() - started
            time.sleep(0.01)
        raise RuntimeError(f"{marker!r} never appeared")
    finally:
        tmux("kill-session", "-t", name)


def bench_start(starts: int, config: Path) -> None:
    if shutil.which("tmux") is None:
        print("start to ready: skipped (tmux not installed)")
        return
    ui = [sys.executable, "-m", "pos_terminal.cli", "--config", str(config)]
    minimal = [sys.executable, "-c", MINIMAL_APP]
    # One long-lived session keeps the tmux server up between the measured ones.
    keeper = f"bench-ui-keeper-{uuid.uuid4().hex[:6]}"
    tmux("new-session", "-d", "-s", keeper, "sleep 3600", check=True)
    try:
        time_to_screen(ui, "Amount (type digits")  # warm the disk cache, as on a 2nd start
        ui_times = [time_to_screen(ui, "Amount (type digits") for _ in range(starts)]
        floor = [time_to_screen(minimal, "Amount (type digits") for _ in range(starts)]
    finally:
        tmux("kill-server")
    ui_med, floor_med = statistics.median(ui_times), statistics.median(floor)
    print(f"start to ready (tmux 80x24, median of {starts}): pos-terminal {ui_med:.2f} s · "
          f"minimal Textual app {floor_med:.2f} s · ratio {ui_med / floor_med:.2f}x · "
          f"bar <= {START_BAR_S} s: {'PASS' if ui_med <= START_BAR_S else 'FAIL'}")


# ---- 2. scan to result ----------------------------------------------------------------------
def fresh_code(emulator: object, wallet: str = "an") -> str:
    import requests

    base = emulator.base_url  # type: ignore[attr-defined]
    requests.post(f"{base}/_emulator/wallets/{wallet}/rotate", json={},
                  timeout=5).raise_for_status()
    wallets = requests.get(f"{base}/_emulator/wallets", timeout=5).json()["wallets"]
    return next(str(w["code"]) for w in wallets if w["id"] == wallet)


async def ui_payments(settings: Settings, emulator: object, count: int) -> list[float]:
    from textual import events

    times: list[float] = []
    with open_checkout(settings) as checkout:
        app = PosApp(settings, Counter(settings, checkout), background=False)
        async with app.run_test(size=(80, 24)) as pilot:
            for _ in range(count):
                sale_screen = app.screen
                assert isinstance(sale_screen, SaleScreen)
                sale_screen.charge_sale(_sale())  # Pay answers Sale, which shows Result
                await pilot.pause()
                code = fresh_code(emulator)
                started = time.perf_counter()
                t = time.monotonic()
                for n, key in enumerate([*code, "enter"]):
                    event = events.Key(key, "\r" if key == "enter" else key)
                    event.time = t + n * 0.004
                    event.set_sender(app)
                    assert app._driver is not None
                    app._driver.send_message(event)
                while not (isinstance(app.screen, ResultScreen) and app.screen.is_mounted):
                    if time.perf_counter() - started > 30:
                        raise RuntimeError(f"no result; on {app.screen!r}, notices "
                                           f"{[n.message for n in app._notifications]}")
                    await asyncio.sleep(0.002)
                times.append(time.perf_counter() - started)
                app.screen.back_to_sale(NextSale())  # Enter: Result answers Pay, Pay Sale
                while not isinstance(app.screen, SaleScreen):
                    await asyncio.sleep(0.002)
                await pilot.pause()
    return times


def _sale():  # type: ignore[no-untyped-def]
    from pos_terminal.tui.sales import Sale

    return Sale(50_000, "bench", ())


def bench_scan_to_result(settings: Settings, emulator: object, count: int) -> None:
    ui = asyncio.run(ui_payments(settings, emulator, count))
    with open_checkout(settings) as checkout:
        direct = []
        for _ in range(count):
            code = fresh_code(emulator)
            started = time.perf_counter()
            checkout.pay(50_000, code, description="bench")
            direct.append(time.perf_counter() - started)
    ui_ms, direct_ms = statistics.median(ui) * 1000, statistics.median(direct) * 1000
    print(f"scan to result (median of {count}, emulator on loopback): UI {ui_ms:.1f} ms · "
          f"Checkout.pay alone {direct_ms:.1f} ms · UI's own share {ui_ms - direct_ms:.1f} ms "
          f"· ratio {ui_ms / direct_ms:.2f}x")


# ---- 3. memory and preview with the camera running ------------------------------------------
async def camera_run(settings: Settings, emulator: object, seconds: float) -> None:
    scanner = settings.scanner
    source = open_source("synthetic", decoder=scanner.decoder, code_filter=CodeFilter(
        scanner.code_alphabet, scanner.code_min_length, scanner.code_max_length))
    assert isinstance(source, SyntheticSource)
    before = rss_mb()
    demo = DemoController(emulator.base_url, source.show,  # type: ignore[attr-defined]
                          show_after_s=3600)
    # A symbol on screen that is no payment code: the decoder works every frame, the code
    # filter drops the read, so the Pay screen stays up.
    source.show("BENCH-NOT-A-PAYMENT-CODE")
    with open_checkout(settings) as checkout:
        app = PosApp(settings, Counter(settings, checkout), lambda: source, demo,
                     background=False)
        async with app.run_test(size=(120, 40)) as pilot:
            await app.push_screen(PayScreen(_sale()))
            while source.status().fps is None:
                await asyncio.sleep(0.1)
            await asyncio.sleep(seconds / 2)
            off_fps = source.status().fps or 0.0
            await pilot.press("p")
            preview = app.screen.query_one(CameraPreview)
            drawn_from = preview.frames_drawn
            started = time.perf_counter()
            await asyncio.sleep(seconds)
            preview_fps = (preview.frames_drawn - drawn_from) / (time.perf_counter() - started)
            drawn = preview.frames_drawn - drawn_from
            draw_ms = preview.draw_seconds / max(preview.frames_drawn, 1) * 1000
            on_fps = source.status().fps or 0.0
            decode_ms = source.status().decode_ms
            running = rss_mb()
        source.stop()
    print(f"camera running (synthetic 1280x720 @ 15 fps, preview on, 120x40): RSS "
          f"{running:.0f} MB · before the UI {before:.0f} MB · UI + camera "
          f"{running - before:.0f} MB")
    print(f"preview drawn at {preview_fps:.1f} fps ({drawn} frames, {draw_ms:.1f} ms each to "
          f"turn into cells; bar >= 10 fps) · camera loop {off_fps:.1f} fps "
          f"with the preview off, {on_fps:.1f} fps with it on (ratio "
          f"{on_fps / off_fps if off_fps else float('nan'):.2f}) · decode "
          f"{decode_ms if decode_ms is not None else float('nan'):.1f} ms/frame")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--starts", type=int, default=5)
    parser.add_argument("--payments", type=int, default=10)
    parser.add_argument("--camera-s", type=float, default=5.0)
    args = parser.parse_args()
    base = load_settings(default_config_path(), env={})
    with tempfile.TemporaryDirectory(prefix="bench-ui-") as tmp, \
            start_emulator(base, port=0) as emulator:
        settings = base.replace_service(base_url=emulator.base_url,
                                        gateway_url=emulator.gateway_url)
        settings = settings.replace_section("terminal", journal=Path(tmp) / "journal.sqlite3")
        config = Path(tmp) / "pos.toml"
        source = default_config_path().read_text(encoding="utf-8")
        config.write_text(source.replace(
            'journal = "~/.local/share/pos-terminal/journal.sqlite3"',
            f'journal = "{Path(tmp) / "start.sqlite3"}"').replace(
            "base_url = \"http://127.0.0.1:8765\"", f'base_url = "{emulator.base_url}"'),
            encoding="utf-8")
        bench_start(args.starts, config)
        bench_scan_to_result(settings, emulator, args.payments)
        asyncio.run(camera_run(settings, emulator, args.camera_s))


if __name__ == "__main__":
    main()
