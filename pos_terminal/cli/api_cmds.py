"""`serve`: the Terminal API (the counter as an HTTP/JSON service for the shop's POS software,
and the customer display); `api-token add|list|remove`: its bearer tokens.

A token is printed once, when it is added; the journal keeps only its SHA-256 hash."""

from __future__ import annotations

import logging
import signal
import sys
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import click

from pos_terminal.base.clock import format_stamp
from pos_terminal.base.i18n import N_, _
from pos_terminal.cli.cashier_cmds import (
    PinReader,
    _fail,
    authorise,
    pin_stdin_option,
    supervisor_option,
)
from pos_terminal.cli.common import load_settings_or_exit, print_json
from pos_terminal.cli.ui_cmds import open_counter_or_exit, open_scanner
from pos_terminal.config import Settings
from pos_terminal.counter.admin import DEFAULT_SCOPES, SCOPES, ApiTokens, Journal, TokenError
from pos_terminal.counter.types import JournalError


@click.command("serve")
@click.option("--host", default=None, metavar="ADDRESS",
              help="Address to bind (default [api] host, 127.0.0.1). Beyond loopback only "
                   "with TLS (--cert and --key).")
@click.option("--port", type=click.IntRange(0, 65535), default=None,
              help="Port (default [api] port, 8780; 0: a free one, printed).")
@click.option("--cert", "cert_file", type=click.Path(dir_okay=False, path_type=Path),
              default=None, help="TLS certificate (PEM), default [api] cert_file.")
@click.option("--key", "key_file", type=click.Path(dir_okay=False, path_type=Path),
              default=None, help="TLS private key (PEM), default [api] key_file.")
@click.option("--scanner", "spec", default=None, metavar="SPEC",
              help="The counter's scanner, for payments sent without payment_code (e.g. "
                   "serial:/dev/ttyACM0, camera:0).")
@click.pass_context
def serve_cmd(ctx: click.Context, host: str | None, port: int | None, cert_file: Path | None,
              key_file: Path | None, spec: str | None) -> None:
    """The Terminal API: the counter as an HTTP/JSON service (OpenAPI at /openapi.json) and
    the customer display (/display). Prints one JSON line with its address once it listens;
    SIGINT / SIGTERM let the requests under way finish."""
    settings = load_settings_or_exit(ctx)
    from pos_terminal.api.server import ApiServer, Binding, ServeError, open_terminal
    from pos_terminal.counter import Scanner

    _log_to_stderr()
    cfg = settings.api
    binding = Binding(host or cfg.host, cfg.port if port is None else port,
                      cert_file or cfg.cert_file, key_file or cfg.key_file)
    try:
        binding.check()
    except ServeError as exc:
        _fail(exc.message)
    source = open_scanner(settings, spec, device_required=True)() if spec else None
    counter = open_counter_or_exit(settings)
    scanner = Scanner(source, counter) if source is not None else None
    stop = threading.Event()
    try:
        if scanner is not None:
            scanner.start(paused=True)
        counter.reconcile_in_background()  # what a previous run left open
        server = ApiServer(open_terminal(counter, scanner), binding)
        for sig in (signal.SIGINT, signal.SIGTERM):
            signal.signal(sig, lambda *_args: stop.set())
        try:
            server.start()
        except ServeError as exc:
            _fail(exc.message)
        print_json({"ok": True, "command": "SERVING", "url": server.url,
                    "openapi": server.url + "/openapi.json", "display": server.url + "/display"})
        while not stop.wait(0.5):
            pass
        server.stop()
    finally:
        if scanner is not None:
            scanner.stop()
        counter.close()


class VietnamTimeFormatter(logging.Formatter):
    """Log lines stamped in Vietnam time, as every answer's `*_vn` time is (whatever the
    machine's time zone: servers often run in UTC)."""

    def formatTime(self, record: logging.LogRecord, datefmt: str | None = None) -> str:
        return format_stamp(int(record.created * 1000))


def _log_to_stderr() -> None:
    """The access log (method, path, status: never bodies or query strings) and the counter's
    warnings, one line each on stderr."""
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(VietnamTimeFormatter("%(asctime)s %(levelname)s %(name)s: %(message)s"))
    root = logging.getLogger("pos_terminal")
    root.addHandler(handler)
    root.setLevel(logging.INFO)


@contextmanager
def _tokens(settings: Settings, as_json: bool) -> Iterator[ApiTokens]:
    try:
        journal = Journal.open(settings.terminal.journal,
                               busy_timeout_s=settings.terminal.journal_wait_s)
    except JournalError as exc:
        _fail(exc.message, as_json=as_json)
    try:
        yield ApiTokens(journal)
    except TokenError as exc:
        _fail(exc.message, as_json=as_json)
    finally:
        journal.close()


@click.group("api-token")
def api_token_group() -> None:
    """Bearer tokens of the Terminal API: add (printed once), list, remove."""


@api_token_group.command("add")
@click.argument("name")
@click.option("--scope", "scopes", multiple=True, type=click.Choice(SCOPES),
              help="What the token may do (repeat; default: pay, refund, reports). "
                   "trusted-refund: refunds without a supervisor's PIN each time (a supervisor "
                   "authorises it now); display: only the customer display.")
@supervisor_option
@pin_stdin_option
@click.option("--json", "as_json", is_flag=True, help='Print {"token": ...} and its details.')
@click.pass_context
def add_cmd(ctx: click.Context, name: str, scopes: tuple[str, ...], supervisor_id: str | None,
            pin_stdin: bool, as_json: bool) -> None:
    """Add a token NAME and print it: this is the only time it is shown."""
    settings = load_settings_or_exit(ctx)
    chosen = scopes or DEFAULT_SCOPES
    authorised_by = None
    if "trusted-refund" in chosen:
        authorised_by = authorise(settings, action=N_("trust a token with refunds"),
                                  supervisor_id=supervisor_id, pins=PinReader(pin_stdin),
                                  as_json=as_json)
    with _tokens(settings, as_json) as book:
        token, row = book.add(name, chosen, authorised_by=authorised_by)
    if as_json:
        print_json({"token": token, **row.to_json()})
        return
    click.echo(token)
    click.echo(_("Token {name} ({scopes}) added. It is shown only now: store it in your POS "
                 "software's settings.").format(name=name, scopes=", ".join(row.scopes)),
               err=True)


@api_token_group.command("list")
@click.option("--all", "include_removed", is_flag=True, help="Removed tokens too.")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")
@click.pass_context
def list_cmd(ctx: click.Context, include_removed: bool, as_json: bool) -> None:
    """The tokens (names, scopes, dates; never the tokens themselves)."""
    settings = load_settings_or_exit(ctx)
    with _tokens(settings, as_json) as book:
        rows = book.all(include_removed=include_removed)
    if as_json:
        print_json({"tokens": [r.to_json() for r in rows]})
        return
    for r in rows:
        data: dict[str, Any] = r.to_json()
        removed = "  " + _("removed {time}").format(time=data["removed_vn"]) if r.removed_ms \
            else ""
        click.echo(f"{r.name:<20} {' '.join(r.scopes):<32} {data['created_vn']}{removed}")
    if not rows:
        click.echo(_("No tokens: add one with pos-terminal api-token add NAME."), err=True)


@api_token_group.command("remove")
@click.argument("name")
@click.pass_context
def remove_cmd(ctx: click.Context, name: str) -> None:
    """Remove a token: from now on it is refused (401)."""
    settings = load_settings_or_exit(ctx)
    with _tokens(settings, False) as book:
        book.remove(name)
    click.echo(_("Token {name} removed.").format(name=name), err=True)


def register(group: click.Group) -> None:
    group.add_command(serve_cmd)
    group.add_command(api_token_group)
