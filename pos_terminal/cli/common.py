"""What every command shares: the --config option, loading settings, errors and JSON output."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any, NoReturn

import click

from pos_terminal.base.errors import ExitCode
from pos_terminal.base.i18n import LANGUAGES, _, set_language
from pos_terminal.config import ConfigError, Settings, load_settings
from pos_terminal.text_safety import json_line

CONFIG_META = "pos_terminal.config_path"
LANGUAGE_META = "pos_terminal.language"
# The one exit-code table of every command (base.errors.ExitCode): 0 paid / done, 1 definitely
# not paid / failed, 2 bad input / nothing sent, 3 outcome unknown or needs review, 4 a printer or
# the ledger unreachable, 5 refused by it.
EXIT_OK, EXIT_FAILED, EXIT_USAGE, EXIT_UNRESOLVED = (
    ExitCode.PAID, ExitCode.NOT_PAID, ExitCode.NOTHING_SENT, ExitCode.UNKNOWN)
EXIT_UNREACHABLE, EXIT_REFUSED = ExitCode.UNREACHABLE, ExitCode.REFUSED


def _remember_config(ctx: click.Context, _param: click.Parameter, value: Path | None) -> None:
    if value is not None:
        ctx.meta[CONFIG_META] = value


def config_param() -> click.Option:
    return click.Option(
        ["--config", "-c"],
        type=click.Path(dir_okay=False, path_type=Path),
        default=None,
        expose_value=False,
        is_eager=True,
        callback=_remember_config,
        help="Configuration file (default: config/default.toml, the emulator profile).",
    )


def _remember_language(ctx: click.Context, _param: click.Parameter, value: str | None) -> None:
    if value is not None:
        ctx.meta[LANGUAGE_META] = set_language(value)


def language_param() -> click.Option:
    return click.Option(
        ["--language"],
        type=click.Choice(LANGUAGES),
        default=None,
        expose_value=False,
        is_eager=True,
        callback=_remember_language,
        help="Language of what is shown (overrides [terminal] language): vi or en.",
    )


def add_config_option(command: click.Command) -> None:
    """Give a command (and, for a group, every subcommand) the --config and --language
    options."""
    if not any(p.name == "config" for p in command.params):
        command.params.append(config_param())
    if not any(p.name == "language" for p in command.params):
        command.params.append(language_param())
    if isinstance(command, click.Group):
        for sub in command.commands.values():
            add_config_option(sub)


def fail(message: str, code: int = EXIT_USAGE) -> NoReturn:
    click.echo(_("error: {message}").format(message=message), err=True)
    raise click.exceptions.Exit(code)


def refuse_undecodable_arguments(args: list[str]) -> None:
    """An argument that is not valid UTF-8 (Python keeps its bytes as lone surrogates) is
    refused with one sentence naming it, exit 2, before any command runs: written to a journal,
    a receipt or a terminal it would fail half-way."""
    for number, arg in enumerate(args):
        try:
            arg.encode("utf-8")
        except UnicodeEncodeError:
            before = args[number - 1] if number and args[number - 1].startswith("-") else None
            if arg.startswith("--") and "=" in arg:  # --name=VALUE
                before = arg.partition("=")[0]
            if before is not None and not before.isascii():  # the option's name itself
                before = None
            where = (_("the value of {option}").format(option=before) if before is not None
                     else _("argument {number}").format(number=number + 1))
            message = _("{where} is not valid UTF-8 text (the terminal or the script that "
                        "started pos-terminal sent other bytes); type it again as UTF-8. "
                        "Nothing was done.").format(where=where)
            click.echo(_("error: {message}").format(message=message), err=True)
            if "--json" in args:
                print_json({"error": message, "field": before.lstrip("-") if before else None})
            raise click.exceptions.Exit(EXIT_USAGE) from None


def load_settings_or_exit(ctx: click.Context) -> Settings:
    """The settings of --config, or a one-line error naming file and key, exit 2."""
    cache = ctx.find_root().meta
    settings = cache.get("pos_terminal.settings")
    if isinstance(settings, Settings):
        return settings
    try:
        settings = load_settings(ctx.meta.get(CONFIG_META))
    except ConfigError as exc:
        fail(str(exc), EXIT_USAGE)
    chosen = ctx.meta.get(LANGUAGE_META)
    if chosen is not None and chosen != settings.terminal.language:
        settings = settings.replace_section("terminal", language=chosen)
    set_language(settings.terminal.language)
    for warning in settings.warnings:
        click.echo(_("warning: {message}").format(message=warning), err=True)
    cache["pos_terminal.settings"] = settings
    return settings


def print_json(obj: Any) -> None:
    click.echo(json_line(obj, default=str))


@contextmanager
def fail_on_journal_error() -> Iterator[None]:
    """A JournalError escaping a command: its sentence on stderr (and, with --json, one JSON
    object on stdout), exit 2. The journal's sentences name the file and the next step."""
    from pos_terminal.counter.types import JournalError

    try:
        yield
    except JournalError as exc:
        click.echo(_("error: {message}").format(message=exc.message), err=True)
        if "--json" in sys.argv[1:]:
            print_json({"error": exc.message, "reason": getattr(exc, "reason", "journal")})
        raise click.exceptions.Exit(EXIT_USAGE) from None


# SIGINT / SIGTERM handling lives in pos_terminal.cli.signals (installed before click loads).
from pos_terminal.cli.signals import SignalStop, stop_on_signals  # noqa: E402

__all__ = ["SignalStop", "stop_on_signals"]
