"""`pos-terminal banks`, `verify-redirect`, `verify-callback` and `register-webhook`: the wallet
service's own operations and what it sends to the merchant."""

from __future__ import annotations

import json
import sys
from urllib.parse import parse_qsl, urlsplit

import click

from pos_terminal import wallet_registry
from pos_terminal.base.i18n import _, current_language
from pos_terminal.base.money import format_number
from pos_terminal.base.wallet_errors import WalletError
from pos_terminal.cli.common import (
    EXIT_FAILED,
    EXIT_OK,
    EXIT_USAGE,
    fail,
    load_settings_or_exit,
    print_json,
)
from pos_terminal.config import Settings
from pos_terminal.counter.admin import (
    NoAnswer,
    NotSent,
    ServiceRefused,
    UnreadableAnswer,
    WalletClient,
)
from pos_terminal.counter.admin import verify_callback as check_callback
from pos_terminal.counter.admin import verify_redirect as check_redirect
from pos_terminal.counter.types import Bank, BankList, RedirectResult, RsaKeyError, pmc_name
from pos_terminal.text_safety import clean, json_line

_HEADERS = ("CODE", "NAME", "MIN", "MAX")


def _bank_row(bank: Bank) -> tuple[str, str, str, str]:
    return (bank.bankcode, bank.name, format_number(bank.minamount), format_number(bank.maxamount))


def format_bank_table(banks: BankList) -> str:
    """One section per payment channel, columns aligned across all of them; amounts in VND."""
    rows = [_bank_row(b) for listed in banks.banks_by_pmcid.values() for b in listed]
    widths = [max([len(h), *(len(r[i]) for r in rows)]) for i, h in enumerate(_HEADERS)]

    def line(cells: tuple[str, str, str, str]) -> str:
        code, name, low, high = cells
        return (f"  {code:<{widths[0]}}  {name:<{widths[1]}}  {low:>{widths[2]}}  "
                f"{high:>{widths[3]}}").rstrip()

    out: list[str] = []
    for pmcid, listed in banks.banks_by_pmcid.items():
        if out:
            out.append("")
        out.append((_("{channel} (pmcid {pmcid}), {count} bank") if len(listed) == 1 else
                    _("{channel} (pmcid {pmcid}), {count} banks")).format(
                        channel=pmc_name(pmcid), pmcid=pmcid, count=len(listed)))
        out.append(line(_HEADERS))
        out.extend(line(_bank_row(b)) for b in listed)
    if not out:
        return _("The service lists no banks for this application.")
    out.append("")
    out.append(_("Amounts in VND."))
    return "\n".join(out)


@click.command("banks")
@click.option("--json", "as_json", is_flag=True, help="Print the service's answer as JSON.")
@click.pass_context
def banks(ctx: click.Context, as_json: bool) -> None:
    """List the banks and payment channels the service offers this application.

    Grouped by payment channel, with each bank's minimum and maximum amount.
    Exit 0 listed, 1 the service did not answer or refused, 2 configuration error.
    """
    settings = load_settings_or_exit(ctx)
    try:
        with WalletClient(settings.service) as client:
            listed = client.list_banks()
    except RsaKeyError as exc:
        fail(f"{settings.source}: [service] rsa_public_key: {exc.message}", EXIT_USAGE)
    except (NoAnswer, NotSent, UnreadableAnswer) as exc:
        fail(f"{exc.message}. Check the network and [service] gateway_url "
             f"({settings.service.gateway_url}), then try again.", EXIT_FAILED)
    except ServiceRefused as exc:
        fail(exc.message, EXIT_FAILED)
    if as_json:
        print_json(dict(listed.raw))
    else:
        click.echo(format_bank_table(listed))


def _received(url_or_query: str) -> list[tuple[str, str]]:
    text = url_or_query.strip()
    if "?" in text or "://" in text:
        text = urlsplit(text).query
    return parse_qsl(text.lstrip("?"), keep_blank_values=True)


def _fields(result: RedirectResult) -> dict[str, object]:
    return {
        "appid": result.appid, "apptransid": result.apptransid, "pmcid": result.pmcid,
        "bankcode": result.bankcode, "amount": result.amount,
        "discountamount": result.discountamount, "status": result.status,
    }


@click.command("verify-redirect")
@click.argument("url_or_query")
@click.option("--json", "as_json", is_flag=True, help="Print the result as one JSON object.")
@click.pass_context
def verify_redirect(ctx: click.Context, url_or_query: str, as_json: bool) -> None:
    """Check the checksum of a gateway redirect (the full URL or its query string) with key2.

    Exit 0 valid (its fields are printed), 1 invalid (answer it with 400 Bad Request).
    """
    settings = load_settings_or_exit(ctx)
    result = check_redirect(url_or_query, settings.service.key2.get_secret_value(),
                            settings.service.app_id)
    if as_json:
        print_json({"valid": result.valid, "reason": result.reason, **_fields(result)})
    elif result.valid:
        click.echo("valid redirect")
        for name, value in _fields(result).items():
            click.echo(f"  {name:<15}{clean(str(value))}")
        if result.pmcid is not None:
            click.echo(f"  {'channel':<15}{pmc_name(result.pmcid)}")
    else:
        click.echo(f"invalid redirect: {clean(result.reason)}")
        received = [(k, v) for k, v in _received(url_or_query) if k != "checksum"]
        if received:
            click.echo("received (not trusted):")
            for name, value in received:
                click.echo(f"  {clean(name):<15}{clean(value)}".rstrip())
    raise click.exceptions.Exit(EXIT_OK if result.valid else EXIT_FAILED)


_CALLBACK_BODY_MAX = 1024 * 1024


def _read_body(source: str) -> bytes:
    """The callback body from a file, or stdin for "-"; exit 2 when it cannot be read."""
    try:
        if source == "-":
            raw = sys.stdin.buffer.read(_CALLBACK_BODY_MAX + 1)
        else:
            with open(source, "rb") as handle:
                raw = handle.read(_CALLBACK_BODY_MAX + 1)
    except OSError as exc:
        fail(f"cannot read the callback body from {source}: {exc.strerror or exc}. "
             "Give the file the callback's request body was saved in, or - for stdin.",
             EXIT_USAGE)
    if len(raw) > _CALLBACK_BODY_MAX:
        fail(f"the callback body in {source} is larger than 1 MiB: that is not a callback.",
             EXIT_USAGE)
    if not raw.strip():
        fail(f"the callback body in {source} is empty: save the request body the service "
             "POSTed and give that file (or pipe it in with -).", EXIT_USAGE)
    return raw


def _received_data(raw: bytes) -> dict[str, object] | None:
    """The data fields of an invalid callback, when they can be read at all (not trusted)."""
    try:
        envelope = json.loads(raw)
        data = json.loads(envelope["data"]) if isinstance(envelope, dict) else None
    except (ValueError, KeyError, TypeError, UnicodeDecodeError):
        return None
    return data if isinstance(data, dict) else None


def _shown(value: object) -> str:
    """A callback field as printed: on one line, no escape sequence (nested values as JSON)."""
    return clean(value) if isinstance(value, str) else json_line(value)


@click.command("verify-callback")
@click.argument("body_file", default="-", metavar="[FILE]")
@click.option("--json", "as_json", is_flag=True, help="Print the result as one JSON object.")
@click.pass_context
def verify_callback(ctx: click.Context, body_file: str, as_json: bool) -> None:
    """Check the mac of a server-to-server callback (its JSON request body) with key2.

    Reads the body from FILE, or from stdin when FILE is - or not given. Prints the decoded
    fields and the answer to send back. Exit 0 valid, 1 invalid (answer return_code -1),
    2 the body could not be read.
    """
    settings = load_settings_or_exit(ctx)
    raw = _read_body(body_file)
    result = check_callback(raw, settings.service.key2.get_secret_value(),
                            settings.service.app_id)
    if as_json:
        print_json({"valid": result.valid, "reason": result.reason, "type": result.type,
                    "data": dict(result.data) if result.data is not None else None,
                    "reply": dict(result.reply)})
    elif result.valid:
        click.echo("valid callback")
        assert result.data is not None
        for name, value in result.data.items():
            click.echo(f"  {clean(name):<17}{_shown(value)}".rstrip())
        click.echo(f"  {'type':<17}{result.type}")
        click.echo(f"answer with: {json.dumps(dict(result.reply))}")
    else:
        click.echo(f"invalid callback: {clean(result.reason)}")
        received = _received_data(raw)
        if received:
            click.echo("received (not trusted):")
            for name, value in received.items():
                click.echo(f"  {clean(name):<17}{_shown(value)}".rstrip())
        click.echo(f"answer with: {json.dumps(dict(result.reply))}")
    raise click.exceptions.Exit(EXIT_OK if result.valid else EXIT_FAILED)


def _webhook_sender(settings: Settings, provider: str | None
                    ) -> wallet_registry.WalletDeclaration:
    """The wallet named, or the only one this counter takes that registers a webhook."""
    senders = [n for n in settings.wallets if wallet_registry.wallet(n).register_webhook]
    if provider is not None and provider not in senders:
        fail(_("{provider} is not a wallet of this counter that takes a webhook registered "
               "from here (those that do: {senders}).").format(
                   provider=clean(provider), senders=", ".join(senders) or _("none")))
    if provider is None and len(senders) != 1:
        fail(_("Name the wallet with --provider (this counter's wallets that take a webhook "
               "registered from here: {senders}).").format(
                   senders=", ".join(senders) or _("none")))
    return wallet_registry.wallet(provider or senders[0])


@click.command("register-webhook")
@click.argument("url")
@click.option("--provider", default=None, help="The wallet whose notices go to URL (default: "
              "the only one of this counter that takes a webhook registered from here).")
@click.option("--json", "as_json", is_flag=True, help="Print the result as one JSON object.")
@click.pass_context
def register_webhook(ctx: click.Context, url: str, provider: str | None,
                     as_json: bool) -> None:
    """Make URL the address where the wallet POSTs its notices (its webhook).

    URL is the public HTTPS address of `pos-terminal serve`'s /v1/webhooks/<wallet> (through a
    reverse proxy: docs/terminal-api.md); serve must be running, the wallet POSTs a sample
    there first. Exit 0 registered, 1 the wallet refused or did not answer, 2 usage.
    """
    settings = load_settings_or_exit(ctx)
    declared = _webhook_sender(settings, provider)
    if not url.startswith(("https://", "http://")):
        fail(_("The webhook address must be an http(s) URL: {url}").format(url=clean(url)))
    assert declared.register_webhook is not None
    try:
        said = wallet_registry.resolve(declared.register_webhook)(settings, url)
    except WalletError as exc:
        fail(exc.message, EXIT_FAILED)
    if as_json:
        print_json({"provider": declared.name, "registered": True, **said})
        return
    click.echo(_("{wallet} now sends its notices to {url}.").format(
        wallet=declared.display_name(current_language()), url=clean(url)))
    for name, value in said.items():
        click.echo(f"  {clean(name):<17}{clean(value)}".rstrip())


def register(group: click.Group) -> None:
    group.add_command(register_webhook)
    group.add_command(banks)
    group.add_command(verify_redirect)
    group.add_command(verify_callback)
