"""The `pos-terminal` command: one click group, one module per command family."""

from __future__ import annotations

from pos_terminal.cli import signals as _signals

_signals.install_at_start()  # before the heavy imports: a signal during start-up is not fatal

import click  # noqa: E402

from pos_terminal import __version__  # noqa: E402
from pos_terminal.cli import (  # noqa: E402
    api_cmds,
    cashier_cmds,
    emulator_cmd,
    fleet_cmds,
    journal_upkeep_cmds,
    money_cmds,
    scan_cmds,
    ui_cmds,
    wallet_cmds,
)
from pos_terminal.cli.common import (  # noqa: E402
    add_config_option,
    fail_on_journal_error,
    refuse_undecodable_arguments,
)

#: The commands that answer about money and take SIGINT / SIGTERM as "finish, then answer".
ANSWERING_COMMANDS = frozenset({"pay", "status", "refund", "reconcile", "headless"})
#: The commands that run a front end of their own (screens, lines, the Terminal API): they
#: say their own next steps; every other command names the command to run next.
FRONT_END_COMMANDS = frozenset({None, "demo", "headless", "serve"})

__all__ = ["main"]


class _Main(click.Group):
    """The top group: a journal problem that no command turned into its own answer still ends
    as one sentence naming the journal and the next step, exit 2, never a traceback."""

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        refuse_undecodable_arguments(args)
        return super().parse_args(ctx, args)

    def invoke(self, ctx: click.Context) -> object:
        with fail_on_journal_error():
            return super().invoke(ctx)


@click.group(cls=_Main, invoke_without_command=True,
             context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="pos-terminal")
@click.pass_context
def main(ctx: click.Context) -> None:
    """Charge a customer's mobile wallet at the counter.

    With no command, starts the cashier's terminal UI with the configured scanner.
    """
    if ctx.invoked_subcommand not in ANSWERING_COMMANDS:
        _signals.release_for_other_commands()
    if ctx.invoked_subcommand not in FRONT_END_COMMANDS:
        from pos_terminal.sentences import use_front_end

        use_front_end("commands")
    if ctx.invoked_subcommand is None:
        ui_cmds.run_ui(ctx)


for _module in (wallet_cmds, emulator_cmd, money_cmds, journal_upkeep_cmds, scan_cmds, ui_cmds,
                fleet_cmds, cashier_cmds, api_cmds):
    _module.register(main)
add_config_option(main)
