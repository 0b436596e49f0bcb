"""Regenerate the UI screenshots in docs/screenshots (SVG, as Textual saves them).

    .venv/bin/python scripts/screenshots.py [FOLDER] [--size 100x30] [--language en|vi]

Both languages by default: English in FOLDER, Vietnamese in FOLDER/vi.

Each picture is one scene of tests/tui/scenes.py (the states the snapshot tests check: fixed
clock, ids and amounts), driven with Pilot against an in-process emulator, so a picture only
changes when its screen does.
"""

from __future__ import annotations

import argparse
import asyncio
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from pos_terminal.config import default_config_path, load_settings  # noqa: E402
from pos_terminal.emulator import start_emulator  # noqa: E402
from tests.tui.scenes import SCENES, save_all  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("folder", nargs="?", type=Path, default=REPO / "docs" / "screenshots")
    parser.add_argument("--size", default="100x30", help="terminal size, COLUMNSxROWS")
    parser.add_argument("--language", choices=("en", "vi"), action="append",
                        help="only this language (repeatable); default: en and vi")
    args = parser.parse_args()
    width, height = (int(n) for n in args.size.split("x"))
    base = load_settings(default_config_path(), env={})
    with start_emulator(base, port=0) as emulator:
        settings = base.replace_service(base_url=emulator.base_url,
                                        gateway_url=emulator.gateway_url)
        for language in args.language or ("en", "vi"):
            folder = args.folder if language == "en" else args.folder / language
            shown = settings.replace_section("terminal", language=language)
            asyncio.run(save_all(shown, folder, ((width, height),)))
            print(f"saved {len(SCENES)} screenshots ({width}x{height}, {language}) in {folder}")


if __name__ == "__main__":
    main()
