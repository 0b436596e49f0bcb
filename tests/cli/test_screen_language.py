"""The language the counter's screens start in: one decision for `pos-terminal` (the UI) and
`pos-terminal demo` (cli/ui_cmds.screen_language), so that under the same LANG both start in
the same language."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import click
import pytest

from pos_terminal.base.i18n import current_language, set_language
from pos_terminal.cli.common import LANGUAGE_META
from pos_terminal.cli.ui_cmds import screen_language
from pos_terminal.config import load_settings
from tests.processes import REPO

DEFAULT = REPO / "config" / "default.toml"


@pytest.fixture(autouse=True)
def _english_after() -> Iterator[None]:
    yield
    set_language("en")


def started_in(config: Path, env: dict[str, str], chosen: str | None = None) -> str:
    ctx = click.Context(click.Command("demo"))
    if chosen is not None:
        ctx.meta[LANGUAGE_META] = chosen
    settings = load_settings(config, env=env)
    set_language(settings.terminal.language)  # as load_settings_or_exit does
    language = screen_language(ctx, settings).terminal.language
    assert current_language() == language or chosen is not None
    return language


@pytest.mark.parametrize(("env", "language"), [
    ({}, "vi"), ({"LANG": "C.UTF-8"}, "vi"), ({"LC_ALL": "POSIX"}, "vi"),
    ({"LANG": "en_US.UTF-8"}, "en"), ({"LANG": "vi_VN.UTF-8"}, "vi"),
])
def test_the_locale_decides_and_a_locale_naming_none_gives_vietnamese(
        env: dict[str, str], language: str) -> None:
    assert started_in(DEFAULT, env) == language


def test_the_file_and_the_option_win_over_the_default(tmp_path: Path) -> None:
    english = tmp_path / "en.toml"
    english.write_text(DEFAULT.read_text("utf-8").replace(
        "[terminal]\n", '[terminal]\nlanguage = "en"\n'), "utf-8")
    assert started_in(english, {"LANG": "C.UTF-8"}) == "en"
    assert started_in(DEFAULT, {"LANG": "C.UTF-8"}, chosen="en") == "en"


def test_the_commands_text_stays_english_under_a_locale_naming_none() -> None:
    # what a script reads from the other commands does not change with this decision
    assert load_settings(DEFAULT, env={"LANG": "C.UTF-8"}).terminal.language == "en"
