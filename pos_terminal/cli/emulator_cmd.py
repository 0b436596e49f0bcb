"""`pos-terminal emulator`: run the wallet-service emulator in the foreground."""

from __future__ import annotations

import click

from pos_terminal.cli.common import EXIT_USAGE, fail, load_settings_or_exit


def _parse_fault(text: str) -> dict[str, object]:
    """ENDPOINT:MODE[:COUNT[:CODE[/SUB]]], e.g. quick_pay:drop_after_commit:1,
    query:answer_code:2:2/-135 or *:delay:0."""
    parts = text.split(":")
    if len(parts) not in (2, 3, 4) or not all(parts):
        raise click.BadParameter(f"{text!r}: expected ENDPOINT:MODE[:COUNT[:CODE[/SUB]]], "
                                 "e.g. quick_pay:drop_after_commit:1 or "
                                 "query:answer_code:2:2/-135")
    rule: dict[str, object] = {"endpoint": parts[0], "mode": parts[1]}
    if len(parts) >= 3:
        if not parts[2].isdigit():
            raise click.BadParameter(f"{text!r}: COUNT must be a whole number (0: always)")
        rule["count"] = int(parts[2])
    if len(parts) == 4:
        code, _, sub = parts[3].partition("/")
        try:
            rule["return_code"] = int(code)
            if sub:
                rule["sub_return_code"] = int(sub)
        except ValueError:
            raise click.BadParameter(f"{text!r}: CODE[/SUB] must be whole numbers, e.g. "
                                     "2/-135") from None
    return rule


@click.command("emulator")
@click.option("--host", default=None, help="Address to bind (default: [emulator] host, "
                                            "127.0.0.1). 0.0.0.0 listens on every interface, "
                                            "so a phone on the same network can open the "
                                            "wallet page.")
@click.option("--port", type=click.IntRange(0, 65535), default=None,
              help="Port (default: [emulator] port, 8765; 0 picks a free one).")
@click.option("--fault", "fault_texts", multiple=True, metavar="ENDPOINT:MODE[:COUNT[:CODE[/SUB]]]",
              help="Inject a fault from the start (repeatable). Endpoints: every wallet's "
                   "declared ones (docs/emulator.md; a wrong one is refused with the list), "
                   "*. Modes: delay "
                   "(answer late), "
                   "delay_before_commit (held in transit), http500, html, refuse, garbage, "
                   "truncated, drop, drop_after_commit, answer_code (processed, then "
                   "answered with CODE[/SUB], e.g. query:answer_code:2:2/-135). COUNT 0 "
                   "means every request.")
@click.pass_context
def emulator(ctx: click.Context, host: str | None, port: int | None,
             fault_texts: tuple[str, ...]) -> None:
    """Run the local wallet-service emulator until Ctrl-C.

    It serves both API generations with the credentials of the configuration file, the
    wallets page (/wallets) for demos, and the control API (/_emulator/...) for scripts.
    """
    from pos_terminal.emulator import FaultSpecError, fault_wallet_ids, parse_rule, serve

    settings = load_settings_or_exit(ctx)
    try:
        faults = tuple(parse_rule(_parse_fault(t), fault_wallet_ids()) for t in fault_texts)
    except (FaultSpecError, click.BadParameter) as exc:
        fail(f"--fault {exc}", EXIT_USAGE)
    host = host or settings.emulator.host
    port = settings.emulator.port if port is None else port

    from pos_terminal.emulator.addresses import WILDCARDS

    def ready(base_url: str) -> None:
        click.echo(f"wallet emulator listening on {base_url}")
        click.echo(f"  wallet codes page:  {base_url}/wallets")
        if host in WILDCARDS:
            click.echo(f"  bound to every interface; a phone on this network opens "
                       f"{base_url}/wallets")
        elif host in ("127.0.0.1", "localhost", "::1"):
            click.echo("  only this machine can open it; --host 0.0.0.0 lets a phone on the "
                       "same network open the wallet page", err=True)
        click.echo(f"  control API:        {base_url}/_emulator/wallets, /_emulator/ledger")
        if settings.service.base_url.rstrip("/") != base_url:
            click.echo(f"  note: {settings.source} points the terminal at "
                       f"{settings.service.base_url}", err=True)
        for rule in faults:
            times = f"next {rule.count} request(s)" if rule.count else "every request"
            click.echo(f"  fault: {rule.mode} on {rule.endpoint}, {times}")
        click.echo("Press Ctrl-C to stop.", err=True)

    def token(value: str) -> None:
        click.echo(f"  control API token:  {value}")
        click.echo("  (bound beyond loopback: /_emulator/* needs 'Authorization: Bearer "
                   "<token>')", err=True)

    try:
        serve(settings, host, port, faults, on_ready=ready, on_token=token)
    except ValueError as exc:
        fail(str(exc), EXIT_USAGE)
    except OSError as exc:
        fail(f"cannot listen on {host}:{port}: {exc.strerror or exc}. "
             "Is another emulator running? Pick another port with --port.", EXIT_USAGE)
    click.echo("wallet emulator stopped", err=True)


def register(group: click.Group) -> None:
    group.add_command(emulator)
